import { openDatabase } from '../../src/db/data-source';
import { HostPacing } from '../../src/sources/kit/host-pacing';
import { PoliteFetch } from '../../src/sources/kit/polite-fetch';
import { startStack, type Stack } from '../setup/stack';
import { startVendor, type VendorServer } from './vendors';
import {
  currentFeed,
  dailyFormIndex,
  dailyIndexPath,
  feedPath,
  formDXml,
  primaryDocPath,
  xmlAnswer,
  type FeedEntry,
  type FormDFixture,
} from './sec-fixtures';
import { runSourceNow } from './source-runs';

const CONTACT = 'filings-ops@leads.example.com';
let stack: Stack;
let sec: VendorServer;
/** What the feed lists now, newest first, as EDGAR keeps listing a day's filings. */
const listed: FeedEntry[] = [];

beforeAll(async () => {
  sec = await startVendor();
  stack = await startStack({
    env: {
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `www.sec.gov=${sec.origin}`,
      SOURCES_TIMEOUT_MS: '20000',
      SEC_FORM_D_INTERVAL: '24h',
      SEC_FORM_D_BACKFILL_DAYS: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  serveFeed();
});

afterAll(async () => {
  await stack?.stop();
  await sec?.close();
});

function serveFeed() {
  sec.answer(feedPath(0), () => xmlAnswer(currentFeed(listed), 'application/atom+xml'));
}

/** A filing listed on the feed (newest first) and its primary_doc.xml served. */
function file(entry: Omit<FeedEntry, 'company' | 'cik'>, doc: FormDFixture) {
  listed.unshift({ ...entry, company: doc.name, cik: doc.cik });
  sec.answer(primaryDocPath(doc.cik, entry.accession), xmlAnswer(formDXml(doc)));
}

const runSource = (verb: 'run' | 'backfill' = 'run') => runSourceNow(stack, 'sec-form-d', verb);

const formDEvents = () =>
  stack.db.query(
    `SELECT id, company_id, occurred_at, data FROM events WHERE id LIKE 'sec-form-d:%' AND type = 'fundraising' ORDER BY id`,
  );
const filingStatus = async (accession: string) =>
  (await stack.db.query(`SELECT status, problem FROM sec_form_d_filings WHERE accession = $1`, [accession]))[0];
const requestsFor = (path: string) => sec.requests.filter((r) => r.path === path);

const ACME = { cik: '0001900001', name: 'Acme Robotics, Inc.', city: 'SAN FRANCISCO', state: 'CA' };

test('the current feed becomes fundraising events at the issuers, with their officers and directors; pooled funds and other forms are left out', async () => {
  file(
    { form: 'D', accession: '0001900001-26-000001', filedOn: '2026-11-24' },
    {
      ...ACME,
      offering: '5000000',
      sold: '2500000',
      yearOfInc: 2023,
      people: [
        {
          first: 'Jane',
          last: 'Doe',
          roles: ['Executive Officer', 'Director'],
          clarification: 'Chief Executive Officer',
        },
        { first: 'John', last: 'Roe', roles: ['Director'] },
        { first: 'Lee', middle: 'K.', last: 'Park', roles: ['Executive Officer'] },
        { first: 'Sam', last: 'Promo', roles: ['Promoter'] },
      ],
      signer: { name: 'Lee K. Park', title: 'Chief Financial Officer' },
    },
  );
  // The same filing listed again for a co-issuer: read once, under the first listing's CIK.
  listed.splice(1, 0, { ...listed[0]!, company: 'Acme Robotics Holdings, LLC', cik: '0001900009' });
  file(
    { form: 'D', accession: '0001900002-26-000001', filedOn: '2026-11-24' },
    {
      cik: '0001900002',
      name: 'Harbor Venture Fund I, LP',
      city: 'Seattle',
      state: 'WA',
      entityType: 'Limited Partnership',
      industry: 'Pooled Investment Fund',
      fundType: 'Venture Capital Fund',
      securities: ['isPooledInvestmentFundType'],
      offering: '20000000',
      sold: '12000000',
      people: [{ first: 'Ann', last: 'Partner', roles: ['Executive Officer'] }],
    },
  );
  file(
    { form: 'D', accession: '0001900003-26-000001', filedOn: '2026-11-24' },
    {
      cik: '0001900003',
      name: 'Quill Bio, Inc.',
      city: 'Boston',
      state: 'MA',
      industry: 'Biotechnology',
      securities: ['isEquityType', 'isOptionToAcquireType'],
      offering: 'Indefinite',
      sold: '0',
    },
  );
  file(
    { form: 'D', accession: '0001900004-26-000001', filedOn: '2026-11-23' },
    {
      cik: '0001900004',
      name: 'Tern Energy LLC',
      city: 'Denver',
      state: 'CO',
      entityType: 'Limited Liability Company',
      industry: 'Other Energy',
      securities: ['isDebtType'],
      offering: '3000000',
      sold: '0',
    },
  );
  // type=D also lists forms that only start with a D.
  listed.unshift({
    form: 'DEF 14A',
    company: 'Delta Proxy Corp',
    cik: '0001900005',
    accession: '0001900005-26-000001',
    filedOn: '2026-11-24',
  });

  const status = await runSource();

  expect(await formDEvents()).toEqual([
    {
      id: 'sec-form-d:0001900001-26-000001',
      company_id: 'sec-cik-0001900001',
      occurred_at: new Date('2026-11-24T00:00:00Z'),
      data: { funding_type: 'Equity', funding_amount_usd: 2_500_000, announcement_date: '2026-11-24' },
    },
    {
      id: 'sec-form-d:0001900003-26-000001',
      company_id: 'sec-cik-0001900003',
      occurred_at: new Date('2026-11-24T00:00:00Z'),
      // "Indefinite" offered and nothing sold yet: the amount is unknown, not zero.
      data: {
        funding_type: 'Equity, Option, Warrant or Other Right to Acquire Another Security',
        funding_amount_usd: '',
        announcement_date: '2026-11-24',
      },
    },
    {
      id: 'sec-form-d:0001900004-26-000001',
      company_id: 'sec-cik-0001900004',
      occurred_at: new Date('2026-11-23T00:00:00Z'),
      // Nothing sold yet: the amount offered.
      data: {
        funding_type: 'Debt',
        funding_stage: 'Debt Financing',
        funding_amount_usd: 3_000_000,
        announcement_date: '2026-11-23',
      },
    },
  ]);
  expect(
    await stack.db.query(
      `SELECT name, hq_city, hq_country_code, industry, company_type, founded_year FROM companies WHERE id = 'sec-cik-0001900001'`,
    ),
  ).toEqual([
    {
      name: 'Acme Robotics, Inc.',
      hq_city: 'San Francisco',
      hq_country_code: 'US',
      industry: 'Other Technology',
      company_type: 'Corporation',
      founded_year: 2023,
    },
  ]);
  // Executive officers and directors become people with their roles; a promoter does not.
  expect(
    await stack.db.query(
      `SELECT first_name, last_name, title, persona, city, country_code FROM people WHERE company_id = 'sec-cik-0001900001' ORDER BY last_name`,
    ),
  ).toEqual([
    {
      first_name: 'Jane',
      last_name: 'Doe',
      title: 'Chief Executive Officer',
      persona: 'Chief Executive Officer',
      city: 'San Francisco',
      country_code: 'US',
    },
    {
      first_name: 'Lee',
      last_name: 'Park',
      title: 'Chief Financial Officer',
      persona: 'Chief Financial Officer',
      city: 'San Francisco',
      country_code: 'US',
    },
    expect.objectContaining({ first_name: 'John', last_name: 'Roe', title: 'Director' }),
  ]);
  // The pooled fund is read and left out: no company, no event.
  expect(await filingStatus('0001900002-26-000001')).toEqual({
    status: 'skipped',
    problem: 'a pooled investment fund',
  });
  expect(await stack.db.query(`SELECT id FROM companies WHERE id = 'sec-cik-0001900002'`)).toEqual([]);
  expect(requestsFor(primaryDocPath('0001900005', '0001900005-26-000001'))).toEqual([]);
  expect(requestsFor(primaryDocPath('0001900009', '0001900001-26-000001'))).toEqual([]);
  expect(requestsFor(primaryDocPath(ACME.cik, '0001900001-26-000001'))).toHaveLength(1);
  expect(status).toMatchObject({ recordsIngested: 3, errors: 0, lastError: null });
  for (const request of sec.requests) expect(request.headers['user-agent']).toContain(`mailto:${CONTACT}`);
  expect(await stack.services.metrics.text()).toContain('intent_leads_source_records{source="sec-form-d"} 3');
});

test('an amendment updates its original event and adds no second one; a filing already read is not read again', async () => {
  file(
    { form: 'D/A', accession: '0001900001-26-000002', filedOn: '2026-11-25' },
    {
      ...ACME,
      type: 'D/A',
      previousAccession: '0001900001-26-000001',
      offering: '5000000',
      sold: '4000000',
      people: [
        {
          first: 'Jane',
          last: 'Doe',
          roles: ['Executive Officer', 'Director'],
          clarification: 'Chief Executive Officer',
        },
      ],
    },
  );
  const before = await stack.services.sources.get('sec-form-d');
  await runSource();
  const after = await runSource();

  const acme = (await formDEvents()).filter((e: { company_id: string }) => e.company_id === 'sec-cik-0001900001');
  expect(acme).toEqual([
    {
      id: 'sec-form-d:0001900001-26-000001',
      company_id: 'sec-cik-0001900001',
      occurred_at: new Date('2026-11-24T00:00:00Z'),
      data: { funding_type: 'Equity', funding_amount_usd: 4_000_000, announcement_date: '2026-11-24' },
    },
  ]);
  expect(
    await stack.db.query(
      `SELECT accession, form, status, original_accession FROM sec_form_d_filings WHERE cik = $1 ORDER BY accession`,
      [ACME.cik],
    ),
  ).toEqual([
    { accession: '0001900001-26-000001', form: 'D', status: 'ingested', original_accession: '0001900001-26-000001' },
    { accession: '0001900001-26-000002', form: 'D/A', status: 'ingested', original_accession: '0001900001-26-000001' },
  ]);
  expect(
    await stack.db.query(`SELECT count(*)::int AS n FROM people WHERE company_id = $1`, ['sec-cik-0001900001']),
  ).toEqual([{ n: 3 }]);
  expect(requestsFor(primaryDocPath(ACME.cik, '0001900001-26-000001'))).toHaveLength(1);
  expect(requestsFor(primaryDocPath(ACME.cik, '0001900001-26-000002'))).toHaveLength(1);
  expect(after.recordsIngested).toBe(before.recordsIngested + 1);
});

test('an original read after its amendment does not undo it', async () => {
  const kite = { cik: '0001900060', name: 'Kite Materials, Inc.', city: 'Raleigh', state: 'NC' };
  // Filed by an agent whose accession numbers sort first: the amendment is read before the original.
  file(
    { form: 'D', accession: '0001900060-26-000001', filedOn: '2026-11-20' },
    { ...kite, offering: '2000000', sold: '500000' },
  );
  file(
    { form: 'D/A', accession: '0001111111-26-000007', filedOn: '2026-11-25' },
    { ...kite, type: 'D/A', previousAccession: '0001900060-26-000001', offering: '2000000', sold: '1800000' },
  );
  await runSource();
  expect(
    await stack.db.query(`SELECT occurred_at, data FROM events WHERE id = 'sec-form-d:0001900060-26-000001'`),
  ).toEqual([
    {
      occurred_at: new Date('2026-11-25T00:00:00Z'),
      data: { funding_type: 'Equity', funding_amount_usd: 1_800_000, announcement_date: '2026-11-25' },
    },
  ]);
  expect(await filingStatus('0001900060-26-000001')).toEqual({ status: 'ingested', problem: null });
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM events WHERE company_id = 'sec-cik-0001900060'`)).toEqual(
    [{ n: 1 }],
  );
});

test('two issuers sharing a name are two companies; a stored company is matched by name and city, never by name alone between two', async () => {
  await stack.services.ingestion.ingest([
    {
      kind: 'company',
      id: 'co-nova',
      name: 'Nova Labs, Inc.',
      domain: 'novalabs.com',
      hqCountryCode: 'US',
      hqCity: 'Austin',
    },
    { kind: 'company', id: 'co-orbit-1', name: 'Orbit Systems', domain: 'orbit-one.com' },
    { kind: 'company', id: 'co-orbit-2', name: 'Orbit Systems', domain: 'orbit-two.com' },
  ]);
  const nova = { name: 'Nova Labs, Inc.', offering: '1000000', sold: '1000000' };
  file(
    { form: 'D', accession: '0001900010-26-000001', filedOn: '2026-11-25' },
    { ...nova, cik: '0001900010', city: 'AUSTIN', state: 'TX' },
  );
  file(
    { form: 'D', accession: '0001900011-26-000001', filedOn: '2026-11-25' },
    { ...nova, cik: '0001900011', city: 'Boston', state: 'MA' },
  );
  file(
    { form: 'D', accession: '0001900012-26-000001', filedOn: '2026-11-25' },
    { name: 'Orbit Systems', cik: '0001900012', city: 'Reno', state: 'NV', offering: '750000', sold: '250000' },
  );
  await runSource();
  // The same issuer files again: its CIK now names its company.
  file(
    { form: 'D', accession: '0001900010-26-000002', filedOn: '2026-11-25' },
    { ...nova, cik: '0001900010', city: 'Austin', state: 'TX' },
  );
  await runSource();

  const companyOf = async (accession: string) =>
    (await stack.db.query(`SELECT company_id FROM events WHERE id = $1`, [`sec-form-d:${accession}`]))[0]?.company_id;
  expect(await companyOf('0001900010-26-000001')).toBe('co-nova');
  expect(await companyOf('0001900011-26-000001')).toBe('sec-cik-0001900011');
  expect(await companyOf('0001900012-26-000001')).toBe('sec-cik-0001900012');
  expect(await companyOf('0001900010-26-000002')).toBe('co-nova');
  expect(
    await stack.db.query(
      `SELECT cik, company_id, matched_by FROM sec_issuers WHERE cik IN ('0001900010', '0001900011', '0001900012') ORDER BY cik`,
    ),
  ).toEqual([
    { cik: '0001900010', company_id: 'co-nova', matched_by: 'name-and-city' },
    { cik: '0001900011', company_id: 'sec-cik-0001900011', matched_by: 'created' },
    { cik: '0001900012', company_id: 'sec-cik-0001900012', matched_by: 'created' },
  ]);
  expect(await stack.db.query(`SELECT name, hq_city FROM companies WHERE id = 'sec-cik-0001900011'`)).toEqual([
    { name: 'Nova Labs, Inc.', hq_city: 'Boston' },
  ]);
});

test('a malformed document or a missing one is the source error naming the filing, and is not read again', async () => {
  listed.unshift(
    { form: 'D', company: 'Broken Co', cik: '0001900020', accession: '0001900020-26-000001', filedOn: '2026-11-25' },
    { form: 'D', company: 'Gone Co', cik: '0001900021', accession: '0001900021-26-000001', filedOn: '2026-11-25' },
  );
  sec.answer(
    primaryDocPath('0001900020', '0001900020-26-000001'),
    xmlAnswer(
      '<?xml version="1.0"?>\n<edgarSubmission><submissionType>D</submissionType><primaryIssuer><cik>0001900020',
    ),
  );
  const before = await stack.services.sources.get('sec-form-d');
  const failed = await runSource();
  expect(failed.errors).toBe(before.errors + 2);
  expect(await filingStatus('0001900020-26-000001')).toEqual({
    status: 'failed',
    problem: expect.stringMatching(/^Form D 0001900020-26-000001: primary_doc\.xml: not well-formed XML/),
  });
  expect(await filingStatus('0001900021-26-000001')).toEqual({
    status: 'failed',
    problem: expect.stringMatching(/^Form D 0001900021-26-000001: primary_doc\.xml: .*answered 404/),
  });
  expect(failed.lastError).toMatch(/^Form D 00019000(20|21)-26-000001: primary_doc\.xml: /);
  expect(await stack.db.query(`SELECT id FROM events WHERE id LIKE 'sec-form-d:000190002%'`)).toEqual([]);

  await runSource();
  expect(requestsFor(primaryDocPath('0001900020', '0001900020-26-000001'))).toHaveLength(1);
});

test('a 429 with Retry-After is waited out and the filing read after it', async () => {
  let asked = 0;
  const doc = {
    cik: '0001900030',
    name: 'Finch Analytics, Inc.',
    city: 'Chicago',
    state: 'IL',
    offering: '900000',
    sold: '900000',
  };
  file({ form: 'D', accession: '0001900030-26-000001', filedOn: '2026-11-25' }, doc);
  sec.answer(primaryDocPath(doc.cik, '0001900030-26-000001'), () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' }
      : xmlAnswer(formDXml(doc)),
  );
  await runSource();
  expect(requestsFor(primaryDocPath(doc.cik, '0001900030-26-000001'))).toHaveLength(2);
  expect(await filingStatus('0001900030-26-000001')).toEqual({ status: 'ingested', problem: null });
});

test('a backfill reads the daily form indexes of the last days: their Form D filings become events, a day without an index is no error', async () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const wren = {
    cik: '0001900040',
    name: 'Wren Health, Inc.',
    city: 'Nashville',
    state: 'TN',
    offering: '2000000',
    sold: '1500000',
  };
  sec.answer(
    dailyIndexPath(yesterday),
    xmlAnswer(
      dailyFormIndex(yesterday, [
        {
          form: '10-K',
          company: 'Big Public Corp',
          cik: '0000012345',
          accession: '0000012345-26-000100',
          filedOn: yesterday,
        },
        { form: 'D', company: wren.name, cik: wren.cik, accession: '0001900040-26-000001', filedOn: yesterday },
        {
          form: 'DEF 14A',
          company: 'Delta Proxy Corp',
          cik: '0001900005',
          accession: '0001900005-26-000002',
          filedOn: yesterday,
        },
      ]),
      'text/plain',
    ),
  );
  sec.answer(primaryDocPath(wren.cik, '0001900040-26-000001'), xmlAnswer(formDXml(wren)));
  const before = await stack.services.sources.get('sec-form-d');
  const status = await runSource('backfill');

  expect(await stack.db.query(`SELECT data FROM events WHERE id = 'sec-form-d:0001900040-26-000001'`)).toEqual([
    { data: { funding_type: 'Equity', funding_amount_usd: 1_500_000, announcement_date: yesterday } },
  ]);
  // Other forms of the index (a 10-K, a DEF 14A) are not listed.
  expect(
    await stack.db.query(`SELECT accession FROM sec_form_d_filings WHERE cik IN ('0000012345', '0001900005')`),
  ).toEqual([]);
  const dayBefore = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  expect(requestsFor(dailyIndexPath(dayBefore))).toHaveLength(1);
  expect(
    await stack.db.query(`SELECT count(*)::int AS unread FROM sec_form_d_index_days WHERE read_at IS NULL`),
  ).toEqual([{ unread: 0 }]);
  expect(status.errors).toBe(before.errors);
  expect(status.recordsIngested).toBe(before.recordsIngested + 1);
});

test("SEC's 403 (over its rate) holds every request to www.sec.gov off for ten minutes, and the filing stays to be read", async () => {
  const doc = {
    cik: '0001900050',
    name: 'Gull Partners, Inc.',
    city: 'Miami',
    state: 'FL',
    offering: '500000',
    sold: '100000',
  };
  file({ form: 'D', accession: '0001900050-26-000001', filedOn: '2026-11-25' }, doc);
  sec.answer(primaryDocPath(doc.cik, '0001900050-26-000001'), {
    status: 403,
    headers: { 'content-type': 'text/html' },
    body: '<html><body>Request Rate Threshold Exceeded</body></html>',
  });
  const source = stack.services.secFormD;
  await source.sync('1-feed');
  await expect(source.sync('3-filing-0001900050-26-000001')).rejects.toThrow(
    'www.sec.gov answered 403; retrying after 600 s',
  );
  const [hold] = await stack.db.query(
    `SELECT next_allowed_at >= now() + interval '9 minutes' AS held FROM source_hosts WHERE host = 'www.sec.gov'`,
  );
  expect(hold).toEqual({ held: true });
  expect(await filingStatus('0001900050-26-000001')).toEqual({ status: 'pending', problem: null });
  // Let the rest of the suite reach the host again.
  await stack.db.query(`DELETE FROM source_hosts WHERE host = 'www.sec.gov'`);
});

test('at most 10 requests per second to SEC across two workers: their reservations in PostgreSQL are 100 ms apart', async () => {
  const otherWorker = await openDatabase(stack.config.DATABASE_URL, 2);
  try {
    const fetcher = new PoliteFetch(otherWorker, stack.config);
    expect(fetcher.intervalOf('www.sec.gov')).toBe(100);
    expect(fetcher.intervalOf('boards-api.greenhouse.io')).toBe(stack.config.SOURCES_HOST_INTERVAL_MS);
    const interval = fetcher.intervalOf('www.sec.gov');
    const workers = [new HostPacing(stack.db), new HostPacing(otherWorker)];
    const host = 'www.sec.gov';
    const slots = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        workers[i % 2]!.reserve(host, interval).then((slot) => slot.slotAt.getTime()),
      ),
    );
    slots.sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBeGreaterThanOrEqual(100);
  } finally {
    await otherWorker.destroy();
  }
});
