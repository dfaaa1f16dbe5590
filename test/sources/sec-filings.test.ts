import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, createSignal, settled, waitFor } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { currentFeed, dailyFormIndex, dailyIndexPath, xmlAnswer, type FeedEntry } from './sec-fixtures';
import {
  FEED_FORMS,
  currentReportSubmission,
  filingsFeedPath,
  form3Submission,
  headerPath,
  headerSgml,
  ownerFeed,
  ownerFeedPath,
  submissionPath,
  textAnswer,
  type Form3Fixture,
  type PartyFixture,
} from './sec-filings-fixtures';
import { runSourceNow } from './source-runs';

let stack: Stack;
let sec: VendorServer;
/** What each form's current feed lists now, newest first. */
const listed = new Map<string, FeedEntry[]>(FEED_FORMS.map((form) => [form, []]));

beforeAll(async () => {
  sec = await startVendor();
  stack = await startStack({
    env: {
      SOURCES_CONTACT_EMAIL: 'filings-ops@leads.example.com',
      SOURCES_HOST_MAP: `www.sec.gov=${sec.origin}`,
      SOURCES_TIMEOUT_MS: '20000',
      SEC_FILINGS_INTERVAL: '24h',
      SEC_FILINGS_BACKFILL_DAYS: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  for (const form of FEED_FORMS)
    sec.answer(filingsFeedPath(form), () => xmlAnswer(currentFeed(listed.get(form)!), 'application/atom+xml'));
});

afterAll(async () => {
  await stack?.stop();
  await sec?.close();
});

const runSource = (verb: 'run' | 'backfill' = 'run') => runSourceNow(stack, 'sec-filings', verb);
const requestsFor = (path: string) => sec.requests.filter((r) => r.path === path);
const filingStatus = async (accession: string) =>
  (await stack.db.query(`SELECT status, problem FROM sec_filings WHERE accession = $1`, [accession]))[0];
const eventsLike = (pattern: string) =>
  stack.db.query(
    `SELECT id, type, company_id, person_id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, data
     FROM events WHERE id LIKE $1 ORDER BY id`,
    [pattern],
  );

/** A Form 3 on the feed (listed twice, as EDGAR does: owner and issuer) and its submission served under the issuer. */
function fileForm3(accession: string, filedOn: string, f: Form3Fixture) {
  const owner = f.owners[0]!;
  listed
    .get('3')!
    .unshift(
      { form: '3', company: owner.name, cik: owner.cik, accession, filedOn, role: 'Reporting' },
      { form: '3', company: f.issuer.name.toUpperCase(), cik: f.issuer.cik, accession, filedOn, role: 'Issuer' },
    );
  sec.answer(submissionPath(f.issuer.cik, accession), textAnswer(form3Submission(accession, filedOn, f)));
}

const PLOVER = { cik: '0001700002', name: 'Plover Systems Inc' };
const KESTREL: PartyFixture = { cik: '0001700001', name: 'KESTREL THERAPEUTICS, INC.', city: 'BOSTON', state: 'MA' };
const OSPREY: PartyFixture = { cik: '0000078003', name: 'OSPREY PHARMA CORP', city: 'NEW YORK', state: 'NY' };
const OSPREY_SUB: PartyFixture = { cik: '0001900991', name: 'Osprey Merger Sub, Inc.' };

test("Form 3: directors and officers become people with job changes, the previous company from the owner's earlier Form 3 on the second page of their filings; a ten percent owner only is no job change", async () => {
  const dana = { cik: '0001900777', name: 'WHITFIELD DANA K' };
  fileForm3('0001209191-26-000201', '2026-11-24', {
    issuer: { ...PLOVER, ticker: 'PLVR' },
    period: '2026-11-16',
    owners: [
      { ...dana, officer: true, title: 'EVP & CFO' },
      { cik: '0001900778', name: 'Garrett, Mark', director: true, flags: 'words' },
    ],
  });
  fileForm3('0001209191-26-000202', '2026-11-24', {
    issuer: PLOVER,
    period: '2026-11-17',
    owners: [{ cik: '0001900779', name: 'HARBOR GROWTH FUND II, L.P.', tenPercent: true }],
  });
  // Dana's own filings, newest first: a full page of later amendments, then the earlier Form 3 at Heron.
  const later = Array.from({ length: 39 }, (_, i) => ({
    accession: `0001209191-26-0003${String(i).padStart(2, '0')}`,
    form: '3/A',
    filedOn: '2026-11-25',
  }));
  sec.answer(
    ownerFeedPath(dana.cik, 0),
    xmlAnswer(
      ownerFeed(dana, [...later, { accession: '0001209191-26-000201', form: '3', filedOn: '2026-11-24' }]),
      'application/atom+xml',
    ),
  );
  sec.answer(
    ownerFeedPath(dana.cik, 40),
    xmlAnswer(
      ownerFeed(dana, [{ accession: '0001209191-21-000033', form: '3', filedOn: '2021-03-02' }]),
      'application/atom+xml',
    ),
  );
  sec.answer(
    submissionPath(dana.cik, '0001209191-21-000033'),
    textAnswer(
      form3Submission('0001209191-21-000033', '2021-03-02', {
        issuer: { cik: '0001600009', name: 'Heron Robotics, Inc.' },
        period: '2021-02-26',
        owners: [{ ...dana, officer: true, title: 'VP Finance' }],
      }),
    ),
  );

  const status = await runSource();

  expect(await eventsLike('sec-form-3:0001209191-26-00020%')).toEqual([
    {
      id: 'sec-form-3:0001209191-26-000201:0001900777',
      type: 'job_change',
      company_id: 'sec-cik-0001700002',
      person_id: 'sec-owner-0001900777-at-0001700002',
      day: '2026-11-16',
      data: {
        previous_title: 'Vice President Finance',
        previous_company: 'Heron Robotics, Inc.',
        new_title: 'Executive Vice President & Chief Financial Officer',
        new_company: 'Plover Systems Inc',
        new_job_started_on: '11/2026',
        new_job_start_month: '2026-11',
        change_type: 'company',
      },
    },
    {
      id: 'sec-form-3:0001209191-26-000201:0001900778',
      type: 'job_change',
      company_id: 'sec-cik-0001700002',
      person_id: 'sec-owner-0001900778-at-0001700002',
      day: '2026-11-16',
      data: {
        new_title: 'Director',
        new_company: 'Plover Systems Inc',
        new_job_started_on: '11/2026',
        new_job_start_month: '2026-11',
      },
    },
  ]);
  expect(
    await stack.db.query(
      `SELECT first_name, last_name, title, persona, city FROM people WHERE company_id = 'sec-cik-0001700002' ORDER BY id`,
    ),
  ).toMatchObject([
    {
      first_name: 'Dana',
      last_name: 'Whitfield',
      title: 'Executive Vice President & Chief Financial Officer',
      persona: 'Chief Financial Officer',
      city: 'San Mateo',
    },
    { first_name: 'Mark', last_name: 'Garrett', title: 'Director', city: 'San Mateo' },
  ]);
  expect(await filingStatus('0001209191-26-000202')).toEqual({
    status: 'skipped',
    problem: 'no director or officer (a ten percent owner only is no job change)',
  });
  // Listed twice on the feed, read once; Mark's filing list is missing (404): no previous company, no error.
  expect(requestsFor(submissionPath(PLOVER.cik, '0001209191-26-000201'))).toHaveLength(1);
  expect(requestsFor(ownerFeedPath(dana.cik, 40))).toHaveLength(1);
  expect(requestsFor(ownerFeedPath('0001900778', 0))).toHaveLength(1);
  expect(status.lastError ?? null).toBeNull();
  expect(status.detail).toBe(
    "reads EDGAR's Forms 3, 8-K, SC TO-T, SC 14D9, DEFM14A, S-4, 425: 1 filings ingested, 0 to read",
  );
  expect(sec.requests.every((r) => /filings-ops@leads\.example\.com/.test(String(r.headers['user-agent'])))).toBe(true);
});

test('8-K: a watched issuer’s Item 5.02 appointment is a new decision maker with the filing’s URL; nobody named is company news; an unwatched issuer is read no further than its header', async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'Plover',
    status: 'active',
    config: { companies: ['Plover Systems Inc'] },
  });
  await settled(stack, watchlist.id);

  const file8K = (accession: string, filer: PartyFixture, body: string | null) => {
    listed.get('8-K')!.unshift({ form: '8-K', company: filer.name, cik: filer.cik, accession, filedOn: '2026-11-25' });
    sec.answer(
      headerPath(filer.cik, accession),
      textAnswer(
        headerSgml({ accession, form: '8-K', filedOn: '2026-11-25', period: '2026-11-23', items: ['5.02'], filer }),
      ),
    );
    if (body !== null)
      sec.answer(
        submissionPath(filer.cik, accession),
        textAnswer(
          currentReportSubmission({ accession, filedOn: '2026-11-25', filer, itemsText: [{ item: '5.02', body }] }),
        ),
      );
  };
  file8K(
    '0001193125-26-400001',
    { cik: PLOVER.cik, name: 'PLOVER SYSTEMS INC' },
    'On November 23, 2026, the Board of Directors appointed Luis Ortega, age 52, as Chief Operating Officer of the Company.',
  );
  file8K(
    '0001193125-26-400002',
    { cik: PLOVER.cik, name: 'PLOVER SYSTEMS INC' },
    'On November 23, 2026, the Company and its former executive agreed the terms set out in Exhibit 10.1.',
  );
  file8K('0001193125-26-400003', { cik: '0001700099', name: 'UNWATCHED WIDGETS CORP' }, null);

  await runSource();

  expect(await eventsLike('sec-8k:0001193125-26-40000%')).toEqual([
    {
      id: 'sec-8k:0001193125-26-400001:luis-ortega',
      type: 'new_decision_makers',
      company_id: 'sec-cik-0001700002',
      person_id: 'sec-8k-0001700002-luis-ortega',
      day: '2026-11-23',
      data: {
        new_job_started_on: '11/2026',
        new_job_start_month: '2026-11',
        news_url: 'https://www.sec.gov/Archives/edgar/data/1700002/000119312526400001/0001193125-26-400001-index.htm',
      },
    },
    {
      id: 'sec-8k:0001193125-26-400002:5.02',
      type: 'company_news',
      company_id: 'sec-cik-0001700002',
      person_id: null,
      day: '2026-11-23',
      data: expect.objectContaining({
        news_event_type: 'leadership_change',
        news_url: 'https://www.sec.gov/Archives/edgar/data/1700002/000119312526400002/0001193125-26-400002-index.htm',
      }),
    },
  ]);
  expect(await filingStatus('0001193125-26-400003')).toEqual({
    status: 'skipped',
    problem: 'the issuer is not watched',
  });
  expect(requestsFor(submissionPath('0001700099', '0001193125-26-400003'))).toEqual([]);
});

