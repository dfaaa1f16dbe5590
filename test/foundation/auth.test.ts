import { startStack, type Stack, TEST_ADMIN_TOKEN } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  account = await createAccount(stack, { credits: 10 });
});
afterAll(() => stack.stop());

const balance = (token?: string, headers?: Record<string, string>) =>
  call(`${stack.url}/api/v1/credits/balance`, { token, headers });

describe('API key authentication', () => {
  test('a valid key reads its own account', async () => {
    const answer = await balance(account.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ balance: 10 });
  });

  test('no Authorization header is 401 UNAUTHORIZED', async () => {
    const answer = await balance();
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('UNAUTHORIZED');
    expect(typeof answer.body.error.message).toBe('string');
  });

  test('a malformed header is 401 UNAUTHORIZED', async () => {
    for (const header of ['Basic abc', 'Bearer', `Token ${account.apiKey}`, 'Bearer not-a-usr-key']) {
      const answer = await balance(undefined, { Authorization: header });
      expect({ header, status: answer.status, code: answer.body.error.code }).toEqual({
        header,
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
  });

  test('an unknown key is 401 INVALID_API_KEY saying invalid or revoked', async () => {
    const answer = await balance('USR_this-key-does-not-exist');
    expect(answer.status).toBe(401);
    expect(answer.body.error).toEqual({
      code: 'INVALID_API_KEY',
      message: expect.stringMatching(/invalid or revoked/),
    });
  });

  test('a revoked key is 401 INVALID_API_KEY from then on', async () => {
    const doomed = await createAccount(stack);
    expect((await balance(doomed.apiKey)).status).toBe(200);
    const revoked = await call(`${stack.url}/admin/v1/api-keys/${doomed.keyId}`, {
      method: 'DELETE',
      token: TEST_ADMIN_TOKEN,
    });
    expect(revoked.status).toBe(204);
    // Authenticated keys are cached for at most two seconds.
    await new Promise((r) => setTimeout(r, 2100));
    const answer = await balance(doomed.apiKey);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_API_KEY');
  });

  test('a key lacking the permission is 403 FORBIDDEN', async () => {
    const writer = await createAccount(stack, { permissions: ['write'] });
    const answer = await balance(writer.apiKey);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('FORBIDDEN');
    expect(answer.body.error.message).toMatch(/read/);
  });

  test('keys are stored as hashes, never as themselves', async () => {
    const rows = await stack.db.query(
      `SELECT key_hash, key_prefix, webhook_secret_encrypted FROM api_keys WHERE id = $1`,
      [account.keyId],
    );
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(account.apiKey);
    expect(stored).not.toContain(account.webhookSecret);
    expect(account.apiKey.startsWith('USR_')).toBe(true);
  });
});

describe('operator token', () => {
  test('the operator API refuses a wrong or missing token', async () => {
    const missing = await call(`${stack.url}/admin/v1/accounts`, { body: { name: 'x' } });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    const wrong = await call(`${stack.url}/admin/v1/accounts`, { token: 'wrong-token', body: { name: 'x' } });
    expect(wrong.status).toBe(401);
    const count = await stack.db.query(`SELECT count(*)::int AS n FROM accounts WHERE name = 'x'`);
    expect(count[0].n).toBe(0);
  });

  test('an API key is not an operator token', async () => {
    const answer = await call(`${stack.url}/admin/v1/accounts`, { token: account.apiKey, body: { name: 'y' } });
    expect(answer.status).toBe(401);
  });
});
