import { startStack, type Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, settled, type Client } from '../leads/fixtures';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { startVendor, type VendorServer } from './vendors';
import { currentFeed, xmlAnswer, type FeedEntry } from './sec-fixtures';
import {
  FEED_FORMS,
  filingsFeedPath,
  form3Submission,
  headerPath,
  headerSgml,
  ownerFeed,
  ownerFeedPath,
  submissionPath,
  textAnswer,
} from './sec-filings-fixtures';
import { runSourceNow } from './source-runs';

let stack: Stack;
let sec: VendorServer;
let receiver: Receiver;
let account: TestAccount;
let api: Client;
const listed = new Map<string, FeedEntry[]>(FEED_FORMS.map((form) => [form, []]));

beforeAll(async () => {
  sec = await startVendor();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `www.sec.gov=${sec.origin}`,
      SEC_FILINGS_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  for (const form of FEED_FORMS)
    sec.answer(filingsFeedPath(form), () => xmlAnswer(currentFeed(listed.get(form)!), 'application/atom+xml'));
  account = await createAccount(stack, { credits: 100 });
  api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await sec?.close();
});

const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

test('a job-changes signal for Chief Financial Officers gets a lead from a Form 3, with the previous company from the owner’s earlier filing', async () => {
  const signal = await createSignal(api, 'job-changes', {
    name: 'New CFOs',
    status: 'active',
    webhookUrl: receiver.url,
    config: { jobTitles: ['Chief Financial Officer'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  const owner = { cik: '0001950001', name: 'OKAFOR AMARA N' };
  const issuer = { cik: '0001950002', name: 'Lumen Grid, Inc.', ticker: 'LGRD' };
  const started = dayAgo(4);
  const filedOn = dayAgo(1);
  const accession = '0001209191-26-700001';
  listed
    .get('3')!
    .unshift(
      { form: '3', company: owner.name, cik: owner.cik, accession, filedOn, role: 'Reporting' },
      { form: '3', company: issuer.name.toUpperCase(), cik: issuer.cik, accession, filedOn, role: 'Issuer' },
    );
  sec.answer(
    submissionPath(issuer.cik, accession),
    textAnswer(
      form3Submission(accession, filedOn, {
        issuer,
        period: started,
        owners: [{ ...owner, officer: true, title: 'Chief Financial Officer' }],
      }),
    ),
  );
  sec.answer(
    ownerFeedPath(owner.cik),
    xmlAnswer(
      ownerFeed(owner, [
        { accession, form: '3', filedOn },
        { accession: '0001209191-23-000410', form: '3', filedOn: '2023-05-08' },
      ]),
      'application/atom+xml',
    ),
  );
  sec.answer(
    submissionPath(owner.cik, '0001209191-23-000410'),
    textAnswer(
      form3Submission('0001209191-23-000410', '2023-05-08', {
        issuer: { cik: '0001950003', name: 'Tanager Payments Corp' },
        period: '2023-05-01',
        owners: [{ ...owner, officer: true, title: 'SVP, Finance' }],
      }),
    ),
  );

  // A run that could not read a document says why here, before the lead is looked for.
  const run = await runSourceNow(stack, 'sec-filings');
  expect({ errors: run.errors, lastError: run.lastError }).toEqual({ errors: 0, lastError: null });
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toEqual({
    id: signal.id,
    name: 'New CFOs',
    type: 'job_changes',
    last_signal: 'Job Change',
    last_signal_date: started,
    previous_title: 'Senior Vice President, Finance',
    previous_company: 'Tanager Payments Corp',
    new_title: 'Chief Financial Officer',
    new_company: 'Lumen Grid, Inc.',
    new_job_started_on: `${started.slice(5, 7)}/${started.slice(0, 4)}`,
    new_job_start_month: started.slice(0, 7),
    change_type: 'company',
  });
  expect(leads[0].contact).toMatchObject({
    first_name: 'Amara',
    last_name: 'Okafor',
    title: 'Chief Financial Officer',
    matched_persona: 'Chief Financial Officer',
  });
  expect(leads[0].company).toMatchObject({ name: 'Lumen Grid, Inc.' });
  const [delivered] = await receiver.waitFor(1);
  expect(delivered!.verified).toBe(true);
  expect(delivered!.body.signal).toEqual(leads[0].signal);
});

test('a watchlist on a company gets a mergers_acquisitions lead with watchlist_role acquiree from a tender offer for it', async () => {
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Targets',
    status: 'active',
    webhookUrl: receiver.url,
    config: { companies: ['Kestrel Therapeutics, Inc.'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  const filedOn = dayAgo(1);
  const accession = '0001193125-26-710001';
  const kestrel = { cik: '0001950010', name: 'KESTREL THERAPEUTICS, INC.', city: 'BOSTON', state: 'MA' };
  listed.get('SC TO-T')!.unshift({
    form: 'SC TO-T',
    company: kestrel.name,
    cik: kestrel.cik,
    accession,
    filedOn,
    role: 'Subject',
  });
  sec.answer(
    headerPath(kestrel.cik, accession),
    textAnswer(
      headerSgml({
        accession,
        form: 'SC TO-T',
        filedOn,
        subject: kestrel,
        filedBy: [
          { cik: '0001950011', name: 'Osprey Merger Sub, Inc.' },
          { cik: '0001950012', name: 'OSPREY PHARMA CORP', city: 'NEW YORK', state: 'NY' },
        ],
      }),
    ),
  );

  // A run that could not read a document says why here, before the lead is looked for.
  const run = await runSourceNow(stack, 'sec-filings');
  expect({ errors: run.errors, lastError: run.lastError }).toEqual({ errors: 0, lastError: null });
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    id: signal.id,
    type: 'account_watchlist',
    last_signal: 'Watched Company Deal',
    last_signal_date: filedOn,
    deal_type: 'Tender Offer',
    watchlist_role: 'acquiree',
    announcement_date: filedOn,
  });
  expect(leads[0].company).toMatchObject({ name: 'KESTREL THERAPEUTICS, INC.' });
  const delivered = await receiver.waitFor(2);
  expect(delivered.map((d) => d.body.signal.type)).toEqual(['job_changes', 'account_watchlist']);
});
