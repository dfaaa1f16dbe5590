import type { Client as Assistant } from '@modelcontextprotocol/sdk/client/index.js';
import { startStack, type Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { client, company, expectStatus, ingest, person, waitFor, type Client as RestClient } from '../leads/fixtures';
import { connectAssistant, toolError, toolOk } from './helpers';

/**
 * The enrichment and search tools against the REST twins, on a store ingested here: same
 * answers, same prices (charged only when found), same permission (`enrich` for lookups).
 */
let stack: Stack;

const acme = company('mcpx-acme', { employeeCount: 120 });
const jane = person('mcpx-jane', acme.id, {
  firstName: 'Jane',
  lastName: 'Mcpx',
  title: 'CTO',
  email: 'jane@mcpx-acme.com',
});
const quiet = person('mcpx-quiet', acme.id, {
  firstName: 'Quinn',
  lastName: 'Mcpx',
  title: 'VP Sales',
  email: null,
  phone: null,
});

beforeAll(async () => {
  stack = await startStack({
    env: { RATE_LIMIT_PER_SECOND: '100000', ENRICHMENT_LIVE_LATENCY_MS: '50', SIGNAL_EVALUATION_INTERVAL: '1h' },
  });
  await ingest(stack, [acme, jane, quiet]);
});
afterAll(() => stack?.stop());

interface Buyer {
  account: TestAccount;
  rest: RestClient;
  assistant: Assistant;
  balance(): Promise<number>;
  usage(): Promise<{ operation: string; credits: number }[]>;
}

const open: Assistant[] = [];
afterAll(() => Promise.all(open.map((a) => a.close())));

/** A fresh account per test, so each test's credit arithmetic is its own. */
async function buyer(credits = 100, permissions?: string[]): Promise<Buyer> {
  const account = await createAccount(stack, { credits, permissions });
  const rest = client(stack, account);
  const assistant = await connectAssistant(stack, account.apiKey);
  open.push(assistant);
  return {
    account,
    rest,
    assistant,
    balance: async () => expectStatus(await rest.get('/credits/balance'), 200).balance,
    usage: async () =>
      expectStatus(await rest.get('/credits/usage?limit=100'), 200).items.filter(
        (i: { operation: string }) => i.operation !== 'grant',
      ),
  };
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

test('enrich_contact answers what REST answers and costs 1 credit when found, nothing when not', async () => {
  const b = await buyer();
  const byUrl = { linkedinUrl: jane.linkedinUrl! };
  const found = await toolOk(b.assistant, 'enrich_contact', byUrl);
  expect(found).toMatchObject({
    found: true,
    contact: { first_name: 'Jane', last_name: 'Mcpx', email: 'jane@mcpx-acme.com' },
    company: { name: acme.name },
  });
  expect(await b.balance()).toBe(99);
  expect(expectStatus(await b.rest.get(`/enrichment/contact?${qs(byUrl)}`), 200)).toEqual(found);
  expect(await b.balance()).toBe(98);

  const live = await toolOk(b.assistant, 'enrich_contact', { email: 'jane@mcpx-acme.com', freshness: 'live' });
  expect(live).toEqual(found);
  expect(await b.balance()).toBe(97);

  const nobody = await toolOk(b.assistant, 'enrich_contact', {
    linkedinUrl: 'https://www.linkedin.com/in/nobody-mcpx',
  });
  expect(nobody).toEqual({ found: false, contact: null, company: null });
  expect(await b.balance()).toBe(97);
  expect((await b.usage()).map((u) => `${u.operation}:${u.credits}`)).toEqual(Array(3).fill('enrichment_contact:-1'));
});

test("enrich_contact's input problems answer the REST envelope (INVALID_REQUEST with details)", async () => {
  const b = await buyer();
  const error = await toolError(b.assistant, 'enrich_contact', { firstName: 'Jane' }, 'INVALID_REQUEST');
  const rest = expectStatus(await b.rest.get('/enrichment/contact?firstName=Jane'), 400).error;
  expect(error).toEqual(rest);
  expect(await b.balance()).toBe(100);
});

test('enrich_company answers what REST answers and costs 0.5 credit when found', async () => {
  const b = await buyer();
  const found = await toolOk(b.assistant, 'enrich_company', { domain: acme.domain! });
  expect(found).toMatchObject({
    found: true,
    company: { name: acme.name, website: expect.stringContaining(acme.domain!), employee_count: 120 },
  });
  expect(expectStatus(await b.rest.get(`/enrichment/firmographic?${qs({ domain: acme.domain! })}`), 200)).toEqual(
    found,
  );
  expect(await toolOk(b.assistant, 'enrich_company', { domain: 'no-such-company-mcpx.com' })).toEqual({
    found: false,
    company: null,
  });
  expect(await b.balance()).toBe(99);
  expect((await b.usage()).map((u) => `${u.operation}:${u.credits}`)).toEqual(
    Array(2).fill('enrichment_firmographic:-0.5'),
  );
});

test('find_email answers what REST answers and costs 0.5 credit when found', async () => {
  const b = await buyer();
  const query = { firstName: 'Jane', lastName: 'Mcpx', domain: acme.domain! };
  const found = await toolOk(b.assistant, 'find_email', query);
  expect(found).toEqual({ found: true, email: 'jane@mcpx-acme.com' });
  expect(expectStatus(await b.rest.get(`/enrichment/email?${qs(query)}`), 200)).toEqual(found);
  expect(
    await toolOk(b.assistant, 'find_email', { firstName: 'Quinn', lastName: 'Mcpx', domain: acme.domain! }),
  ).toEqual({ found: false, email: null });
  expect(await b.balance()).toBe(99);
});

test('start_phone_lookup then get_phone_lookup_result: the phone, 5 credits, as REST reads it', async () => {
  const b = await buyer();
  const started = await toolOk(b.assistant, 'start_phone_lookup', { linkedinUrl: jane.linkedinUrl! });
  expect(started).toEqual({ lookupId: expect.any(String) });
  const result = await waitFor(
    'the phone lookup to complete',
    () => toolOk(b.assistant, 'get_phone_lookup_result', { lookupId: started.lookupId }),
    (r) => r.status !== 'pending',
  );
  expect(result).toEqual({ status: 'completed', found: true, phone: jane.phone });
  expect(expectStatus(await b.rest.get(`/enrichment/phone/${started.lookupId}`), 200)).toEqual(result);
  expect(await b.balance()).toBe(95);

  const none = await toolOk(b.assistant, 'start_phone_lookup', { linkedinUrl: quiet.linkedinUrl! });
  const noPhone = await waitFor(
    'the second phone lookup to complete',
    () => toolOk(b.assistant, 'get_phone_lookup_result', { lookupId: none.lookupId }),
    (r) => r.status !== 'pending',
  );
  expect(noPhone).toEqual({ status: 'completed', found: false });
  expect(await b.balance()).toBe(95);

  // Another account's lookup is unknown to this one.
  const stranger = await buyer();
  await toolError(stranger.assistant, 'get_phone_lookup_result', { lookupId: started.lookupId }, 'NOT_FOUND');
});

test('search_companies and search_people answer what REST answers, free of charge', async () => {
  const b = await buyer();
  const companies = await toolOk(b.assistant, 'search_companies', {
    q: 'mcpx',
    companySizeFilters: ['51-200'],
    locations: ['Texas'],
  });
  expect(companies).toEqual(
    expectStatus(
      await b.rest.get(`/companies/search?${qs({ q: 'mcpx', companySizeFilters: '51-200', locations: 'Texas' })}`),
      200,
    ),
  );
  expect(companies.items.map((c: { name: string }) => c.name)).toEqual([acme.name]);

  const people = await toolOk(b.assistant, 'search_people', { q: 'mcpx', jobTitles: ['Chief Technology Officer'] });
  expect(people).toEqual(
    expectStatus(await b.rest.get(`/people/search?${qs({ q: 'mcpx', jobTitles: 'Chief Technology Officer' })}`), 200),
  );
  expect(people.items.map((p: { contact: { first_name: string } }) => p.contact.first_name)).toEqual(['Jane']);
  expect(people.items[0].contact.email).toBe('');

  const all = await toolOk(b.assistant, 'search_people', { q: 'mcpx', limit: 1 });
  expect(all).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
  expect(await b.balance()).toBe(100);
});

test('lookups need the enrich permission, like their REST twins; searches only read', async () => {
  const reader = await buyer(100, ['read']);
  for (const [name, args] of [
    ['enrich_contact', { linkedinUrl: jane.linkedinUrl! }],
    ['enrich_company', { domain: acme.domain! }],
    ['find_email', { firstName: 'Jane', lastName: 'Mcpx', domain: acme.domain! }],
    ['start_phone_lookup', { linkedinUrl: jane.linkedinUrl! }],
  ] as const) {
    expect((await toolError(reader.assistant, name, args, 'FORBIDDEN')).message).toContain('"enrich"');
  }
  expect(
    expectStatus(await reader.rest.get(`/enrichment/contact?${qs({ linkedinUrl: jane.linkedinUrl! })}`), 403).error
      .code,
  ).toBe('FORBIDDEN');
  expect((await toolOk(reader.assistant, 'search_companies', { q: 'mcpx' })).total).toBe(1);
  expect(await reader.balance()).toBe(100);
});

test('a balance below the price is INSUFFICIENT_CREDITS before any lookup', async () => {
  const poor = await buyer(0.5);
  await toolError(poor.assistant, 'enrich_contact', { linkedinUrl: jane.linkedinUrl! }, 'INSUFFICIENT_CREDITS');
  await toolError(poor.assistant, 'start_phone_lookup', { linkedinUrl: jane.linkedinUrl! }, 'INSUFFICIENT_CREDITS');
  expect(
    await toolOk(poor.assistant, 'find_email', { firstName: 'Jane', lastName: 'Mcpx', domain: acme.domain! }),
  ).toEqual({
    found: true,
    email: 'jane@mcpx-acme.com',
  });
  expect(await poor.balance()).toBe(0);
});
