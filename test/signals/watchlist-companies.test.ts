import type { Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  startSignalsStack,
  client,
  expectError,
  expectStatus,
  jobChangesBody,
  UNKNOWN_ID,
  watchlistBody,
  type Client,
} from './helpers';

let stack: Stack;
let apiKey: string;
let api: Client;
let otherApi: Client;

beforeAll(async () => {
  stack = await startSignalsStack();
  apiKey = (await createAccount(stack, { credits: 100 })).apiKey;
  api = client(stack, apiKey);
  otherApi = client(stack, (await createAccount(stack, { credits: 100 })).apiKey);
});
afterAll(() => stack.stop());

const newWatchlist = async (companies: unknown[] = []) =>
  expectStatus(await api.post('/signals/account-watchlist', watchlistBody({ config: { companies } })), 201);
const companiesPath = (signalId: string) => `/watchlists/${signalId}/companies`;
const listAll = async (signalId: string) => expectStatus(await api.get(`${companiesPath(signalId)}?limit=100`), 200);
const identities = (page: { items: { name: string | null; domain: string | null; linkedinUrl: string | null }[] }) =>
  page.items.map((i) => i.linkedinUrl ?? i.domain ?? i.name).sort();

describe('GET /api/v1/watchlists/{signalId}/companies', () => {
  test('pages the watched entries with id, name, domain, linkedinUrl and addedAt', async () => {
    const signal = await newWatchlist([
      'acme.com',
      'Initech',
      { name: 'Globex', domain: 'globex.com' },
      'https://linkedin.com/company/hooli',
    ]);
    const all = await listAll(signal.id);
    expect(all).toMatchObject({ total: 4, limit: 100, offset: 0, hasMore: false });
    for (const item of all.items) {
      expect(item).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: item.name === null ? null : expect.any(String),
        domain: item.domain === null ? null : expect.any(String),
        linkedinUrl: item.linkedinUrl === null ? null : expect.any(String),
        addedAt: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(item.addedAt))).toBe(false);
    }
    expect(all.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: null, domain: 'acme.com', linkedinUrl: null }),
        expect.objectContaining({ name: 'Initech', domain: null, linkedinUrl: null }),
        expect.objectContaining({ name: 'Globex', domain: 'globex.com', linkedinUrl: null }),
        expect.objectContaining({ name: null, domain: null, linkedinUrl: 'https://www.linkedin.com/company/hooli' }),
      ]),
    );

    const first = expectStatus(await api.get(`${companiesPath(signal.id)}?limit=3`), 200);
    expect(first).toMatchObject({ total: 4, limit: 3, offset: 0, hasMore: true });
    expect(first.items).toHaveLength(3);
    const rest = expectStatus(await api.get(`${companiesPath(signal.id)}?limit=3&offset=3`), 200);
    expect(rest).toMatchObject({ total: 4, limit: 3, offset: 3, hasMore: false });
    expect(rest.items).toHaveLength(1);
    const pagedIds = [...first.items, ...rest.items].map((i: { id: string }) => i.id).sort();
    expect(pagedIds).toEqual(all.items.map((i: { id: string }) => i.id).sort());

    const defaults = expectStatus(await api.get(companiesPath(signal.id)), 200);
    expect(defaults).toMatchObject({ limit: 25, offset: 0, total: 4 });
    for (const query of ['limit=0', 'limit=101', 'offset=-1']) {
      expectError(await api.get(`${companiesPath(signal.id)}?${query}`), 400, 'INVALID_REQUEST');
    }
  });
});

