import { startStack, type Stack, TEST_ADMIN_TOKEN } from '../setup/stack';
import { call, createAccount } from '../setup/http';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(() => stack.stop());

const admin = (path: string, body?: unknown, method?: string) =>
  call(`${stack.url}/admin/v1${path}`, { token: TEST_ADMIN_TOKEN, body, method });

describe('operator API', () => {
  test('accounts get credits in steps of 0.5, recorded in the ledger', async () => {
    const created = await admin('/accounts', { name: 'Acme', credits: 10 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Acme', creditBalance: 10 });

    const added = await admin(`/accounts/${created.body.id}/credits`, { amount: 2.5 });
    expect(added.body).toEqual({ creditBalance: 12.5 });
    const refused = await admin(`/accounts/${created.body.id}/credits`, { amount: 0.3 });
    expect(refused.status).toBe(422);
    const negative = await admin(`/accounts/${created.body.id}/credits`, { amount: -5 });
    expect(negative.status).toBe(422);

    const ledger = await stack.db.query(
      `SELECT credits, operation FROM credit_ledger WHERE account_id = $1 ORDER BY created_at`,
      [created.body.id],
    );
    expect(ledger.map((r: { credits: string }) => Number(r.credits))).toEqual([10, 2.5]);
    expect(ledger.every((r: { operation: string }) => r.operation === 'grant')).toBe(true);
  });

  test('an account may start with no credits: credits 0 or absent', async () => {
    const zero = await admin('/accounts', { name: 'Empty', credits: 0 });
    expect({ status: zero.status, body: zero.body }).toEqual({
      status: 201,
      body: { id: expect.any(String), name: 'Empty', creditBalance: 0 },
    });
    const absent = await admin('/accounts', { name: 'Also empty' });
    expect({ status: absent.status, body: absent.body }).toEqual({
      status: 201,
      body: { id: expect.any(String), name: 'Also empty', creditBalance: 0 },
    });
    const ledger = await stack.db.query(`SELECT 1 FROM credit_ledger WHERE account_id = ANY($1::uuid[])`, [
      [zero.body.id, absent.body.id],
    ]);
    expect(ledger).toHaveLength(0);
    for (const credits of [-1, 0.3]) expect((await admin('/accounts', { name: 'Bad', credits })).status).toBe(422);
  });

  test('API keys default to every permission and can be narrowed', async () => {
    const account = await admin('/accounts', { name: 'Keys' });
    const all = await admin(`/accounts/${account.body.id}/api-keys`, {});
    expect(all.status).toBe(201);
    expect(all.body.permissions.sort()).toEqual(['enrich', 'read', 'write']);
    expect(all.body.apiKey).toMatch(/^USR_/);
    expect(all.body.webhookSecret.length).toBeGreaterThan(30);
    const narrow = await admin(`/accounts/${account.body.id}/api-keys`, { name: 'reader', permissions: ['read'] });
    expect(narrow.body.permissions).toEqual(['read']);
    const bad = await admin(`/accounts/${account.body.id}/api-keys`, { permissions: ['admin'] });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('permissions.0');
  });

  test('regenerating the webhook secret replaces the one that signs', async () => {
    const account = await createAccount(stack);
    expect(await stack.services.apiKeys.webhookSecret(account.keyId)).toBe(account.webhookSecret);
    const rotated = await admin(`/api-keys/${account.keyId}/webhook-secret`, undefined, 'POST');
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookSecret).not.toBe(account.webhookSecret);
    expect(await stack.services.apiKeys.webhookSecret(account.keyId)).toBe(rotated.body.webhookSecret);
  });

  test('a CRM connection is recorded with its token sealed at rest', async () => {
    const account = await createAccount(stack);
    const recorded = await admin(`/accounts/${account.accountId}/crm-connections`, {
      provider: 'hubspot',
      accessToken: 'pat-na1-secret-token',
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ provider: 'hubspot', connected: true });
    const rows = await stack.db.query(`SELECT * FROM crm_connections WHERE account_id = $1`, [account.accountId]);
    expect(JSON.stringify(rows)).not.toContain('pat-na1-secret-token');
    expect((await stack.services.crmConnections.accessFor(account.accountId, 'hubspot', null)).accessToken).toBe(
      'pat-na1-secret-token',
    );
    const unknown = await admin(`/accounts/${account.accountId}/crm-connections`, {
      provider: 'myspace',
      accessToken: 'x',
    });
    expect(unknown.status).toBe(422);
  });
});
