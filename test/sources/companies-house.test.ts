import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, ingest, settled } from '../leads/fixtures';
import { CompaniesHouse } from '../../src/sources/companies-house/companies-house';
import { Sources } from '../../src/sources/sources';
import { createLogger } from '../../src/logger';
import { startVendor, type VendorServer } from './vendors';
import {
  allotment,
  companyProfile,
  filingHistory,
  incorporation,
  officerEvent,
  startStreamServer,
  type StreamServer,
} from './companies-house-fixtures';

const CONTACT = 'registers-ops@leads.example.com';
const REST_KEY = 'rest-key-1';
const STREAM_KEY = 'stream-key-1';
let stack: Stack;
let rest: VendorServer;
let stream: StreamServer;

beforeAll(async () => {
  rest = await startVendor();
  stream = await startStreamServer();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `api.company-information.service.gov.uk=${rest.origin},stream.companieshouse.gov.uk=${stream.origin}`,
      COMPANIES_HOUSE_API_KEY: REST_KEY,
      COMPANIES_HOUSE_STREAM_KEY: STREAM_KEY,
      COMPANIES_HOUSE_INTERVAL: '24h',
      COMPANIES_HOUSE_STREAM_READ_SECONDS: '3',
      COMPANIES_HOUSE_GBP_USD_RATE: '1.25',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await rest?.close();
  await stream?.close();
});

let lastTrigger = 0;

async function runSource() {
  // A schedule's triggered run is named by the second it starts in.
  if (Math.floor(Date.now() / 1000) === Math.floor(lastTrigger / 1000)) {
    await new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));
  }
  lastTrigger = Date.now();
  const before = (await stack.services.sources.get('companies-house')).lastRunFinishedAt;
  const answer = await call(`${stack.url}/admin/v1/sources/companies-house/run`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  expect(answer.status).toBe(200);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const status = await stack.services.sources.get('companies-house');
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the companies-house run did not finish within 90 s');
}

// One moment for the whole file: a fixture made before midnight and its check after must name one day.
const FILE_STARTED = Date.now();
const daysAgo = (days: number) => new Date(FILE_STARTED - days * 86_400_000).toISOString().slice(0, 10);
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const chEvents = () =>
  stack.db.query(
    `SELECT e.id, e.type, e.company_id, e.person_id, e.data FROM events e WHERE e.id LIKE 'companies-house:%' ORDER BY e.id`,
  );
const storedTimepoint = async () =>
  Number(
    (await stack.db.query(`SELECT timepoint FROM companies_house_streams WHERE stream = 'officers'`))[0]?.timepoint,
  );

const HERON = '01000001';
const OTHER = '02000002';
const KESTREL = '03000003';

