import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { allLeads, client, company, createSignal, evaluateNow, ingest, settled } from '../leads/fixtures';
import { runSourceNow } from './source-runs';
import { awardRelease, startPublisher, type PublisherServer } from './tender-fixtures';

const CONTACT = 'tenders-ops@leads.example.com';
const DAY_MS = 86_400_000;
// One moment for the whole file: a fixture made before midnight and its check after must name one day.
const FILE_STARTED = Date.now();
const dayBefore = (n: number) => new Date(FILE_STARTED - n * DAY_MS).toISOString().slice(0, 10);
const D1 = dayBefore(1);
const D2 = dayBefore(2);

const FTS_HOST = 'www.find-tender.service.gov.uk';
const CF_HOST = 'www.contractsfinder.service.gov.uk';
const USA_HOST = 'api.usaspending.gov';
const FTS_PATH = '/api/1.0/ocdsReleasePackages';
const CF_PATH = '/Published/Notices/OCDS/Search';
const USA_PATH = '/api/v2/search/spending_by_award/';

let stack: Stack;
let fts: PublisherServer;
let cf: PublisherServer;
let usa: PublisherServer;
let receiver: Receiver | undefined;

beforeAll(async () => {
  fts = await startPublisher('ocds', FTS_PATH, `https://${FTS_HOST}`);
  cf = await startPublisher('ocds', CF_PATH, `https://${CF_HOST}`);
  usa = await startPublisher('usaspending', USA_PATH, `https://${USA_HOST}`);
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `${FTS_HOST}=${fts.origin},${CF_HOST}=${cf.origin},${USA_HOST}=${usa.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      FIND_A_TENDER_INTERVAL: '24h',
      FIND_A_TENDER_PAGE_SIZE: '2',
      FIND_A_TENDER_HOST_INTERVAL_MS: '20',
      FIND_A_TENDER_BACKFILL_DAYS: '3',
      CONTRACTS_FINDER_INTERVAL: '24h',
      CONTRACTS_FINDER_PAGE_SIZE: '2',
      CONTRACTS_FINDER_HOST_INTERVAL_MS: '20',
      CONTRACTS_FINDER_REFUSED_WAIT: '1s',
      USASPENDING_INTERVAL: '24h',
      USASPENDING_PAGE_SIZE: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await ingest(stack, [
    company('kestrel', {
      name: 'Kestrel Fleet Services',
      hqCountryCode: 'GB',
      hqCity: 'Leeds',
      domain: 'kestrel-fleet.co.uk',
    }),
    company('northwind', { name: 'Northwind Analytics', hqCountryCode: 'GB', hqCity: 'Bristol' }),
    company('harbour', { name: 'Harbour Data', hqCountryCode: 'GB', hqCity: 'Cardiff', domain: 'harbour-data.co.uk' }),
    company('bluefin', {
      name: 'Bluefin Robotics',
      hqCountryCode: 'US',
      hqCity: 'Boston',
      domain: 'bluefin-robotics.com',
    }),
  ]);
  // The companies-house source linked Kestrel's company number before: the number decides, whatever the name.
  await stack.db.query(
    `INSERT INTO companies_house_companies (company_number, company_id, registered_name, matched_by)
     VALUES ('04783275', 'co-kestrel', 'KESTREL FLEET SERVICES LIMITED', 'name')`,
  );
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([fts?.close(), cf?.close(), usa?.close(), receiver?.close()]);
});

const tenderEvents = (prefix: string) =>
  stack.db.query(
    `SELECT id, company_id, occurred_at, data FROM events WHERE type = 'public_tenders' AND id LIKE $1 ORDER BY id`,
    [`${prefix}:%`],
  );
const feedRow = (name: string) =>
  stack.db
    .query(`SELECT read_through, window_from, window_to, next_page, last_error FROM award_feeds WHERE name = $1`, [
      name,
    ])
    .then((rows: Record<string, unknown>[]) => rows[0]);
const noticeOf = (id: string) => `https://${FTS_HOST}/Notice/${id}`;

test('the three tender sources are listed with their schedules', async () => {
  const listed = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect(listed.status).toBe(200);
  for (const name of ['find-a-tender', 'contracts-finder', 'usaspending']) {
    expect(listed.body.items.find((s: { name: string }) => s.name === name)).toMatchObject({
      name,
      enabled: true,
      detail: expect.stringMatching(/^nothing read yet: the first run reads the \d+ days before it$/),
    });
    const schedule = await stack.temporal.schedule.getHandle(stack.services.sources.schedules.idOf(name)).describe();
    expect(schedule.state.paused).toBe(false);
  }
});

test('Find a Tender: award releases, page after page by cursor, become public_tenders events at winners matched by company number, name or domain', async () => {
  fts.items.push(
    // The supplier is named otherwise than the stored company; its GB-COH number (without its leading zero) decides.
    awardRelease({
      ocid: 'ocds-h6vhtk-04a1b2',
      id: '012345-2026',
      date: `${D2}T17:32:10Z`,
      title: 'Home to school transport',
      buyer: { id: 'GB-SRS-welland' },
      parties: [
        {
          id: 'GB-COH-4783275',
          name: 'A1 Taxis',
          identifier: { scheme: 'GB-COH', id: '4783275', legalName: 'KESTREL FLEET SERVICES LIMITED' },
          roles: ['supplier'],
        },
        { id: 'GB-SRS-welland', name: 'Welland Procurement Unit', roles: ['buyer'] },
      ],
      // Find a Tender's award values are null; the contract of the award states it.
      awards: [
        {
          id: '1',
          date: `${D2}T00:00:00Z`,
          status: 'active',
          value: null,
          suppliers: [{ id: 'GB-COH-4783275', name: 'A1 Taxis' }],
        },
      ],
      contracts: [{ id: '1', awardID: '1', value: { amount: 710000, currency: 'GBP' }, dateSigned: `${D2}T00:00:00Z` }],
    }),
    // A Procurement Act notice: GB-PPON first, the company number among the additional identifiers
    // (of no stored link); the name in capitals with its legal ending; a second supplier nobody knows.
    awardRelease({
      ocid: 'ocds-h6vhtk-04c3d4',
      id: '012346-2026',
      date: `${D1}T09:00:00Z`,
      title: 'Gwasanaethau data – Data services',
      buyer: { id: 'GB-PPON-PBCT-1111-ABCD', name: 'Cyngor Gwynedd – Ysgolion' },
      parties: [
        {
          id: 'GB-PPON-PDQT-2222-WXYZ',
          name: 'NORTHWIND ANALYTICS LIMITED',
          identifier: { scheme: 'GB-PPON', id: 'PDQT-2222-WXYZ' },
          additionalIdentifiers: [{ scheme: 'GB-COH', id: '09 123 456' }],
          address: { countryName: 'Wales' },
          roles: ['supplier'],
        },
        { id: 'GB-PPON-PXXX-3333-AAAA', name: 'Nobody In Particular Ltd', identifier: null, roles: ['supplier'] },
      ],
      awards: [
        {
          id: 'A-1',
          date: `${D1}T00:00:00Z`,
          value: { amount: '1250000.5', currency: 'gbp' },
          suppliers: [
            { id: 'GB-PPON-PDQT-2222-WXYZ', name: 'NORTHWIND ANALYTICS LIMITED' },
            { id: 'GB-PPON-PXXX-3333-AAAA', name: 'Nobody In Particular Ltd' },
          ],
        },
      ],
    }),
    // The supplier's website names it; a cancelled award and a supplier of no name make nothing.
    awardRelease({
      ocid: 'ocds-h6vhtk-04e5f6',
      id: '012347-2026',
      date: `${D1}T10:00:00Z`,
      parties: [
        {
          id: 'org-7',
          name: 'HDS (Cymru)',
          identifier: { scheme: null, id: null },
          contactPoint: { name: 'Bids', url: 'https://www.harbour-data.co.uk/about', email: null },
          roles: ['supplier'],
        },
        { id: 'org-8', name: 'Glan Conwy NHS Trust', roles: ['buyer', 'procuringEntity'] },
      ],
      awards: [
        {
          id: '1',
          title: 'Backup and archive',
          suppliers: [
            { id: 'org-7', name: null },
            { id: 'org-404', name: null },
          ],
        },
        { id: '2', status: 'cancelled', suppliers: [{ id: 'org-7' }] },
      ],
    }),
    // No ocid: named in the status, the page's other releases read.
    { id: '012348-2026', date: `${D1}T11:00:00Z`, tag: ['award'], awards: [] },
  );

  const status = await runSourceNow(stack, 'find-a-tender');

  expect(status).toMatchObject({ recordsIngested: 3, recordsDropped: 1, errors: 1 });
  expect(status.lastError).toMatch(/^Find a Tender awards .* \(page .*\): unreadable records #2$/);
  expect(await tenderEvents('fts')).toEqual([
    {
      id: 'fts:ocds-h6vhtk-04a1b2:1:co-kestrel',
      company_id: 'co-kestrel',
      occurred_at: new Date(`${D2}T00:00:00Z`),
      data: {
        news_title: 'Home to school transport',
        news_url: noticeOf('012345-2026'),
        news_summary: 'Contract awarded to A1 Taxis by Welland Procurement Unit; value 710,000 GBP.',
        announcement_date: D2,
      },
    },
    {
      id: 'fts:ocds-h6vhtk-04c3d4:A-1:co-northwind',
      company_id: 'co-northwind',
      occurred_at: new Date(`${D1}T00:00:00Z`),
      data: {
        news_title: 'Gwasanaethau data – Data services',
        news_url: noticeOf('012346-2026'),
        news_summary:
          'Contract awarded to NORTHWIND ANALYTICS LIMITED by Cyngor Gwynedd – Ysgolion; value 1,250,000.5 GBP.',
        announcement_date: D1,
      },
    },
    {
      id: 'fts:ocds-h6vhtk-04e5f6:1:co-harbour',
      company_id: 'co-harbour',
      occurred_at: new Date(`${D1}T00:00:00Z`),
      data: {
        news_title: 'Backup and archive',
        news_url: noticeOf('012347-2026'),
        news_summary: 'Contract awarded to HDS (Cymru) by Glan Conwy NHS Trust.',
        announcement_date: D1,
      },
    },
  ]);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM companies WHERE name ILIKE 'Nobody%'`)).toEqual([
    { n: 0 },
  ]);

  // Two pages of two: the second asked by the first's cursor, every other parameter the same.
  const asked = fts.requests.map((r) => r.query);
  expect(asked).toHaveLength(2);
  expect(Object.fromEntries(asked[0]!)).toEqual({
    stages: 'award',
    updatedFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    updatedTo: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    limit: '2',
  });
  expect(Date.parse(`${asked[0]!.get('updatedFrom')}Z`)).toBeLessThan(FILE_STARTED - 3 * DAY_MS + 60_000);
  expect(asked[1]!.get('cursor')).toBe(Buffer.from('>>offset?2~~').toString('base64'));
  expect(asked[1]!.get('updatedFrom')).toBe(asked[0]!.get('updatedFrom'));
  expect(fts.requests[0]!.headers['user-agent']).toContain(CONTACT);
  expect(await feedRow('find-a-tender')).toMatchObject({
    window_to: null,
    next_page: null,
    last_error: status.lastError,
  });
});

test('Find a Tender: a plain-text 429 waits its Retry-After and goes on at the cursor; a 404 and a malformed package are named, and the next run goes on where they stopped', async () => {
  fts.items.splice(3, 1);
  const read = (await feedRow('find-a-tender'))!.read_through as Date;
  fts.requests.length = 0;
  fts.once('as-usual');
  fts.once({
    status: 429,
    headers: { 'content-type': 'text/plain', 'retry-after': '1' },
    body: 'Rate limit of 12 exceeded. Please try again later.',
  });
  let status = await runSourceNow(stack, 'find-a-tender');
  // The next window starts an hour before the last one's end.
  expect(fts.requests[0]!.query.get('updatedFrom')).toBe(
    new Date(read.getTime() - 3_600_000).toISOString().slice(0, 19),
  );
  // Page 1, page 2 refused, page 2 again after the wait: the same cursor; nothing counted twice, no error.
  expect(fts.requests.map((r) => r.query.get('cursor'))).toEqual([
    null,
    expect.any(String),
    fts.requests[1]!.query.get('cursor'),
  ]);
  expect(status).toMatchObject({ recordsIngested: 3, recordsDropped: 2, errors: 1 });

  const readAfterRetry = (await feedRow('find-a-tender'))!.read_through as Date;
  fts.requests.length = 0;
  fts.once({ status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Not found</body></html>' });
  status = await runSourceNow(stack, 'find-a-tender');
  expect(status.errors).toBe(2);
  expect(status.lastError).toMatch(/^Find a Tender awards \S+ to \S+: \S+ answered 404$/);
  const stopped = await feedRow('find-a-tender');
  expect(stopped).toMatchObject({ next_page: null, last_error: status.lastError, read_through: readAfterRetry });
  expect(stopped!.window_to).not.toBeNull();

  // The same window again; its second page is no JSON: the next run asks for that page again.
  fts.requests.length = 0;
  fts.once('as-usual');
  fts.once({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '<html><body>Service unavailable</body></html>',
  });
  status = await runSourceNow(stack, 'find-a-tender');
  expect(status.errors).toBe(3);
  expect(status.lastError).toMatch(/^Find a Tender awards \S+ to \S+ \(page \S+\): not JSON/);
  expect(fts.requests.map((r) => r.query.get('updatedFrom'))).toEqual([
    new Date((stopped!.window_from as Date).getTime()).toISOString().slice(0, 19),
    new Date((stopped!.window_from as Date).getTime()).toISOString().slice(0, 19),
  ]);
  const cursor = fts.requests[1]!.query.get('cursor');
  expect(await feedRow('find-a-tender')).toMatchObject({ next_page: cursor, window_to: stopped!.window_to });

  fts.requests.length = 0;
  status = await runSourceNow(stack, 'find-a-tender');
  expect(fts.requests.map((r) => r.query.get('cursor'))).toEqual([cursor]);
  expect(await feedRow('find-a-tender')).toMatchObject({
    next_page: null,
    window_to: null,
    last_error: null,
    read_through: stopped!.window_to,
  });
  expect(await tenderEvents('fts')).toHaveLength(3);
});

test('Contracts Finder: award releases by cursor become public_tenders events linked to the notice; its 403 for too many requests is waited out', async () => {
  const guid = '8d84c691-fc64-4f64-b240-443a0af1ba82';
  cf.items.push(
    awardRelease({
      ocid: `ocds-b5fd17-${guid}`,
      id: `df8d0f63-9018-4d89-9008-acf8ea3d67bc-832814`,
      date: `${D1}T11:05:27Z`,
      title: '215_24 Specialist Vehicles (outright purchase)',
      parties: [
        { id: 'GB-CFS-199356', name: 'ESPO', identifier: { legalName: 'ESPO' }, roles: ['buyer'] },
        {
          id: 'GB-CFS-200001',
          name: 'Kestrel Fleet Services Ltd',
          identifier: { scheme: 'GB-COH', id: '04783275' },
          address: { countryName: 'England' },
          roles: ['supplier'],
        },
      ],
      awards: [
        {
          id: `${guid}-1`,
          status: 'active',
          date: `${D1}T00:00:00Z`,
          value: { amount: 48500, currency: 'GBP' },
          suppliers: [{ id: 'GB-CFS-200001', name: 'Kestrel Fleet Services Ltd' }],
        },
      ],
    }),
    // Another publisher's ocid: no Contracts Finder notice to link to.
    awardRelease({ ocid: 'ocds-0c46vo-0001', id: 'x-1', date: `${D1}T12:00:00Z`, parties: [], awards: [] }),
    awardRelease({
      ocid: 'ocds-b5fd17-eaea1515-019b-4af4-8c76-96405e39f126',
      id: 'c5b3ac8e-052e-42c3-a16d-45c9fa0cd925-819877',
      date: `${D1}T15:42:26Z`,
      title: 'Design Lead for Russell-Cotes Art Gallery',
      buyer: { id: 'GB-CFS-1', name: 'BCP Council' },
      parties: [{ id: 'GB-CFS-2', name: 'Smith & Jones Architects', roles: ['supplier'] }],
      awards: [{ id: '1', suppliers: [{ id: 'GB-CFS-2', name: 'Smith & Jones Architects' }] }],
    }),
  );
  cf.once({
    status: 403,
    headers: { 'content-type': 'text/html' },
    body: '<html><body>Too many requests</body></html>',
  });

  const status = await runSourceNow(stack, 'contracts-finder');

  expect(status).toMatchObject({ recordsIngested: 1, recordsDropped: 1, errors: 1 });
  expect(status.lastError).toMatch(/^Contracts Finder awards .*: unreadable records ocds-0c46vo-0001$/);
  expect(await tenderEvents('cf')).toEqual([
    {
      id: `cf:ocds-b5fd17-${guid}:${guid}-1:co-kestrel`,
      company_id: 'co-kestrel',
      occurred_at: new Date(`${D1}T00:00:00Z`),
      data: {
        news_title: '215_24 Specialist Vehicles (outright purchase)',
        news_url: `https://${CF_HOST}/Notice/${guid}`,
        news_summary: 'Contract awarded to Kestrel Fleet Services Ltd by ESPO; value 48,500 GBP.',
        announcement_date: D1,
      },
    },
  ]);
  // Refused once, then the first page and the second by its cursor.
  expect(cf.requests.map((r) => r.query.get('cursor'))).toEqual([null, null, expect.any(String)]);
  expect(cf.requests[1]!.at - cf.requests[0]!.at).toBeGreaterThanOrEqual(900);
  expect(Object.fromEntries(cf.requests[0]!.query)).toEqual({
    stages: 'award',
    publishedFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    publishedTo: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    limit: '2',
  });
});

