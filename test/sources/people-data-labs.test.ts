import { createLogger } from '../../src/logger';
import { createSources } from '../../src/sources';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { company, event, ingest, person } from '../leads/fixtures';
import { CHANGELOG_PATH, pdlPerson, retrievePath, startPdl, type PdlServer } from './pdl-fixtures';

const KEY = 'pdl-test-key-1';
let stack: Stack;
let pdl: PdlServer;

const JANE = 'JaneDoe0poWnQ1luFBfVw_0000';
const OMAR = 'OmarRey0poWnQ1luFBfVw_0000';
const LENA = 'LenaKim0poWnQ1luFBfVw_0000';
const KAI = 'KaiLund0poWnQ1luFBfVw_0000';
const MO = 'MoSalah0poWnQ1luFBfVw_0000';
const STRANGER = 'Someone0poWnQ1luFBfVw_0000';

beforeAll(async () => {
  pdl = await startPdl(KEY);
  stack = await startStack({
    env: {
      PEOPLE_DATA_LABS_API_KEY: KEY,
      PEOPLE_DATA_LABS_VERSION: '28.2',
      PEOPLE_DATA_LABS_INTERVAL: '24h',
      PEOPLE_DATA_LABS_CREDIT_PRICE_USD: '0.28',
      SOURCES_HOST_MAP: `api.peopledatalabs.com=${pdl.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await pdl?.close();
});

let lastTrigger = 0;

async function runSource() {
  // A schedule names a triggered run by the second it starts in: a second trigger in that second starts nothing.
  if (Math.floor(Date.now() / 1000) === Math.floor(lastTrigger / 1000)) {
    await new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));
  }
  lastTrigger = Date.now();
  const before = (await stack.services.sources.get('people-data-labs')).lastRunFinishedAt;
  const answer = await call(`${stack.url}/admin/v1/sources/people-data-labs/run`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  expect(answer.status).toBe(200);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const status = await stack.services.sources.get('people-data-labs');
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the people-data-labs run did not finish within a minute');
}

const track = (personId: string, pdlId: string) =>
  call(`${stack.url}/admin/v1/people/${personId}/people-data-labs`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { pdlId },
  });

const pdlEvents = () =>
  stack.db.query(`SELECT id, company_id, person_id, occurred_at, data FROM events WHERE id LIKE 'pdl:%' ORDER BY id`);
const outcomes = async () =>
  Object.fromEntries(
    (
      await stack.db.query(
        `SELECT vendor_id, kind, status, outcome FROM people_data_changes WHERE source = 'people-data-labs'`,
      )
    ).map((row: any) => [row.vendor_id, `${row.kind}: ${row.status}: ${row.outcome}`]),
  );

test('the changelog of the tracked people becomes job changes: a new employer or title is an event, other changes are not, an opt-out leaves the store', async () => {
  const northwind = company('northwind', { name: 'Northwind Labs' });
  const acme = company('acme-analytics', { name: 'Acme Analytics' });
  const people = [
    person('jane', northwind.id, { firstName: 'Jane', lastName: 'Doe', title: 'VP Engineering' }),
    person('omar', northwind.id, { firstName: 'Omar', lastName: 'Rey', title: 'Head of Sales' }),
    person('lena', northwind.id, { firstName: 'Lena', lastName: 'Kim', title: 'Data Engineer' }),
    person('kai', northwind.id, { firstName: 'Kai', lastName: 'Lund', title: 'Account Executive' }),
    person('mo', northwind.id, { firstName: 'Mo', lastName: 'Salah', title: 'Product Manager' }),
  ];
  // Kai's earlier move, from another provider, that no lead names yet.
  const kaiEvent = event('ev-kai', 'job_change', '2026-06-01T00:00:00Z', northwind.id, { personId: 'pe-kai' });
  await ingest(stack, [northwind, acme, ...people, kaiEvent]);
  for (const [personId, pdlId] of [
    ['pe-jane', JANE],
    ['pe-omar', OMAR],
    ['pe-lena', LENA],
    ['pe-kai', KAI],
    ['pe-mo', MO],
  ]) {
    expect((await track(personId!, pdlId!)).status).toBe(200);
  }
  expect((await track('pe-nobody', 'Nobody000poWnQ1luFBfVw_0000')).status).toBe(404);
  // A body that is not a PDL id is refused in the error envelope and tracks nothing.
  for (const body of [{ pdlId: 'not an id!' }, { pdlId: JANE, note: 'x' }, {}]) {
    const refused = await call(`${stack.url}/admin/v1/people/pe-omar/people-data-labs`, {
      method: 'PUT',
      token: TEST_ADMIN_TOKEN,
      body,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }
  expect(
    (await stack.db.query(`SELECT vendor_id FROM people_data_people WHERE person_id = 'pe-omar'`)).map(
      (row: { vendor_id: string }) => row.vendor_id,
    ),
  ).toEqual([OMAR]);

  // Two scroll pages of updates (one of a person we do not track), one of opt-outs.
  pdl.changelog('28.1', '28.2', 'updated', [
    [
      { id: JANE, additional_metadata: { fields_updated: ['job_title', 'job_company_name', 'experience'] } },
      { id: OMAR, additional_metadata: { fields_updated: ['num_sources', 'skills'] } },
      { id: STRANGER, additional_metadata: { fields_updated: ['job_title'] } },
    ],
    [
      { id: LENA, additional_metadata: { fields_updated: ['experience', 'job_last_verified'], contains: [] } },
      { id: MO, additional_metadata: { fields_updated: ['job_company_name', 'job_title'] } },
    ],
  ]);
  pdl.changelog('28.1', '28.2', 'opted_out', [[{ id: KAI }]]);
  pdl.person(
    pdlPerson(
      JANE,
      ['Jane', 'Doe'],
      {
        title: 'Chief Technology Officer',
        company: 'Acme Analytics',
        website: 'acme-analytics.com',
        startDate: '2026-10',
      },
      { workEmail: 'jane.doe@acme-analytics.com', mobilePhone: '+15125550111' },
    ),
  );
  // Lena's experience changed, not her job: looked up (already seen, so not billed), no event.
  pdl.person(
    pdlPerson(LENA, ['Lena', 'Kim'], {
      title: 'data engineer',
      company: 'northwind labs',
      website: 'northwind.com',
      startDate: '2023-04',
    }),
    false,
  );
  // A plan without contact data answers `true` for an email it has but does not license.
  pdl.person(
    pdlPerson(
      MO,
      ['Mo', 'Salah'],
      { title: 'Head of Product', company: 'Globex', website: 'https://www.globex.io/', startDate: '2026-09-14' },
      { workEmail: true },
    ),
  );
  pdl.throttle(retrievePath(JANE), 1);

  const status = await runSource();

  expect(await pdlEvents()).toEqual([
    {
      id: `pdl:${JANE}:28.2`,
      company_id: acme.id,
      person_id: `pdl-person:${JANE}:28.2`,
      occurred_at: new Date('2026-10-01T00:00:00Z'),
      data: {
        previous_title: 'VP Engineering',
        previous_company: 'Northwind Labs',
        new_title: 'Chief Technology Officer',
        new_company: 'Acme Analytics',
        new_job_started_on: '10/2026',
        new_job_start_month: '2026-10',
        change_type: 'company',
      },
    },
    {
      id: `pdl:${MO}:28.2`,
      company_id: 'pdl-company:globex.io',
      person_id: `pdl-person:${MO}:28.2`,
      occurred_at: new Date('2026-09-01T00:00:00Z'),
      data: {
        previous_title: 'Product Manager',
        previous_company: 'Northwind Labs',
        new_title: 'Head of Product',
        new_company: 'Globex',
        new_job_started_on: '09/2026',
        new_job_start_month: '2026-09',
        change_type: 'company',
      },
    },
  ]);
  // The person as they are now, at the new company, with the contact fields PDL licenses.
  expect(
    await stack.db.query(
      `SELECT id, first_name, last_name, title, persona, company_id, email, phone, linkedin_url, city, country_code, started_on
       FROM people WHERE id LIKE 'pdl-person:%' ORDER BY id`,
    ),
  ).toEqual([
    {
      id: `pdl-person:${JANE}:28.2`,
      first_name: 'Jane',
      last_name: 'Doe',
      title: 'Chief Technology Officer',
      persona: 'Chief Technology Officer',
      company_id: acme.id,
      email: 'jane.doe@acme-analytics.com',
      phone: '+15125550111',
      linkedin_url: 'https://www.linkedin.com/in/jane-doe',
      city: 'Austin',
      country_code: 'US',
      started_on: '2026-10',
    },
    expect.objectContaining({
      id: `pdl-person:${MO}:28.2`,
      title: 'Head of Product',
      company_id: 'pdl-company:globex.io',
      // Not licensed: no email, and the old job's address is not carried over.
      email: null,
      phone: '+1 512 555 0100',
      started_on: '2026-09',
    }),
  ]);
  expect(
    await stack.db.query(`SELECT name, domain, linkedin_url FROM companies WHERE id = 'pdl-company:globex.io'`),
  ).toEqual([{ name: 'Globex', domain: 'globex.io', linkedin_url: 'https://www.linkedin.com/company/globex' }]);
  // Jane's row at her old employer stays as it was.
  expect(await stack.db.query(`SELECT title, company_id FROM people WHERE id = 'pe-jane'`)).toEqual([
    { title: 'VP Engineering', company_id: northwind.id },
  ]);

  // Kai opted out: the event no lead named and the row nothing references any more are gone; never tracked again.
  expect(await stack.db.query(`SELECT id FROM people WHERE id = 'pe-kai'`)).toEqual([]);
  expect(await stack.db.query(`SELECT id FROM events WHERE id = 'ev-kai'`)).toEqual([]);
  const refused = await track('pe-omar', KAI);
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toContain('opted out');

  expect(await outcomes()).toEqual({
    [JANE]: 'updated: done: new employer',
    [OMAR]: 'updated: done: no job field changed',
    [LENA]: 'updated: done: same employer and title',
    [KAI]: 'opted_out: done: opted out: contact data removed',
    [MO]: 'updated: done: new employer',
  });

  // The changelog is asked about the tracked people only, a scroll page at a time, with the key.
  const tracked = [JANE, KAI, LENA, MO, OMAR].sort();
  const changelogCalls = pdl.requests.filter((r) => r.path === CHANGELOG_PATH);
  expect(changelogCalls.map((r) => [r.method, r.apiKey, r.body])).toEqual([
    ['POST', KEY, { origin_version: '28.1', current_version: '28.2', type: 'updated', ids: tracked }],
    [
      'POST',
      KEY,
      { origin_version: '28.1', current_version: '28.2', type: 'updated', ids: tracked, scroll_token: 'scroll-1' },
    ],
    ['POST', KEY, { origin_version: '28.1', current_version: '28.2', type: 'opted_out', ids: tracked }],
  ]);
  // Only changes of job fields are looked up; Jane's first lookup answered 429 and was retried.
  const lookups = pdl.requests.filter((r) => r.path.startsWith('/v5/person/retrieve/'));
  expect(lookups.map((r) => r.path).sort()).toEqual(
    [retrievePath(JANE), retrievePath(JANE), retrievePath(LENA), retrievePath(MO)].sort(),
  );
  expect(lookups.every((r) => r.method === 'GET' && r.apiKey === KEY)).toBe(true);

  expect(status).toMatchObject({
    recordsIngested: 2,
    errors: 0,
    lastError: null,
    detail:
      'release 28.2 (compared with 28.1): 3 changelog calls (free), 4 person lookups, 2 credits charged = $0.56 at $0.28 a credit; 4 people tracked',
  });
  const listed = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect({ status: listed.status, text: listed.status === 200 ? '' : listed.text }).toEqual({ status: 200, text: '' });
  expect(listed.body.items.find((s: { name: string }) => s.name === 'people-data-labs').detail).toBe(status.detail);

  // A second run finds the release compared: no request, no new event, the same cost.
  const requestsBefore = pdl.requests.length;
  const again = await runSource();
  expect(pdl.requests.length).toBe(requestsBefore);
  expect(await pdlEvents()).toHaveLength(2);
  expect(again).toMatchObject({ recordsIngested: 2, errors: 0, detail: status.detail });
});

test('a later release is compared with each release in between; a failed changelog or lookup is asked again, a new title alone is a job change', async () => {
  // Two releases on: 28.2 (compared) → 29.0 → 29.1, driven item by item.
  const later = createSources(
    {
      db: stack.db,
      config: { ...stack.config, PEOPLE_DATA_LABS_VERSION: '29.1' },
      logger: createLogger('silent', 'test'),
    },
    stack.services.ingestion,
  ).sources;
  const source = 'people-data-labs';
  pdl.changelog('28.2', '29.0', 'updated', [[{ id: LENA, additional_metadata: { fields_updated: ['job_title'] } }]]);
  pdl.changelog('28.2', '29.0', 'opted_out', [[]]);
  const releases = () =>
    stack.db.query(
      `SELECT release, origin, listed_at IS NOT NULL AS listed FROM people_data_releases ORDER BY release`,
    );

  // 29.0 → 29.1 is not served yet: PDL's 400 is the error, and 29.1 stays to be compared.
  const first = await later.syncItem(source, '1-release');
  expect(first.error).toBe(
    'changelog 29.0 → 29.1 (updated): PDL answered 400 (invalid_request_error: origin_version and current_version must be consecutive releases)',
  );
  expect(await releases()).toEqual([
    { release: '28.2', origin: '28.1', listed: true },
    { release: '29.0', origin: '28.2', listed: true },
    { release: '29.1', origin: '29.0', listed: false },
  ]);
  const lenaItem = `2-change-29.0 ${LENA}`;
  expect(await later.items(source, '1-release')).toEqual({ items: [lenaItem], next: null });

  // Lena's lookup fails once (500): she stays to be looked up.
  pdl.fail(retrievePath(LENA), 500);
  expect(await later.syncItem(source, lenaItem)).toEqual({
    records: 0,
    error: `person ${LENA}: PDL answered 500 (api_error: An internal error occurred)`,
  });
  expect(await later.items(source, '1-release')).toEqual({ items: [lenaItem], next: null });
  // An answer that is not PDL's JSON is a problem too, and she stays.
  pdl.garble(retrievePath(LENA));
  expect(await later.syncItem(source, lenaItem)).toEqual({ records: 0, error: `person ${LENA}: not a person record` });
  expect(await later.items(source, '1-release')).toEqual({ items: [lenaItem], next: null });

  // The next run compares 29.0 → 29.1 only, and Lena's new title at the same employer is a job change.
  pdl.changelog('29.0', '29.1', 'updated', [[]]);
  pdl.changelog('29.0', '29.1', 'opted_out', [[]]);
  const requestsBefore = pdl.requests.length;
  expect(await later.syncItem(source, '1-release')).toEqual({ records: 0 });
  expect(
    pdl.requests.slice(requestsBefore).map((r) => [r.body.origin_version, r.body.current_version, r.body.type]),
  ).toEqual([
    ['29.0', '29.1', 'updated'],
    ['29.0', '29.1', 'opted_out'],
  ]);
  pdl.person(
    pdlPerson(LENA, ['Lena', 'Kim'], {
      title: 'senior data engineer',
      company: 'northwind labs',
      website: 'northwind.com',
      startDate: '2026-11',
    }),
  );
  expect(await later.syncItem(source, lenaItem)).toEqual({ records: 1 });
  expect(await stack.db.query(`SELECT company_id, data FROM events WHERE id = $1`, [`pdl:${LENA}:29.0`])).toEqual([
    {
      company_id: 'co-northwind',
      data: {
        previous_title: 'Data Engineer',
        previous_company: 'Northwind Labs',
        new_title: 'Senior Data Engineer',
        new_company: 'Northwind Labs',
        new_job_started_on: '11/2026',
        new_job_start_month: '2026-11',
        change_type: 'title',
      },
    },
  ]);
  expect(await later.items(source, '1-release')).toEqual({ items: [], next: null });
  expect((await later.get(source)).detail).toBe(
    'release 29.1 (compared with 29.0): 3 changelog calls (free), 0 person lookups, 0 credits charged = $0.00 at $0.28 a credit; 4 people tracked',
  );
});

test('without an API key the source is listed, says it is off, and its runs ask nothing', async () => {
  const off = createSources(
    {
      db: stack.db,
      config: { ...stack.config, PEOPLE_DATA_LABS_API_KEY: undefined },
      logger: createLogger('silent', 'test'),
    },
    stack.services.ingestion,
  );
  expect(off.sources.names).toContain('people-data-labs');
  expect(await off.sources.get('people-data-labs')).toMatchObject({
    name: 'people-data-labs',
    off: 'off: no API key (PEOPLE_DATA_LABS_API_KEY)',
    detail: null,
  });
  const requestsBefore = pdl.requests.length;
  expect(await off.sources.items('people-data-labs', null)).toEqual({ items: [], next: null });
  expect(await off.sources.syncItem('people-data-labs', '1-release')).toEqual({ records: 0 });
  expect(pdl.requests.length).toBe(requestsBefore);
});