describe('POST /api/v1/watchlists/{signalId}/companies', () => {
  test('adds a mixed list and answers watched, rejected and alreadyWatched', async () => {
    const signal = await newWatchlist(['acme.com', 'Initech']);
    const companies = [
      'globex.com', // new domain
      'https://www.acme.com/pricing', // a website of a watched domain: already watched
      'INITECH', // a watched name in other case: already watched
      'https://www.linkedin.com/company/umbrella', // new company page
      'https://www.linkedin.com/in/jane-doe', // a personal profile: watched
      'https://www.linkedin.com/jobs/view/42', // a jobs page: rejected
      'https://www.linkedin.com/posts/someone_activity-1', // a post: rejected
      { name: 'Hooli', domain: 'hooli.xyz' }, // new
      { name: 'Hooli Again', domain: 'www.hooli.xyz' }, // same domain within this upload: already watched
      { domain: '' }, // neither name nor domain: rejected
      'globex.com', // duplicate within this upload: already watched
    ];
    const result = expectStatus(await api.post(companiesPath(signal.id), { companies }), 200);
    expect(result).toEqual({ watched: 4, rejected: 3, alreadyWatched: 4 });
    expect(result.watched + result.rejected + result.alreadyWatched).toBe(companies.length);
    const page = await listAll(signal.id);
    expect(page.total).toBe(6);
    expect(identities(page)).toEqual(
      [
        'acme.com',
        'Initech',
        'globex.com',
        'https://www.linkedin.com/company/umbrella',
        'https://www.linkedin.com/in/jane-doe',
        'hooli.xyz',
      ].sort(),
    );

    // The same upload again changes nothing.
    const again = expectStatus(await api.post(companiesPath(signal.id), { companies }), 200);
    expect(again).toEqual({ watched: 0, rejected: 3, alreadyWatched: 8 });
    expect((await listAll(signal.id)).total).toBe(6);
  });

  test('a name shared by two companies is told apart only by their company pages', async () => {
    const signal = await newWatchlist(['https://www.linkedin.com/company/mercury-bank']);
    const result = expectStatus(
      await api.post(companiesPath(signal.id), {
        companies: [
          'https://www.linkedin.com/company/mercury-systems',
          { name: 'Mercury', linkedinUrl: 'https://linkedin.com/company/mercury-bank/' },
        ],
      }),
      200,
    );
    expect(result).toEqual({ watched: 1, rejected: 0, alreadyWatched: 1 });
  });

  test('an empty list or a malformed entry is 422 and adds nothing', async () => {
    const signal = await newWatchlist(['acme.com']);
    expectError(await api.post(companiesPath(signal.id), { companies: [] }), 422, 'VALIDATION_ERROR');
    expectError(await api.post(companiesPath(signal.id), {}), 422, 'VALIDATION_ERROR');
    expectError(await api.post(companiesPath(signal.id), { companies: ['globex.com', 42] }), 422, 'VALIDATION_ERROR');
    expectError(
      await api.post(companiesPath(signal.id), { companies: [{ name: 'Globex', ticker: 'GBX' }] }),
      422,
      'VALIDATION_ERROR',
    );
    expect((await listAll(signal.id)).total).toBe(1);
  });

  test('adding the first company makes an empty watchlist activatable', async () => {
    const signal = await newWatchlist();
    expectError(await api.post(`/signals/${signal.id}/resume`), 400, 'MISSING_REQUIRED_FIELDS');
    expect(expectStatus(await api.post(companiesPath(signal.id), { companies: ['acme.com'] }), 200).watched).toBe(1);
    expect(expectStatus(await api.post(`/signals/${signal.id}/resume`), 200).status).toBe('active');
  });
});

describe('DELETE /api/v1/watchlists/{signalId}/companies', () => {
  test('removes by ids and by the same identifiers an upload uses, answering {removed}', async () => {
    const signal = await newWatchlist([
      'acme.com',
      'Initech',
      'globex.com',
      'https://www.linkedin.com/company/umbrella',
      { name: 'Hooli', domain: 'hooli.xyz' },
    ]);
    const before = await listAll(signal.id);
    const acme = before.items.find((i: { domain: string | null }) => i.domain === 'acme.com');

    const byId = expectStatus(await api.delete(companiesPath(signal.id), { ids: [acme.id] }), 200);
    expect(byId).toEqual({ removed: 1 });
    expect(identities(await listAll(signal.id))).not.toContain('acme.com');

    const byCompanies = expectStatus(
      await api.delete(companiesPath(signal.id), {
        companies: ['initech', 'https://www.globex.com', 'linkedin.com/company/umbrella', 'never-watched.com'],
      }),
      200,
    );
    expect(byCompanies).toEqual({ removed: 3 });
    expect(identities(await listAll(signal.id))).toEqual(['hooli.xyz']);

    const both = expectStatus(
      await api.delete(companiesPath(signal.id), { ids: [UNKNOWN_ID], companies: ['hooli.xyz'] }),
      200,
    );
    expect(both).toEqual({ removed: 1 });
    expect((await listAll(signal.id)).total).toBe(0);
  });

  test('a body with nothing to remove is 422', async () => {
    const signal = await newWatchlist(['acme.com']);
    expectError(await api.delete(companiesPath(signal.id), {}), 422, 'VALIDATION_ERROR');
    expectError(await api.delete(companiesPath(signal.id), { ids: [] }), 422, 'VALIDATION_ERROR');
    expectError(await api.delete(companiesPath(signal.id), { ids: ['not-a-uuid'] }), 422, 'VALIDATION_ERROR');
    const malformed = await call(`${stack.url}/api/v1${companiesPath(signal.id)}`, {
      method: 'DELETE',
      token: apiKey,
      rawBody: '{"ids": [',
    });
    expectError(malformed, 400, 'INVALID_REQUEST');
    expect((await listAll(signal.id)).total).toBe(1);
  });
});

describe('which signals have a watchlist', () => {
  test("a job-changes signal, another account's watchlist, an unknown and a malformed id are 404 on every method", async () => {
    const jobChanges = expectStatus(await api.post('/signals/job-changes', jobChangesBody()), 201);
    const foreign = expectStatus(
      await otherApi.post('/signals/account-watchlist', watchlistBody({ config: { companies: ['acme.com'] } })),
      201,
    );
    for (const id of [jobChanges.id, foreign.id, UNKNOWN_ID, 'not-a-uuid']) {
      expectError(await api.get(companiesPath(id)), 404, 'NOT_FOUND');
      expectError(await api.post(companiesPath(id), { companies: ['globex.com'] }), 404, 'NOT_FOUND');
      expectError(await api.delete(companiesPath(id), { companies: ['acme.com'] }), 404, 'NOT_FOUND');
    }
    const untouched = expectStatus(await otherApi.get(`${companiesPath(foreign.id)}?limit=100`), 200);
    expect(untouched.total).toBe(1);
    expect(untouched.items[0].domain).toBe('acme.com');
  });
});