test('one deal, one event: the bidder’s SC TO-T and the target’s SC 14D9 are one event at the target; a record of another source ingested by the operator is linked to it', async () => {
  listed.get('SC TO-T')!.unshift({
    form: 'SC TO-T',
    company: KESTREL.name,
    cik: KESTREL.cik,
    accession: '0001193125-26-300001',
    filedOn: '2026-11-24',
    role: 'Subject',
  });
  sec.answer(
    headerPath(KESTREL.cik, '0001193125-26-300001'),
    textAnswer(
      headerSgml({
        accession: '0001193125-26-300001',
        form: 'SC TO-T',
        filedOn: '2026-11-24',
        subject: KESTREL,
        filedBy: [OSPREY_SUB, OSPREY],
      }),
    ),
  );
  await runSource();
  // The target's recommendation follows two days later.
  listed.get('SC 14D9')!.unshift({
    form: 'SC 14D9',
    company: KESTREL.name,
    cik: KESTREL.cik,
    accession: '0001104659-26-300002',
    filedOn: '2026-11-26',
  });
  sec.answer(
    headerPath(KESTREL.cik, '0001104659-26-300002'),
    textAnswer(
      headerSgml({
        accession: '0001104659-26-300002',
        form: 'SC 14D9',
        filedOn: '2026-11-26',
        subject: KESTREL,
        filedBy: [KESTREL],
      }),
    ),
  );

  await runSource();

  expect(await eventsLike('sec-deal:%')).toEqual([
    {
      id: 'sec-deal:0001193125-26-300001:0000078003',
      type: 'mergers_acquisitions',
      company_id: 'sec-cik-0000078003',
      person_id: null,
      day: '2026-11-24',
      data: { deal_type: 'Tender Offer', watchlist_role: 'acquirer', announcement_date: '2026-11-24' },
    },
    {
      id: 'sec-deal:0001193125-26-300001:0001700001',
      type: 'mergers_acquisitions',
      company_id: 'sec-cik-0001700001',
      person_id: null,
      day: '2026-11-24',
      data: { deal_type: 'Tender Offer', watchlist_role: 'acquiree', announcement_date: '2026-11-24' },
    },
  ]);
  expect(await stack.db.query(`SELECT name, hq_city FROM companies WHERE id = 'sec-cik-0001700001'`)).toEqual([
    { name: 'KESTREL THERAPEUTICS, INC.', hq_city: 'Boston' },
  ]);

  // A wire story of the same deal, from another source, through the operator's ingestion.
  const ingest = (records: unknown[]) =>
    call(`${stack.url}/admin/v1/ingest`, {
      method: 'POST',
      token: TEST_ADMIN_TOKEN,
      rawBody: records.map((r) => JSON.stringify(r)).join('\n') + '\n',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
  const story = (id: string, companyId: string, day: string, role = 'acquiree') => ({
    kind: 'event',
    id,
    type: 'mergers_acquisitions',
    occurredAt: `${day}T09:00:00Z`,
    companyId,
    data: { deal_type: 'Acquisition', watchlist_role: role, announcement_date: day },
  });
  const answer = await ingest([
    story('newswire:kestrel-osprey', 'sec-cik-0001700001', '2026-11-27'),
    // Another company's deal, and Kestrel's next deal two years on, are deals of their own.
    story('newswire:plover-sold', 'sec-cik-0001700002', '2026-11-27'),
    story('newswire:kestrel-2028', 'sec-cik-0001700001', '2028-12-01'),
  ]);
  expect(answer.body).toEqual({ accepted: 2, duplicates: 1, rejected: 0, errors: [] });

  expect(
    await stack.db.query(
      `SELECT record_id, event_id, watchlist_role, counterparty FROM deal_sightings
       WHERE company_id = 'sec-cik-0001700001' ORDER BY seen_on, record_id`,
    ),
  ).toEqual([
    {
      record_id: 'sec-deal:0001193125-26-300001:0001700001',
      event_id: 'sec-deal:0001193125-26-300001:0001700001',
      watchlist_role: 'acquiree',
      counterparty: 'OSPREY PHARMA CORP',
    },
    {
      record_id: 'sec-deal:0001104659-26-300002:0001700001',
      event_id: 'sec-deal:0001193125-26-300001:0001700001',
      watchlist_role: 'acquiree',
      counterparty: null,
    },
    {
      record_id: 'newswire:kestrel-osprey',
      event_id: 'sec-deal:0001193125-26-300001:0001700001',
      watchlist_role: 'acquiree',
      counterparty: null,
    },
    {
      record_id: 'newswire:kestrel-2028',
      event_id: 'newswire:kestrel-2028',
      watchlist_role: 'acquiree',
      counterparty: null,
    },
  ]);
  expect(await filingStatus('0001104659-26-300002')).toEqual({ status: 'ingested', problem: null });
  // Sent again, the story changes nothing.
  expect((await ingest([story('newswire:kestrel-osprey', 'sec-cik-0001700001', '2026-11-27')])).body).toMatchObject({
    accepted: 0,
    duplicates: 1,
  });
});

test('a backfill lists the forms of the daily indexes; a missing submission, a malformed document and a 429 with Retry-After are each handled', async () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const rows = [
    {
      form: '10-K',
      company: 'Big Public Corp',
      cik: '0000012345',
      accession: '0000012345-26-000100',
      filedOn: yesterday,
    },
    // A filing of two parties: two rows, one filing.
    {
      form: '425',
      company: 'OSPREY PHARMA CORP',
      cik: OSPREY.cik,
      accession: '0001193125-26-500001',
      filedOn: yesterday,
    },
    {
      form: '425',
      company: 'KESTREL THERAPEUTICS, INC.',
      cik: KESTREL.cik,
      accession: '0001193125-26-500001',
      filedOn: yesterday,
    },
    {
      form: '3',
      company: 'Plover Systems Inc',
      cik: PLOVER.cik,
      accession: '0001209191-26-500002',
      filedOn: yesterday,
    },
    {
      form: '3',
      company: 'Plover Systems Inc',
      cik: PLOVER.cik,
      accession: '0001209191-26-500003',
      filedOn: yesterday,
    },
    {
      form: 'DEFM14A',
      company: 'Finch Analytics Inc',
      cik: '0001700005',
      accession: '0001193125-26-500004',
      filedOn: yesterday,
    },
  ];
  sec.answer(dailyIndexPath(yesterday), xmlAnswer(dailyFormIndex(yesterday, rows), 'text/plain'));
  let asked = 0;
  sec.answer(headerPath(OSPREY.cik, '0001193125-26-500001'), () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' }
      : textAnswer(
          headerSgml({
            accession: '0001193125-26-500001',
            form: '425',
            filedOn: yesterday,
            subject: KESTREL,
            filedBy: [OSPREY],
          }),
        ),
  );
  // 0001209191-26-500002 is not served: a 404.
  sec.answer(
    submissionPath(PLOVER.cik, '0001209191-26-500003'),
    textAnswer('<SEC-DOCUMENT><XML><ownershipDocument><issuer>'),
  );
  sec.answer(
    headerPath('0001700005', '0001193125-26-500004'),
    textAnswer(
      headerSgml({
        accession: '0001193125-26-500004',
        form: 'DEFM14A',
        filedOn: yesterday,
        filer: { cik: '0001700005', name: 'FINCH ANALYTICS INC' },
      }),
    ),
  );

  await runSource('backfill');

  expect(
    await stack.db.query(
      `SELECT accession, form, status FROM sec_filings WHERE accession LIKE '%-26-5000%' ORDER BY accession`,
    ),
  ).toEqual([
    { accession: '0001193125-26-500001', form: '425', status: 'ingested' },
    { accession: '0001193125-26-500004', form: 'DEFM14A', status: 'ingested' },
    { accession: '0001209191-26-500002', form: '3', status: 'failed' },
    { accession: '0001209191-26-500003', form: '3', status: 'failed' },
  ]);
  expect((await filingStatus('0001209191-26-500002')).problem).toMatch(
    /^Form 3 0001209191-26-500002: the submission: .*404/,
  );
  expect((await filingStatus('0001209191-26-500003')).problem).toMatch(/not well-formed XML/);
  expect(requestsFor(headerPath(OSPREY.cik, '0001193125-26-500001'))).toHaveLength(2);
  // The 425 of a deal seen already (the tender offer) is linked to it; the merger proxy's target has its deal.
  expect(
    await stack.db.query(
      `SELECT record_id, event_id FROM deal_sightings WHERE record_id LIKE 'sec-deal:0001193125-26-50000%' ORDER BY record_id`,
    ),
  ).toEqual([
    {
      record_id: 'sec-deal:0001193125-26-500001:0000078003',
      event_id: 'sec-deal:0001193125-26-300001:0000078003',
    },
    {
      record_id: 'sec-deal:0001193125-26-500001:0001700001',
      event_id: 'sec-deal:0001193125-26-300001:0001700001',
    },
    {
      record_id: 'sec-deal:0001193125-26-500004:0001700005',
      event_id: 'sec-deal:0001193125-26-500004:0001700005',
    },
  ]);
  const dayBefore = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  expect(requestsFor(dailyIndexPath(dayBefore))).toHaveLength(1);
});

test('a run killed mid-way is resumed by the next: the filing under way is read to its end, nothing twice', async () => {
  let release!: () => void;
  const accession = '0001193125-26-600001';
  const bittern: PartyFixture = { cik: '0001700007', name: 'BITTERN FOODS INC' };
  listed
    .get('DEFM14A')!
    .unshift({ form: 'DEFM14A', company: bittern.name, cik: bittern.cik, accession, filedOn: '2026-11-27' });
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  sec.answer(headerPath(bittern.cik, accession), () =>
    holding
      ? { hold: held.then(() => void (holding = false)) }
      : textAnswer(headerSgml({ accession, form: 'DEFM14A', filedOn: '2026-11-27', filer: bittern })),
  );
  const before = await stack.services.sources.get('sec-filings');
  const answer = await call(`${stack.url}/admin/v1/sources/sec-filings/run`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  expect(answer.status).toBe(200);
  await waitFor(
    'the header asked for',
    async () => requestsFor(headerPath(bittern.cik, accession)).length,
    (n) => n > 0,
    {
      timeoutMs: 60_000,
    },
  );
  const scheduled = await stack.temporal.schedule
    .getHandle(stack.services.sources.schedules.idOf('sec-filings'))
    .describe();
  const running = scheduled.info.runningActions[0]!.workflow;
  await stack.temporal.workflow.getHandle(running.workflowId).terminate('killed mid-run by the test');
  release();
  await waitFor(
    'the filing under way read to its end',
    async () => (await filingStatus(accession))?.status,
    (status) => status === 'ingested',
    { timeoutMs: 60_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const resumed = await runSource();
  expect(requestsFor(headerPath(bittern.cik, accession))).toHaveLength(1);
  expect(await eventsLike(`sec-deal:${accession}:%`)).toHaveLength(1);
  expect(resumed.recordsIngested).toBeGreaterThanOrEqual(before.recordsIngested);
});
