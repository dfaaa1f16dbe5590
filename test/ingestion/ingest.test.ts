import { startStack, type Stack, TEST_ADMIN_TOKEN } from '../setup/stack';
import { call } from '../setup/http';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(() => stack.stop());

/** `token: null` sends no Authorization header. */
const ingest = (body: string, contentType = 'application/x-ndjson', token: string | null = TEST_ADMIN_TOKEN) =>
  call(`${stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: token ?? undefined,
    rawBody: body,
    headers: { 'Content-Type': contentType },
  });

const ndjson = (lines: (object | string)[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

const acme = {
  kind: 'company',
  id: 'co-acme',
  name: 'Acme   Inc',
  domain: 'https://www.Acme.io/about',
  linkedinUrl: 'linkedin.com/company/Acme-Inc/',
  industry: 'Computer Software',
  employeeCount: 120,
  hqCountryCode: 'us',
  hqCity: 'Austin',
  description: 'Anvils, delivered.',
  companyType: 'Privately Held',
  foundedYear: 2015,
  techStack: ['Salesforce', 'Salesforce', 'HubSpot CRM'],
};
const jane = {
  kind: 'person',
  id: 'p-jane',
  firstName: 'Jane',
  lastName: 'Doe',
  title: 'VP Sales, EMEA',
  companyId: 'co-acme',
  linkedinUrl: 'https://de.linkedin.com/in/Jane-Doe?trk=public',
  email: 'jane.doe@acme.io',
  phone: '+4989123456',
  location: 'Munich, Bavaria, Germany',
  city: 'Munich',
  countryCode: 'DE',
  startedOn: '2024-10',
};
const raised = {
  kind: 'event',
  id: 'ev-raise',
  type: 'fundraising',
  occurredAt: '2024-11-20T10:00:00Z',
  companyId: 'co-acme',
  data: { funding_type: 'Series B', funding_amount_usd: 30000000, announcement_date: '2024-11-20' },
};
const moved = {
  kind: 'event',
  id: 'ev-move',
  type: 'job_change',
  occurredAt: '2024-10-03T08:00:00+02:00',
  companyId: 'co-acme',
  personId: 'p-jane',
  data: {
    previous_title: 'Sales Director',
    previous_company: 'Globex',
    new_title: 'VP Sales, EMEA',
    new_company: 'Acme Inc',
    new_job_started_on: '10/2024',
    new_job_start_month: '2024-10',
    change_type: 'company',
  },
};

// Line numbers count every line, the blank one (2) included.
const MIXED = ndjson([
  acme, // 1
  '', // 2
  jane, // 3
  '{not json', // 4
  { kind: 'company', id: 'co-nameless' }, // 5
  raised, // 6
  { ...moved, id: 'ev-no-person', personId: undefined }, // 7
  { ...jane, id: 'p-orphan', companyId: 'co-nowhere' }, // 8
  { ...raised, id: 'ev-ipo', type: 'ipo' }, // 9
  { ...raised, id: 'ev-bad-amount', data: { funding_amount_usd: '5M' } }, // 10
  { kind: 'widget', id: 'w-1' }, // 11
  { ...acme, id: 'co-snake', employee_count: 5 }, // 12
  { ...raised, id: 'ev-unknown-company', companyId: 'co-nowhere' }, // 13
  moved, // 14
  { ...acme, name: 'Acme Again' }, // 15: same id as line 1
]);

describe('POST /admin/v1/ingest', () => {
  test('keeps the good lines, reports the bad ones by line, and derives the stored columns', async () => {
    const answer = await ingest(`${MIXED}\n`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ accepted: 4, duplicates: 1, rejected: 9 });
    expect(answer.body.errors.map((e: { line: number }) => e.line)).toEqual([4, 5, 7, 8, 9, 10, 11, 12, 13]);
    const message = (line: number) => answer.body.errors.find((e: { line: number }) => e.line === line).message;
    expect(message(4)).toMatch(/not valid JSON/);
    expect(message(5)).toBe('name: is required');
    expect(message(7)).toMatch(/^personId: is required/);
    expect(message(8)).toMatch(/companyId: no company "co-nowhere"/);
    expect(message(9)).toMatch(/^type: must be "job_change" or one of/);
    expect(message(10)).toBe('data.funding_amount_usd: must be a non-negative number');
    expect(message(11)).toMatch(/^kind: must be/);
    expect(message(12)).toBe('employee_count: is not a field of company records');
    expect(message(13)).toMatch(/companyId: no company "co-nowhere" is stored/);

    const [company] = await stack.db.query(`SELECT * FROM companies WHERE id = 'co-acme'`);
    expect(company).toMatchObject({
      name: 'Acme   Inc',
      name_key: 'acme inc',
      domain: 'acme.io',
      linkedin_url: 'https://www.linkedin.com/company/acme-inc',
      industry: 'Software Development',
      employee_count: 120,
      size_band: '51-200',
      hq_country_code: 'US',
      hq_city: 'Austin',
      founded_year: 2015,
      tech_stack: ['Salesforce', 'HubSpot CRM'],
    });
    const [person] = await stack.db.query(`SELECT * FROM people WHERE id = 'p-jane'`);
    expect(person).toMatchObject({
      title: 'VP Sales, EMEA',
      persona: 'VP of Sales',
      company_id: 'co-acme',
      linkedin_url: 'https://www.linkedin.com/in/jane-doe',
      city: 'Munich',
      country_code: 'DE',
      region_code: 'BY',
      started_on: '2024-10',
    });
    const events = await stack.db.query(
      `SELECT id, type, occurred_at, company_id, person_id, data FROM events ORDER BY id`,
    );
    expect(events).toEqual([
      {
        id: 'ev-move',
        type: 'job_change',
        occurred_at: new Date('2024-10-03T06:00:00Z'),
        company_id: 'co-acme',
        person_id: 'p-jane',
        data: moved.data,
      },
      {
        id: 'ev-raise',
        type: 'fundraising',
        occurred_at: new Date('2024-11-20T10:00:00Z'),
        company_id: 'co-acme',
        person_id: null,
        data: raised.data,
      },
    ]);
    const counts = await stack.db.query(
      `SELECT (SELECT count(*)::int FROM companies) AS companies, (SELECT count(*)::int FROM people) AS people, (SELECT count(*)::int FROM events) AS events`,
    );
    expect(counts).toEqual([{ companies: 1, people: 1, events: 2 }]);
  });

  test('the same file again changes nothing: every good line is a duplicate', async () => {
    const before = await stack.db.query(`SELECT * FROM companies ORDER BY id`);
    const again = await ingest(MIXED);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 5, rejected: 9 });
    expect(await stack.db.query(`SELECT * FROM companies ORDER BY id`)).toEqual(before);
    expect((await stack.db.query(`SELECT count(*)::int AS n FROM events`))[0].n).toBe(2);
  });

  test('an event may reference what an earlier ingest stored, but not what nobody sent', async () => {
    const answer = await ingest(
      ndjson([
        { ...raised, id: 'ev-later', occurredAt: '2024-12-01T00:00:00Z' },
        { ...moved, id: 'ev-ghost', personId: 'p-ghost' },
      ]),
    );
    expect(answer.body).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: 1,
      errors: [{ line: 2, message: 'personId: no person "p-ghost" is stored or sent in this input' }],
    });
  });

  test('a JSON array is accepted too, its index + 1 standing for the line', async () => {
    const answer = await ingest(
      JSON.stringify([
        {
          ...acme,
          id: 'co-json',
          name: 'Json Corp',
          domain: 'json.example.co.uk',
          linkedinUrl: null,
          employeeCount: 0,
        },
        { ...raised, id: 'ev-json-bad', companyId: 'co-missing' },
        { ...raised, id: 'ev-json', companyId: 'co-json' },
      ]),
      'application/json',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ accepted: 2, duplicates: 0, rejected: 1, errors: [{ line: 2 }] });
    const [row] = await stack.db.query(`SELECT domain, linkedin_url, size_band FROM companies WHERE id = 'co-json'`);
    expect(row).toEqual({ domain: 'example.co.uk', linkedin_url: null, size_band: 'Self-employed' });
  });

  test('refuses callers without the admin token', async () => {
    const answer = await ingest(ndjson([acme]), 'application/x-ndjson', null);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('UNAUTHORIZED');
    const wrong = await ingest(ndjson([acme]), 'application/x-ndjson', 'not-the-admin-token-at-all');
    expect(wrong.status).toBe(401);
  });

  test('an empty body, an empty array or a JSON object is a 400 INVALID_REQUEST', async () => {
    for (const [body, type] of [
      ['', 'application/x-ndjson'],
      ['\n\n  \n', 'application/x-ndjson'],
      ['[]', 'application/json'],
      ['{"kind":"company"}', 'application/json'],
      ['[{"kind"', 'application/json'],
      ['id,name\n1,Acme', 'text/csv'],
    ]) {
      const answer = await ingest(body, type);
      expect([answer.status, answer.body.error.code, body]).toEqual([400, 'INVALID_REQUEST', body]);
    }
  });

  test('ingests 10,000 records in one request', async () => {
    const lines: object[] = [];
    for (let i = 0; i < 1000; i++) {
      lines.push({
        ...acme,
        id: `bulk-co-${i}`,
        name: `Bulk ${i}`,
        domain: `bulk${i}.com`,
        linkedinUrl: `https://www.linkedin.com/company/bulk-${i}`,
      });
    }
    for (let i = 0; i < 4000; i++) {
      lines.push({
        ...jane,
        id: `bulk-p-${i}`,
        companyId: `bulk-co-${i % 1000}`,
        city: ['Munich', 'Austin', 'Paris', 'Leeds'][i % 4],
        countryCode: ['DE', 'US', 'FR', 'GB'][i % 4],
      });
    }
    for (let i = 0; i < 5000; i++) {
      lines.push({ ...moved, id: `bulk-ev-${i}`, companyId: `bulk-co-${i % 1000}`, personId: `bulk-p-${i % 4000}` });
    }
    // How fast is the bench's business (docs/performance.md), not a pass/fail test's.
    const answer = await ingest(ndjson(lines));
    expect(answer.body).toMatchObject({ accepted: 10_000, duplicates: 0, rejected: 0 });
    const [paris] = await stack.db.query(`SELECT region_code, persona FROM people WHERE id = 'bulk-p-2'`);
    expect(paris).toEqual({ region_code: 'IDF', persona: 'VP of Sales' });
  });
});
