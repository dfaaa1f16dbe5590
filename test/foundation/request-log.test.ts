import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { openDatabase } from '../../src/db/data-source';
import { createServices, type Services } from '../../src/services';
import { startApi, type RunningApi } from '../../api/server';
import { createTestDatabase } from '../setup/database';
import { TEST_ADMIN_TOKEN } from '../setup/stack';
import { call } from '../setup/http';

/** The whole API with its real services, its log written where the test can read every line. */
const lines: string[] = [];
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: DataSource;
let services: Services;
let api: RunningApi;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: randomBytes(32).toString('base64'),
  });
  db = await openDatabase(config.DATABASE_URL, 2);
  const logger = createLogger('info', 'test', { write: (line: string) => void lines.push(line) });
  services = createServices({ db, config, logger });
  api = await startApi(services, 0, '127.0.0.1');
});
afterAll(async () => {
  await api?.close();
  await db?.destroy();
  await database?.drop();
});

const requestLines = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');

test('an invite token never reaches the request log, in the path or in a query string', async () => {
  const account = await services.accounts.create('Invited', 0);
  const { token } = await services.members.createInvite(account.id);
  const before = lines.length;
  const page = await fetch(`${api.url}/invites/${token}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Join Invited');
  await fetch(`${api.url}/invites/${token}?next=%2F`, { method: 'POST' });
  await fetch(`${api.url}/sign-in?next=${encodeURIComponent(`/invites/${token}`)}&token=${token}`);
  await fetch(`${api.url}/invites/${token}/`);
  const written = lines.slice(before).join('\n');
  expect(written).not.toContain(token);
  const logged = requestLines().slice(-4);
  expect(logged.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
    ['GET', '/invites/[redacted]', 200],
    ['POST', '/invites/[redacted]', 403],
    ['GET', '/sign-in', 200],
    ['GET', '/invites/[redacted]/', expect.any(Number)],
  ]);
  // Other paths are logged as they are: the log still says what was asked for.
  await call(`${api.url}/api/v1/signal-types`);
  expect(requestLines().at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/signal-types' });
});