test('USAspending: contract awards page by page while hasNext become public_tenders events at recipients matched by name; a 429 is waited out and a malformed answer named', async () => {
  const bluefinId = 'CONT_AWD_N0001426C0001_9700_-NONE-_-NONE-';
  usa.items.push(
    {
      'Award ID': 'N0001426C0001',
      'Recipient Name': 'BLUEFIN ROBOTICS, INC.',
      'Recipient UEI': 'JX1ABCDEF123',
      'Award Amount': 2500000.25,
      'Start Date': D2,
      'Awarding Agency': 'Department of Defense',
      'Awarding Sub Agency': 'Department of the Navy',
      Description: 'AUTONOMOUS UNDERWATER SURVEY VEHICLES',
      generated_internal_id: bluefinId,
    },
    // A period of performance starting tomorrow: dated today, never a day to come.
    {
      'Award ID': 'N0001426C0002',
      'Recipient Name': 'Bluefin Robotics',
      'Award Amount': 0,
      'Start Date': dayBefore(-1),
      'Awarding Agency': 'Department of Defense',
      generated_internal_id: 'CONT_AWD_N0001426C0002_9700_-NONE-_-NONE-',
    },
    {
      'Award ID': 'GS-1',
      'Recipient Name': 'MULTIPLE RECIPIENTS',
      'Start Date': D1,
      generated_internal_id: 'CONT_AWD_GS1_4700',
    },
    {
      'Award ID': 'GS-2',
      'Recipient Name': null,
      'Award Amount': null,
      'Start Date': D1,
      generated_internal_id: 'CONT_AWD_GS2_4700',
    },
    {
      'Award ID': 'W91-BAD',
      'Recipient Name': 'BLUEFIN ROBOTICS, INC.',
      'Start Date': D1,
      generated_internal_id: null,
    },
    {
      'Award ID': '70B01C26P0001',
      'Recipient Name': 'ZEPHYR NONEXISTENT LLC',
      'Award Amount': '15000',
      'Start Date': D1,
      'Awarding Agency': 'Department of Homeland Security',
      Description: null,
      generated_internal_id: 'CONT_AWD_70B01C26P0001_7001_-NONE-_-NONE-',
    },
  );
  usa.once('as-usual');
  usa.once({ status: 429, headers: { 'retry-after': '1' }, body: '{"detail":"Request was throttled."}' });

  let status = await runSourceNow(stack, 'usaspending');

  expect(status).toMatchObject({ recordsIngested: 2, recordsDropped: 1, errors: 1 });
  expect(status.lastError).toMatch(/^USAspending contract awards .*: unreadable records W91-BAD$/);
  expect(await tenderEvents('usaspending')).toEqual([
    {
      id: `usaspending:${bluefinId}:co-bluefin`,
      company_id: 'co-bluefin',
      occurred_at: new Date(`${D2}T00:00:00Z`),
      data: {
        news_title: 'AUTONOMOUS UNDERWATER SURVEY VEHICLES',
        news_url: `https://www.usaspending.gov/award/${encodeURIComponent(bluefinId)}`,
        news_summary:
          'Contract awarded to BLUEFIN ROBOTICS, INC. by Department of the Navy (Department of Defense); value 2,500,000.25 USD.',
        announcement_date: D2,
      },
    },
    {
      id: 'usaspending:CONT_AWD_N0001426C0002_9700_-NONE-_-NONE-:co-bluefin',
      company_id: 'co-bluefin',
      occurred_at: new Date(`${dayBefore(0)}T00:00:00Z`),
      data: {
        news_title: 'Contract N0001426C0002',
        news_url: 'https://www.usaspending.gov/award/CONT_AWD_N0001426C0002_9700_-NONE-_-NONE-',
        news_summary: 'Contract awarded to Bluefin Robotics by Department of Defense; value 0 USD.',
        announcement_date: dayBefore(0),
      },
    },
  ]);
  expect(usa.requests.map((r) => r.body!.page)).toEqual([1, 2, 2, 3]);
  expect(usa.requests[0]!.body).toMatchObject({
    filters: {
      award_type_codes: ['A', 'B', 'C', 'D'],
      time_period: [
        {
          start_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          end_date: dayBefore(0),
          date_type: 'new_awards_only',
        },
      ],
    },
    fields: expect.arrayContaining([
      'Award ID',
      'Recipient Name',
      'Award Amount',
      'Start Date',
      'Awarding Agency',
      'generated_internal_id',
    ]),
    limit: 2,
  });
  expect(usa.requests[0]!.headers['content-type']).toBe('application/json');

  usa.requests.length = 0;
  usa.once({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"results": [{"Award ID": "x",' });
  status = await runSourceNow(stack, 'usaspending');
  expect(status.errors).toBe(2);
  expect(status.lastError).toMatch(/^USAspending contract awards \S+ to \S+: not JSON/);
});

test('a watched UK company winning an award on Find a Tender becomes a delivered public_tenders lead', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'UK tender winners',
    status: 'active',
    webhookUrl: receiver.url,
    config: { companies: ['Heron Marine'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  fts.items.length = 0;
  fts.items.push(
    awardRelease({
      ocid: 'ocds-h6vhtk-05aa01',
      id: '020001-2026',
      date: `${D1}T08:00:00Z`,
      title: 'Harbour dredging and survey',
      buyer: { id: 'GB-SRS-plymouth', name: 'Plymouth City Council' },
      parties: [
        {
          id: 'GB-COH-11223344',
          name: 'HERON MARINE LIMITED',
          identifier: { scheme: 'GB-COH', id: '11223344' },
          roles: ['supplier'],
        },
      ],
      awards: [
        {
          id: '1',
          date: `${D1}T00:00:00Z`,
          value: { amount: 3400000, currency: 'GBP' },
          suppliers: [{ id: 'GB-COH-11223344' }],
        },
      ],
    }),
  );
  await runSourceNow(stack, 'find-a-tender');
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    type: 'account_watchlist',
    last_signal: 'Public Tenders Watchlist',
    last_signal_date: D1,
    news_title: 'Harbour dredging and survey',
    news_url: noticeOf('020001-2026'),
    news_summary: 'Contract awarded to HERON MARINE LIMITED by Plymouth City Council; value 3,400,000 GBP.',
    announcement_date: D1,
  });
  expect(leads[0].company).toMatchObject({ name: 'Heron Marine' });
  expect(await stack.db.query(`SELECT id, hq_country_code FROM companies WHERE name = 'Heron Marine'`)).toEqual([
    { id: 'fts-heron-marine-limited-gb', hq_country_code: 'GB' },
  ]);
  const [delivered] = await receiver.waitFor(1);
  expect(delivered!.verified).toBe(true);
  expect(delivered!.body.signal).toEqual(leads[0].signal);
});
