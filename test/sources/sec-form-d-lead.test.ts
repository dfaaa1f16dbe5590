import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { currentFeed, feedPath, formDXml, primaryDocPath, xmlAnswer, type FeedEntry } from './sec-fixtures';
import { runSourceNow } from './source-runs';

let stack: Stack;
let sec: VendorServer;
const listed: FeedEntry[] = [];

beforeAll(async () => {
  sec = await startVendor();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `www.sec.gov=${sec.origin}`,
      SEC_FORM_D_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  sec.answer(feedPath(0), () => xmlAnswer(currentFeed(listed), 'application/atom+xml'));
});

afterAll(async () => {
  await stack?.stop();
  await sec?.close();
});

const runSecFormD = () => runSourceNow(stack, 'sec-form-d');

const HERON = {
  cik: '0001930001',
  name: 'Heron Robotics, Inc.',
  city: 'PITTSBURGH',
  state: 'PA',
  industry: 'Other Technology',
  people: [
    {
      first: 'Maria',
      last: 'Lopez',
      roles: ['Executive Officer', 'Director'],
      clarification: 'Chief Executive Officer',
    },
    { first: 'Tom', last: 'Brand', roles: ['Director'] },
  ],
};

test('a Form D filing becomes a fundraising lead naming the issuer and its executive officer; its amendment makes no second lead', async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'fundraising', {
    name: 'Private rounds, CEOs',
    status: 'active',
    config: { targetPersonas: ['Chief Executive Officer'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  const filedOn = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  listed.unshift({ form: 'D', company: HERON.name, cik: HERON.cik, accession: '0001930001-26-000001', filedOn });
  sec.answer(
    primaryDocPath(HERON.cik, '0001930001-26-000001'),
    xmlAnswer(formDXml({ ...HERON, offering: '6000000', sold: '2500000' })),
  );
  await runSecFormD();
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toEqual({
    id: signal.id,
    name: 'Private rounds, CEOs',
    type: 'fundraising',
    last_signal: 'Company Raised',
    last_signal_date: filedOn,
    funding_stage: 'Equity',
    funding_amount_usd: 2_500_000,
    announcement_date: filedOn,
  });
  expect(leads[0].contact).toMatchObject({
    first_name: 'Maria',
    last_name: 'Lopez',
    title: 'Chief Executive Officer',
    matched_persona: 'Chief Executive Officer',
  });
  expect(leads[0].company).toMatchObject({ name: 'Heron Robotics, Inc.' });

  // The amendment (more sold) revises the round; the signal makes no second lead of it.
  const amendedOn = new Date().toISOString().slice(0, 10);
  listed.unshift({
    form: 'D/A',
    company: HERON.name,
    cik: HERON.cik,
    accession: '0001930001-26-000002',
    filedOn: amendedOn,
  });
  sec.answer(
    primaryDocPath(HERON.cik, '0001930001-26-000002'),
    xmlAnswer(
      formDXml({
        ...HERON,
        type: 'D/A',
        previousAccession: '0001930001-26-000001',
        offering: '6000000',
        sold: '5000000',
      }),
    ),
  );
  await runSecFormD();
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(1);
  expect(
    await stack.db.query(`SELECT data->'funding_amount_usd' AS amount FROM events WHERE id = $1`, [
      'sec-form-d:0001930001-26-000001',
    ]),
  ).toEqual([{ amount: 5_000_000 }]);
});