test('the officers stream gives decision makers at known and watched companies, resumes from its timepoint after a disconnect, and SH01 allotments become rounds', async () => {
  // Known to the store by name; watched by a name-only watchlist entry; a third unknown to both.
  await ingest(stack, [
    { kind: 'company', id: 'co-heron', name: 'Heron Analytics', hqCountryCode: 'GB', hqCity: 'London' } as never,
  ]);
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'UK accounts',
    status: 'active',
    config: { companies: ['Kestrel Labs'] },
  });
  await settled(stack, watchlist.id);

  const recent = daysAgo(3);
  stream.plays.push({
    lines: [
      officerEvent({
        timepoint: 100,
        number: HERON,
        appointmentId: 'apptHeron1',
        name: 'SMITH, Jane Alice',
        role: 'director',
        appointedOn: recent,
      }),
      '',
      officerEvent({
        timepoint: 101,
        number: OTHER,
        appointmentId: 'apptOther1',
        name: 'ROE, John',
        role: 'director',
        appointedOn: recent,
      }),
      // Not new decision makers: a secretary, a resignation, an old appointment changing, a company as director.
      officerEvent({
        timepoint: 102,
        number: HERON,
        appointmentId: 'apptHeron2',
        name: 'DOE, Sam',
        role: 'secretary',
        appointedOn: recent,
      }),
      officerEvent({
        timepoint: 103,
        number: HERON,
        appointmentId: 'apptHeron3',
        name: 'POE, Al',
        role: 'director',
        appointedOn: '2015-01-01',
        resignedOn: recent,
      }),
      officerEvent({
        timepoint: 104,
        number: HERON,
        appointmentId: 'apptHeron4',
        name: 'LOE, Bo',
        role: 'director',
        appointedOn: '2015-01-01',
      }),
      officerEvent({
        timepoint: 105,
        number: HERON,
        appointmentId: 'apptHeron5',
        name: 'NOMINEES LIMITED',
        role: 'corporate-director',
        appointedOn: recent,
      }),
    ],
    then: 'close',
  });
  rest.answer(`/company/${HERON}`, { json: companyProfile(HERON, 'HERON ANALYTICS LIMITED') });
  rest.answer(`/company/${OTHER}`, { json: companyProfile(OTHER, 'OTHER VENTURES LTD') });
  rest.answer(`/company/${HERON}/filing-history?category=capital&items_per_page=100`, {
    json: filingHistory([
      allotment('MzAllot1', HERON, daysAgo(10), [{ currency: 'GBP', figure: '1,250,000' }]),
      allotment('MzAllot2', HERON, daysAgo(12), [
        { currency: 'GBP', figure: '1,000' },
        { currency: 'EUR', figure: '500' },
      ]),
      // Years ago: history, not a round.
      allotment('MzAllotOld', HERON, '2021-05-05', [{ currency: 'GBP', figure: '200' }]),
      incorporation('MzInc1', HERON, '2019-03-04'),
    ]),
  });

  let status = await runSource();

  expect(stream.requests[0]).toMatchObject({
    path: '/officers',
    headers: expect.objectContaining({
      authorization: basic(STREAM_KEY),
      'user-agent': expect.stringContaining(CONTACT),
    }),
  });
  expect(await storedTimepoint()).toBe(105);
  expect(await chEvents()).toEqual([
    {
      id: 'companies-house:MzAllot1',
      type: 'fundraising',
      company_id: 'co-heron',
      person_id: null,
      // The statement of capital after the allotment, GBP at the configured rate.
      data: { funding_type: 'Allotment of shares', funding_amount_usd: 1_562_500, announcement_date: daysAgo(10) },
    },
    {
      id: 'companies-house:MzAllot2',
      type: 'fundraising',
      company_id: 'co-heron',
      person_id: null,
      // A currency other than GBP or USD in the statement: no amount rather than a wrong one.
      data: { funding_type: 'Allotment of shares', funding_amount_usd: '', announcement_date: daysAgo(12) },
    },
    {
      id: 'companies-house:appointment:apptHeron1',
      type: 'new_decision_makers',
      company_id: 'co-heron',
      person_id: 'ch-appointment-apptHeron1',
      data: {
        new_job_started_on: `${recent.slice(5, 7)}/${recent.slice(0, 4)}`,
        new_job_start_month: recent.slice(0, 7),
      },
    },
    {
      // The same appointment as a job change; no appointment list is linked, so no job before it is known.
      id: 'companies-house:job-change:apptHeron1',
      type: 'job_change',
      company_id: 'co-heron',
      person_id: 'ch-appointment-apptHeron1',
      data: {
        previous_title: '',
        previous_company: '',
        new_title: 'Director',
        new_company: 'Heron Analytics',
        new_job_started_on: `${recent.slice(5, 7)}/${recent.slice(0, 4)}`,
        new_job_start_month: recent.slice(0, 7),
        change_type: 'company',
      },
    },
  ]);
  expect(
    await stack.db.query(
      `SELECT first_name, last_name, title, company_id FROM people WHERE id = 'ch-appointment-apptHeron1'`,
    ),
  ).toEqual([{ first_name: 'Jane Alice', last_name: 'Smith', title: 'Director', company_id: 'co-heron' }]);
  // The other company is none the store knows: its appointment is dropped.
  expect(status).toMatchObject({ off: null, recordsIngested: 4, recordsDropped: 1, errors: 0 });
  expect(
    await stack.db.query(`SELECT company_number, company_id, matched_by FROM companies_house_companies ORDER BY 1`),
  ).toEqual([
    { company_number: HERON, company_id: 'co-heron', matched_by: 'name' },
    { company_number: OTHER, company_id: null, matched_by: 'none' },
  ]);
  for (const request of rest.requests) expect(request.headers.authorization).toBe(basic(REST_KEY));

  // After the disconnect the next read resumes from the last timepoint received (the spec's valid
  // timepoint); that event, sent again, changes nothing. The stream then stays open with heartbeats.
  stream.plays.push({
    lines: [
      officerEvent({
        timepoint: 105,
        number: HERON,
        appointmentId: 'apptHeron5',
        name: 'NOMINEES LIMITED',
        role: 'corporate-director',
        appointedOn: recent,
      }),
      officerEvent({
        timepoint: 106,
        number: KESTREL,
        appointmentId: 'apptKestrel1',
        name: 'PATEL, Priya',
        role: 'director',
        appointedOn: recent,
      }),
      officerEvent({
        timepoint: 107,
        number: HERON,
        appointmentId: 'apptHeron1',
        name: 'SMITH, Jane Alice',
        role: 'director',
        appointedOn: recent,
      }),
      '',
    ],
    then: 'hold',
  });
  rest.answer(`/company/${KESTREL}`, { json: companyProfile(KESTREL, 'KESTREL LABS LIMITED') });
  rest.answer(`/company/${KESTREL}/filing-history?category=capital&items_per_page=100`, { json: filingHistory([]) });
  const profileReads = rest.requests.length;
  status = await runSource();

  expect(stream.requests[1]!.path).toBe('/officers?timepoint=105');
  expect(await storedTimepoint()).toBe(107);
  expect(status).toMatchObject({ recordsIngested: 6, recordsDropped: 1, errors: 0 });
  // Heron's number is linked: not looked up again; its filings were read today.
  expect(rest.requests.slice(profileReads).map((r) => r.path)).toEqual([
    `/company/${KESTREL}`,
    `/company/${KESTREL}/filing-history?category=capital&items_per_page=100`,
  ]);
  expect(
    await stack.db.query(`SELECT id, name, hq_country_code FROM companies WHERE id = $1`, [`ch-${KESTREL}`]),
  ).toEqual([{ id: `ch-${KESTREL}`, name: 'Kestrel Labs', hq_country_code: 'GB' }]);

  // The watchlist gets the new director at the watched company as a lead.
  await evaluateNow(stack, watchlist.id);
  const leads = await allLeads(api, watchlist.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    type: 'account_watchlist',
    last_signal: 'New Decision Maker Watchlist',
    new_job_start_month: recent.slice(0, 7),
  });
  expect(leads[0].contact).toMatchObject({ first_name: 'Priya', last_name: 'Patel', title: 'Director' });
  expect(leads[0].company).toMatchObject({ name: 'Kestrel Labs' });
});

