import type { Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, companies, expectStatus, ingestStore, people, startEnrichmentStack, type ApiClient } from './fixtures';

let stack: Stack;
let api: ApiClient;
let apiKey: string;

beforeAll(async () => {
  stack = await startEnrichmentStack({}, { worker: false });
  await ingestStore(stack, [
    ...companies,
    ...people,
    {
      kind: 'company',
      id: 'co-taverns',
      name: 'Night Owl',
      domain: 'nightowl.com',
      industry: 'Bars, Taverns, and Nightclubs',
      employeeCount: 40,
      hqCountryCode: 'US',
      hqCity: 'Dallas',
    },
    {
      kind: 'company',
      id: 'co-pct',
      name: '100% Pure',
      domain: 'pure.com',
      industry: 'Retail',
      employeeCount: 3,
      hqCountryCode: 'FR',
      hqCity: 'Paris',
    },
  ]);
  const account = await createAccount(stack);
  apiKey = account.apiKey;
  api = client(stack, account);
});
afterAll(() => stack.stop());

const names = (page: { items: { name: string }[] }) => page.items.map((c) => c.name);
const peopleNames = (page: { items: { contact: { first_name: string } }[] }) =>
  page.items.map((p) => p.contact.first_name);

describe('GET /api/v1/companies/search', () => {
  test('no filter lists every company by name; paging with total and hasMore', async () => {
    const all = expectStatus(await api.get('/companies/search'), 200);
    expect(all).toMatchObject({ total: 7, limit: 25, offset: 0, hasMore: false });
    expect(names(all)).toEqual([
      '100% Pure',
      'Acme Analytics',
      'Globex Bank',
      'Initech',
      'Night Owl',
      'Twin Corp',
      'Twin Corp',
    ]);

    const first = expectStatus(await api.get('/companies/search', { limit: '3' }), 200);
    expect(first).toMatchObject({ total: 7, limit: 3, offset: 0, hasMore: true });
    const last = expectStatus(await api.get('/companies/search', { limit: '3', offset: '6' }), 200);
    expect(last).toMatchObject({ total: 7, limit: 3, offset: 6, hasMore: false });
    expect([
      ...names(first),
      ...names(expectStatus(await api.get('/companies/search', { limit: '3', offset: '3' }), 200)),
      ...names(last),
    ]).toEqual(names(all));
    expect(expectStatus(await api.get('/companies/search', { offset: '50' }), 200)).toMatchObject({
      items: [],
      total: 7,
      hasMore: false,
    });
  });

  test('items are the lead company block', async () => {
    const page = expectStatus(await api.get('/companies/search', { q: 'acme' }), 200);
    expect(page.items).toEqual([
      expect.objectContaining({
        name: 'Acme Analytics',
        website: 'https://acme.io',
        employee_range: '51-200',
        hq_country_code: 'US',
        tech_stack: ['HubSpot CRM', 'PostgreSQL'],
      }),
    ]);
  });

  test('q matches name or domain, literally', async () => {
    expect(names(expectStatus(await api.get('/companies/search', { q: 'globex.com' }), 200))).toEqual(['Globex Bank']);
    expect(names(expectStatus(await api.get('/companies/search', { q: '100%' }), 200))).toEqual(['100% Pure']);
    expect(names(expectStatus(await api.get('/companies/search', { q: '%' }), 200))).toEqual(['100% Pure']);
  });

  test('industry, size and headquarters filters, comma-separated, AND together', async () => {
    const search = async (query: Record<string, string>) =>
      names(expectStatus(await api.get('/companies/search', query), 200));
    expect(await search({ industryFilters: 'Banking' })).toEqual(['Globex Bank', 'Twin Corp', 'Twin Corp']);
    // A name holding commas stays one name; a category covers its industries.
    expect(await search({ industryFilters: 'Bars, Taverns, and Nightclubs,Software Development' })).toEqual([
      'Acme Analytics',
      'Night Owl',
    ]);
    expect(await search({ industryFilters: 'Financial Services' })).toEqual(['Globex Bank', 'Twin Corp', 'Twin Corp']);
    expect(await search({ companySizeFilters: '1-10,10001+' })).toEqual(['100% Pure', 'Twin Corp', 'Twin Corp']);
    expect(await search({ locations: 'United Kingdom, Germany' })).toEqual(['Globex Bank', 'Initech']);
    expect(await search({ locations: 'Texas' })).toEqual(['Acme Analytics', 'Night Owl']);
    expect(await search({ locations: 'Austin, Texas, France' })).toEqual(['100% Pure', 'Acme Analytics']);
    expect(
      await search({ industryFilters: 'Banking', companySizeFilters: '10001+', locations: 'Massachusetts' }),
    ).toEqual(['Twin Corp']);
  });

  test('unknown size bands are 400 INVALID_REQUEST, unknown locations 400 INVALID_LOCATION', async () => {
    const size = await api.get('/companies/search', { companySizeFilters: '1-5' });
    expect({ status: size.status, code: size.body.error.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    const place = await api.get('/companies/search', { locations: 'Qwertyland' });
    expect({ status: place.status, code: place.body.error.code, invalid: place.body.error.invalid_locations }).toEqual({
      status: 400,
      code: 'INVALID_LOCATION',
      invalid: ['Qwertyland'],
    });
    expect((await api.get('/companies/search', { limit: '101' })).status).toBe(400);
  });
});

describe('GET /api/v1/people/search', () => {
  test('items are the contact and company blocks, without the paid email and phone', async () => {
    const page = expectStatus(await api.get('/people/search', { q: 'jane' }), 200);
    expect(page).toMatchObject({ total: 1, hasMore: false });
    expect(page.items[0].contact).toMatchObject({
      first_name: 'Jane',
      last_name: 'Doe',
      email: '',
      phone: '',
      matched_persona: 'Chief Technology Officer',
    });
    expect(page.items[0].company).toMatchObject({ name: 'Acme Analytics' });
  });

  test("personas, custom titles, company filters and the person's location", async () => {
    const search = async (query: Record<string, string>) =>
      peopleNames(expectStatus(await api.get('/people/search', query), 200));
    expect(await search({})).toEqual(['Greta', 'Jane', 'Sam', 'John']);
    expect(await search({ jobTitles: 'Chief Technology Officer,VP of Sales' })).toEqual(['Jane', 'John']);
    expect(await search({ customTitles: 'engineer' })).toEqual(['Sam']);
    expect(await search({ jobTitles: 'Head of Marketing', customTitles: 'Engineer' })).toEqual(['Greta', 'Sam']);
    expect(await search({ industryFilters: 'Software Development' })).toEqual(['Jane', 'Sam']);
    expect(await search({ companySizeFilters: '11-50,1001-5000' })).toEqual(['Greta', 'John']);
    // Where the person is, not where the company is.
    expect(await search({ locations: 'California' })).toEqual(['Sam']);
    expect(await search({ locations: 'Austin, Texas' })).toEqual(['Jane']);
    expect(await search({ q: 'globex' })).toEqual(['John']);
    expect(await search({ q: 'marketing' })).toEqual(['Greta']);
    const paged = expectStatus(await api.get('/people/search', { limit: '2', offset: '2' }), 200);
    expect(paged).toMatchObject({ total: 4, limit: 2, offset: 2, hasMore: false });
    expect(peopleNames(paged)).toEqual(['Sam', 'John']);
  });

  test('a repeated parameter keeps each value whole, commas included', async () => {
    const at = (query: string) => call(`${stack.url}/api/v1/people/search?${query}`, { token: apiKey });
    const repeated = expectStatus(await at('customTitles=Marketing%2C%20Growth&customTitles=Data%20Engineer'), 200);
    expect(peopleNames(repeated)).toEqual(['Sam']);
    const split = expectStatus(await at('customTitles=Marketing%2C%20Growth'), 200);
    expect(peopleNames(split)).toEqual(['Greta']);
  });

  test('unknown personas are 400 INVALID_REQUEST', async () => {
    const answer = await api.get('/people/search', { jobTitles: 'Wizard' });
    expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  });
});
