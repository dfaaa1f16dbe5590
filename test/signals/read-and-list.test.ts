import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import {
  startSignalsStack,
  addKey,
  client,
  expectError,
  expectStatus,
  jobChangesBody,
  UNKNOWN_ID,
  watchlistBody,
  type Client,
} from './helpers';

let stack: Stack;
let account: TestAccount;
let api: Client;
let secondKey: Client;
let otherAccount: Client;
/** Created oldest first: two job-changes drafts and one active by the first key, one paused and one watchlist by the second. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  stack = await startSignalsStack();
  account = await createAccount(stack, { credits: 100 });
  api = client(stack, account.apiKey);
  secondKey = client(stack, await addKey(stack, account));
  otherAccount = client(stack, (await createAccount(stack, { credits: 100 })).apiKey);

  const make = async (key: Client, label: string, path: string, body: Record<string, unknown>) => {
    ids[label] = expectStatus(await key.post(path, { ...body, name: label }), 201).id;
  };
  await make(api, 'draft-1', '/signals/job-changes', jobChangesBody());
  await make(api, 'draft-2', '/signals/job-changes', jobChangesBody());
  await make(api, 'active-1', '/signals/job-changes', jobChangesBody({ status: 'active' }));
  await make(secondKey, 'paused-1', '/signals/job-changes', jobChangesBody({ status: 'paused' }));
  await make(
    secondKey,
    'watchlist-1',
    '/signals/account-watchlist',
    watchlistBody({ config: { companies: ['acme.com', 'Globex'] } }),
  );
  await make(otherAccount, 'foreign', '/signals/job-changes', jobChangesBody());
});
afterAll(() => stack.stop());

const names = (page: { signals: { name: string }[] }) => page.signals.map((s) => s.name);

describe('GET /api/v1/signals/{id}', () => {
  test('answers the signal as creation did, with applied and warnings', async () => {
    const signal = expectStatus(await api.get(`/signals/${ids['active-1']}`), 200);
    expect(signal).toMatchObject({
      id: ids['active-1'],
      name: 'active-1',
      status: 'active',
      signalTypeId: 'job_changes',
      applied: {},
      warnings: [],
    });
    expect(signal).not.toHaveProperty('watchlist');
  });

  test("another account's signal, an unknown id and a malformed id are all 404 NOT_FOUND", async () => {
    expectError(await api.get(`/signals/${ids.foreign}`), 404, 'NOT_FOUND');
    expectError(await otherAccount.get(`/signals/${ids['draft-1']}`), 404, 'NOT_FOUND');
    expectError(await api.get(`/signals/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
    for (const malformed of ['not-a-uuid', '123', `${ids['draft-1']}x`])
      expectError(await api.get(`/signals/${malformed}`), 404, 'NOT_FOUND');
    // The owner still sees it.
    expect(expectStatus(await otherAccount.get(`/signals/${ids.foreign}`), 200).name).toBe('foreign');
  });
});

describe('GET /api/v1/signals', () => {
  test("answers the account's signals, newest first, in the page envelope with the default limit", async () => {
    const page = expectStatus(await api.get('/signals'), 200);
    expect(Object.keys(page).sort()).toEqual(['hasMore', 'limit', 'offset', 'signals', 'total']);
    expect(page).toMatchObject({ total: 5, limit: 25, offset: 0, hasMore: false });
    expect(names(page)).toEqual(['watchlist-1', 'paused-1', 'active-1', 'draft-2', 'draft-1']);
    for (const signal of page.signals) {
      expect(signal).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          status: expect.any(String),
          signalTypeId: expect.any(String),
          leadsToday: 0,
          leadsTotal: 0,
          dailyLeadLimit: 100,
          applied: {},
          warnings: [],
        }),
      );
      expect(signal).not.toHaveProperty('watchlist');
    }
  });

  test('never echoes watched companies in any config', async () => {
    const page = expectStatus(await api.get('/signals?signalTypeId=account_watchlist'), 200);
    expect(page.signals).toHaveLength(1);
    expect(page.signals[0].config).not.toHaveProperty('companies');
    expect(page.signals[0].config.firstRunLookbackDays).toBe(180);
  });

  test('filters by status', async () => {
    expect(names(expectStatus(await api.get('/signals?status=draft'), 200))).toEqual([
      'watchlist-1',
      'draft-2',
      'draft-1',
    ]);
    const active = expectStatus(await api.get('/signals?status=active'), 200);
    expect(names(active)).toEqual(['active-1']);
    expect(active.total).toBe(1);
    expect(names(expectStatus(await api.get('/signals?status=paused'), 200))).toEqual(['paused-1']);
  });

  test('filters by signal type', async () => {
    const jobChanges = expectStatus(await api.get('/signals?signalTypeId=job_changes'), 200);
    expect(names(jobChanges)).toEqual(['paused-1', 'active-1', 'draft-2', 'draft-1']);
    expect(jobChanges.total).toBe(4);
    expect(names(expectStatus(await api.get('/signals?signalTypeId=account_watchlist'), 200))).toEqual(['watchlist-1']);
  });

  test('createdByThisKey keeps the signals the calling key created', async () => {
    expect(names(expectStatus(await api.get('/signals?createdByThisKey=true'), 200))).toEqual([
      'active-1',
      'draft-2',
      'draft-1',
    ]);
    expect(names(expectStatus(await secondKey.get('/signals?createdByThisKey=true'), 200))).toEqual([
      'watchlist-1',
      'paused-1',
    ]);
    // false (or absent) is the whole account, whichever key asks.
    expect(expectStatus(await secondKey.get('/signals?createdByThisKey=false'), 200).total).toBe(5);
    expect(expectStatus(await secondKey.get('/signals'), 200).total).toBe(5);
  });

  test('filters combine', async () => {
    const page = expectStatus(
      await secondKey.get('/signals?createdByThisKey=true&signalTypeId=job_changes&status=paused'),
      200,
    );
    expect(names(page)).toEqual(['paused-1']);
    expect(expectStatus(await api.get('/signals?createdByThisKey=true&status=paused'), 200).total).toBe(0);
  });

  test('pages with limit and offset; hasMore says whether more follow', async () => {
    const first = expectStatus(await api.get('/signals?limit=2'), 200);
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(names(first)).toEqual(['watchlist-1', 'paused-1']);
    const second = expectStatus(await api.get('/signals?limit=2&offset=2'), 200);
    expect(second).toMatchObject({ total: 5, limit: 2, offset: 2, hasMore: true });
    expect(names(second)).toEqual(['active-1', 'draft-2']);
    const last = expectStatus(await api.get('/signals?limit=2&offset=4'), 200);
    expect(last).toMatchObject({ total: 5, limit: 2, offset: 4, hasMore: false });
    expect(names(last)).toEqual(['draft-1']);
    const beyond = expectStatus(await api.get('/signals?limit=2&offset=10'), 200);
    expect(beyond).toMatchObject({ total: 5, signals: [], hasMore: false });
    expect(expectStatus(await api.get('/signals?limit=100'), 200).signals).toHaveLength(5);
    expect(expectStatus(await api.get('/signals?limit=1'), 200).signals).toHaveLength(1);
  });

  test('bad query parameters are 400 INVALID_REQUEST', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'status=deleted',
      'signalTypeId=funding',
      'createdByThisKey=yes',
    ]) {
      const answer = await api.get(`/signals?${query}`);
      expect({ query, status: answer.status, code: answer.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_REQUEST',
      });
    }
  });

  test('another account sees only its own signals', async () => {
    const page = expectStatus(await otherAccount.get('/signals'), 200);
    expect(names(page)).toEqual(['foreign']);
    expect(page.total).toBe(1);
  });
});

describe('permissions', () => {
  test('a read-only key can list and read but not create, change or delete (403 FORBIDDEN)', async () => {
    const readOnly = client(stack, await addKey(stack, account, ['read']));
    expect(expectStatus(await readOnly.get('/signals'), 200).total).toBe(5);
    expect(expectStatus(await readOnly.get(`/signals/${ids['draft-1']}`), 200).name).toBe('draft-1');
    expectError(await readOnly.post('/signals/job-changes', jobChangesBody()), 403, 'FORBIDDEN');
    expectError(await readOnly.post('/signals/account-watchlist', watchlistBody()), 403, 'FORBIDDEN');
    expectError(await readOnly.patch(`/signals/${ids['draft-1']}`, { name: 'renamed' }), 403, 'FORBIDDEN');
    expectError(await readOnly.post(`/signals/${ids['draft-1']}/pause`), 403, 'FORBIDDEN');
    expectError(await readOnly.delete(`/signals/${ids['draft-1']}`), 403, 'FORBIDDEN');
    expectError(
      await readOnly.post(`/watchlists/${ids['watchlist-1']}/companies`, { companies: ['hooli.xyz'] }),
      403,
      'FORBIDDEN',
    );
    expect(expectStatus(await api.get('/signals'), 200).total).toBe(5);
    expect(expectStatus(await api.get(`/signals/${ids['draft-1']}`), 200).name).toBe('draft-1');
  });

  test('a write-only key can create but not list or read (403 FORBIDDEN)', async () => {
    const writeOnly = client(stack, await addKey(stack, account, ['write']));
    expectError(await writeOnly.get('/signals'), 403, 'FORBIDDEN');
    expectError(await writeOnly.get(`/signals/${ids['draft-1']}`), 403, 'FORBIDDEN');
    expectError(await writeOnly.get(`/watchlists/${ids['watchlist-1']}/companies`), 403, 'FORBIDDEN');
    expectError(await writeOnly.get('/signal-types'), 403, 'FORBIDDEN');
    const created = expectStatus(
      await writeOnly.post('/signals/job-changes', jobChangesBody({ name: 'by write-only key' })),
      201,
    );
    expect(expectStatus(await api.get(`/signals/${created.id}`), 200).name).toBe('by write-only key');
    expect(expectStatus(await api.delete(`/signals/${created.id}`), 204)).toBeUndefined();
  });

  test('no key is 401', async () => {
    const anonymous = client(stack, '');
    expect((await anonymous.get('/signals')).status).toBe(401);
    expect((await anonymous.post('/signals/job-changes', jobChangesBody())).status).toBe(401);
  });
});