test('a 429 waits for its Retry-After; a refused key is named in the status; a stale timepoint starts over', async () => {
  const recent = daysAgo(2);
  const number = '04000004';
  stream.plays.push({
    lines: [
      officerEvent({
        timepoint: 200,
        number,
        appointmentId: 'apptWren1',
        name: 'WREN, Ada',
        role: 'director',
        appointedOn: recent,
      }),
    ],
    then: 'close',
  });
  let asked = 0;
  rest.answer(`/company/${number}`, () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '1' } }
      : { json: companyProfile(number, 'HERON ANALYTICS HOLDINGS LIMITED') },
  );
  const before = await stack.services.sources.get('companies-house');
  const status = await runSource();
  expect(asked).toBe(2);
  expect(status.errors).toBe(before.errors);
  expect(status.recordsDropped).toBe(before.recordsDropped + 1);

  // The stream refuses its key; the REST API refuses its own (a filing history due again).
  stream.plays.push({ lines: [], then: 'close', status: 401 });
  await stack.db.query(`UPDATE companies_house_companies SET filings_read_at = NULL WHERE company_number = $1`, [
    HERON,
  ]);
  rest.answer(`/company/${HERON}/filing-history?category=capital&items_per_page=100`, { status: 401 });
  const refused = await runSource();
  expect(refused.errors).toBe(status.errors + 2);
  expect(refused.lastError).toContain('COMPANIES_HOUSE_API_KEY was refused');
  const errors = await stack.db.query(`SELECT last_error FROM sources WHERE name = 'companies-house'`);
  expect(errors[0].last_error).toMatch(/filing history of 01000001: .*answered 401/);

  // A timepoint too old for the stream (416): forgotten, so the next read starts from now.
  rest.answer(`/company/${HERON}/filing-history?category=capital&items_per_page=100`, { json: filingHistory([]) });
  stream.plays.push({ lines: [], then: 'close', status: 416 });
  const stale = await runSource();
  expect(stale.lastError).toContain('is too old (416)');
  expect(stream.requests.at(-1)!.path).toBe('/officers?timepoint=200');
  stream.plays.push({ lines: [], then: 'close' });
  await runSource();
  expect(stream.requests.at(-1)!.path).toBe('/officers');
});

