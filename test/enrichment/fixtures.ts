import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, type Answer, type TestAccount } from '../setup/http';

/**
 * The store the enrichment suites look things up in (posted through the operator's ingestion
 * endpoint, as a data provider would), and a client of the public API bound to one key.
 */

export const startEnrichmentStack = (env: Record<string, string> = {}, options: { worker?: boolean } = {}) =>
  startStack({ ...options, env: { RATE_LIMIT_PER_SECOND: '100000', ENRICHMENT_LIVE_LATENCY_MS: '50', ...env } });

export const companies = [
  {
    kind: 'company',
    id: 'co-acme',
    name: 'Acme Analytics',
    domain: 'acme.io',
    linkedinUrl: 'https://www.linkedin.com/company/acme-analytics',
    industry: 'Software Development',
    employeeCount: 120,
    hqCountryCode: 'US',
    hqCity: 'Austin',
    description: 'Analytics for anvils.',
    companyType: 'Privately Held',
    foundedYear: 2015,
    techStack: ['HubSpot CRM', 'PostgreSQL'],
  },
  {
    kind: 'company',
    id: 'co-globex',
    name: 'Globex Bank',
    domain: 'globex.com',
    linkedinUrl: 'https://www.linkedin.com/company/globex',
    industry: 'Banking',
    employeeCount: 4000,
    hqCountryCode: 'GB',
    hqCity: 'London',
    description: 'A bank.',
    companyType: 'Public Company',
    foundedYear: 1901,
    techStack: [],
  },
  {
    kind: 'company',
    id: 'co-initech',
    name: 'Initech',
    domain: 'initech.de',
    industry: 'IT Services and IT Consulting',
    employeeCount: 30,
    hqCountryCode: 'DE',
    hqCity: 'Munich',
  },
  // Two companies share this name: a lookup by name cannot tell them apart.
  {
    kind: 'company',
    id: 'co-twin-1',
    name: 'Twin Corp',
    domain: 'twin-one.com',
    industry: 'Banking',
    employeeCount: 8,
    hqCountryCode: 'US',
    hqCity: 'San Francisco',
  },
  {
    kind: 'company',
    id: 'co-twin-2',
    name: 'Twin Corp',
    domain: 'twin-two.com',
    industry: 'Banking',
    employeeCount: 12000,
    hqCountryCode: 'US',
    hqCity: 'Boston',
  },
];

export const people = [
  {
    kind: 'person',
    id: 'pe-jane',
    firstName: 'Jane',
    lastName: 'Doe',
    title: 'Chief Technology Officer',
    companyId: 'co-acme',
    linkedinUrl: 'https://www.linkedin.com/in/jane-doe',
    email: 'jane.doe@acme.io',
    phone: '+1 512 555 0100',
    city: 'Austin',
    countryCode: 'US',
  },
  {
    kind: 'person',
    id: 'pe-john',
    firstName: 'John',
    lastName: 'Smith',
    title: 'VP Sales',
    companyId: 'co-globex',
    linkedinUrl: 'https://www.linkedin.com/in/john-smith',
    email: null,
    phone: null,
    city: 'London',
    countryCode: 'GB',
  },
  {
    kind: 'person',
    id: 'pe-greta',
    firstName: 'Greta',
    lastName: 'Berg',
    title: 'Head of Marketing',
    companyId: 'co-initech',
    email: 'greta@initech.de',
    phone: '+49 89 1234567',
    city: 'Munich',
    countryCode: 'DE',
  },
  {
    kind: 'person',
    id: 'pe-sam',
    firstName: 'Sam',
    lastName: 'Lee',
    title: 'Data Engineer',
    companyId: 'co-acme',
    email: 'sam@acme.io',
    city: 'San Francisco',
    countryCode: 'US',
  },
];

export async function ingestStore(stack: Stack, records: object[] = [...companies, ...people]): Promise<void> {
  const answer = await call(`${stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect(answer.body).toMatchObject({ accepted: records.length, rejected: 0 });
}

/** A client of the public API bound to one key. */
export function client(stack: Stack | { url: string }, account: Pick<TestAccount, 'apiKey'>) {
  const at = (path: string) => `${stack.url}/api/v1${path}`;
  return {
    get: (path: string, query: Record<string, string | undefined> = {}) => {
      const given = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
      const search = new URLSearchParams(given).toString();
      return call(at(search ? `${path}?${search}` : path), { token: account.apiKey });
    },
    post: (path: string, body?: unknown) => call(at(path), { method: 'POST', token: account.apiKey, body }),
  };
}
export type ApiClient = ReturnType<typeof client>;

export function expectStatus<T = any>(answer: Answer<T>, status: number): T {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });
  return answer.body;
}

/** The account's balance and its charges (grants left out), oldest first. */
export async function creditsOf(
  api: ApiClient,
): Promise<{ balance: number; charges: { operation: string; credits: number }[] }> {
  const balance = expectStatus(await api.get('/credits/balance'), 200).balance;
  const usage = expectStatus(await api.get('/credits/usage', { limit: '100' }), 200);
  const charges = (usage.items as { operation: string; credits: number }[])
    .filter((item) => item.operation !== 'grant')
    .map(({ operation, credits }) => ({ operation, credits }))
    .reverse();
  return { balance, charges };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
