import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../src/logger';
import { errorEnvelope } from '../../api/middleware/errors';
import { requestLog } from '../../api/middleware/request-log';
import type { AppState } from '../../api/context';
import { startStack, type Stack, TEST_ADMIN_TOKEN } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  account = await createAccount(stack, { credits: 5 });
});
afterAll(() => stack.stop());

const accountsCount = async () => (await stack.db.query(`SELECT count(*)::int AS n FROM accounts`))[0].n;

describe('error envelope', () => {
  test('malformed JSON is 400 INVALID_REQUEST and changes nothing', async () => {
    const before = await accountsCount();
    const answer = await call(`${stack.url}/admin/v1/accounts`, { token: TEST_ADMIN_TOKEN, rawBody: '{"name": "x",' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_REQUEST');
    expect(await accountsCount()).toBe(before);
  });

  test('a schema failure is 422 VALIDATION_ERROR with details per field', async () => {
    const before = await accountsCount();
    const answer = await call(`${stack.url}/admin/v1/accounts`, {
      token: TEST_ADMIN_TOKEN,
      body: { name: '', credits: 0.3, extra: 1 },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    const fields = answer.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['credits', 'extra', 'name']);
    for (const detail of answer.body.error.details) expect(typeof detail.message).toBe('string');
    expect(answer.body.error.message).toContain('extra');
    expect(await accountsCount()).toBe(before);
  });

  test('a bad query parameter is 400 INVALID_REQUEST', async () => {
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'from=yesterday', 'signalId=abc']) {
      const answer = await call(`${stack.url}/api/v1/credits/usage?${query}`, { token: account.apiKey });
      expect({ query, status: answer.status, code: answer.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_REQUEST',
      });
    }
  });

  test('an unknown route is 404 NOT_FOUND in the envelope', async () => {
    const answer = await call(`${stack.url}/api/v1/no-such-thing`, { token: account.apiKey });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });

  test('an unknown resource is 404 NOT_FOUND', async () => {
    const missing = await call(`${stack.url}/admin/v1/accounts/00000000-0000-4000-8000-000000000000/credits`, {
      token: TEST_ADMIN_TOKEN,
      body: { amount: 1 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const malformed = await call(`${stack.url}/admin/v1/accounts/not-a-uuid/credits`, {
      token: TEST_ADMIN_TOKEN,
      body: { amount: 1 },
    });
    expect(malformed.status).toBe(404);
  });

  test('every answer carries a request id', async () => {
    const answer = await call(`${stack.url}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unexpected failures', () => {
  test('a crash is 500 INTERNAL_ERROR naming the request id and leaking nothing', async () => {
    const lines: string[] = [];
    const logger = createLogger('error', 'test', { write: (line: string) => void lines.push(line) });
    const app = new Koa<AppState>();
    app.use(requestLog(logger));
    app.use(errorEnvelope);
    app.use(() => {
      throw new Error('secret database password is hunter2');
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const answer = await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`);
      expect(answer.status).toBe(500);
      expect(answer.body.error.code).toBe('INTERNAL_ERROR');
      expect(answer.text).not.toContain('hunter2');
      const requestId = answer.headers.get('x-request-id') as string;
      expect(answer.body.error.message).toContain(requestId);
      expect(lines.join('\n')).toContain('hunter2');
    } finally {
      server.close();
    }
  });
});