test('a watched company is found by a register search for its name, and its allotments become rounds', async () => {
  const number = '05000005';
  await ingest(stack, [
    {
      kind: 'company',
      id: 'co-wren',
      name: 'Wren Robotics',
      domain: 'wren-robotics.co.uk',
      hqCountryCode: 'GB',
    } as never,
  ]);
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'Robotics',
    status: 'active',
    config: { companies: ['wren-robotics.co.uk'] },
  });
  await settled(stack, watchlist.id);
  const searchPath = '/search/companies?q=Wren%20Robotics&items_per_page=20';
  rest.answer(searchPath, {
    json: {
      kind: 'search#companies',
      total_results: 3,
      items_per_page: 20,
      start_index: 0,
      items: [
        {
          kind: 'searchresults#company',
          title: 'WREN ROBOTICS LIMITED',
          company_number: number,
          company_status: 'active',
        },
        {
          kind: 'searchresults#company',
          title: 'WREN ROBOTICS HOLDINGS LIMITED',
          company_number: '05000006',
          company_status: 'active',
        },
        {
          kind: 'searchresults#company',
          title: 'WREN ROBOTICS LTD',
          company_number: '00999999',
          company_status: 'dissolved',
        },
      ],
    },
  });
  rest.answer(`/company/${number}/filing-history?category=capital&items_per_page=100`, {
    json: filingHistory([allotment('MzWren1', number, daysAgo(5), [{ currency: 'USD', figure: '40,000' }])]),
  });

  await runSource();

  expect(rest.requests.filter((r) => r.path === searchPath)).toHaveLength(1);
  expect(
    await stack.db.query(`SELECT company_id, matched_by FROM companies_house_companies WHERE company_number = $1`, [
      number,
    ]),
  ).toEqual([{ company_id: 'co-wren', matched_by: 'search' }]);
  expect(await stack.db.query(`SELECT company_id, data FROM events WHERE id = 'companies-house:MzWren1'`)).toEqual([
    {
      company_id: 'co-wren',
      data: { funding_type: 'Allotment of shares', funding_amount_usd: 40_000, announcement_date: daysAgo(5) },
    },
  ]);

  // Linked now: no second search.
  await runSource();
  expect(rest.requests.filter((r) => r.path === searchPath)).toHaveLength(1);
});

test('without an API key the source is listed but off, and its runs do nothing', async () => {
  const source = new CompaniesHouse(stack.db, stack.services.ingestion, stack.services.politeFetch, {
    ...stack.config,
    COMPANIES_HOUSE_API_KEY: undefined,
  });
  const sources = new Sources(
    stack.db,
    createLogger('silent', 'test'),
    stack.services.sources.schedules,
    [source],
    stack.config.TEMPORAL_ANSWER_WAIT_MS,
  );
  const listed = await sources.list();
  expect(listed).toEqual([
    expect.objectContaining({
      name: 'companies-house',
      enabled: true,
      off: 'off: no API key (COMPANIES_HOUSE_API_KEY)',
    }),
  ]);
  expect(await sources.beginRun('companies-house')).toEqual({ enabled: false, cursor: null });
  const requests = rest.requests.length + stream.requests.length;
  expect(await source.sync('1-stream')).toEqual({ records: 0 });
  expect(rest.requests.length + stream.requests.length).toBe(requests);

  // The service's own source has its key: on, as the operator's list shows.
  const api = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect(api.body.data).toContainEqual(expect.objectContaining({ name: 'companies-house', enabled: true, off: null }));
});
