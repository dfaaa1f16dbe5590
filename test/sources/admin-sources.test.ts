import { loadConfig } from '../../src/config';
import { PoliteFetch } from '../../src/sources/kit/polite-fetch';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startVendor, type VendorServer } from './vendors';

let stack: Stack;
let vendor: VendorServer;

beforeAll(async () => {
  vendor = await startVendor();
  stack = await startStack({
    worker: false,
    env: { SOURCES_HOST_MAP: `boards-api.greenhouse.io=${vendor.origin}`, SOURCES_HOST_INTERVAL_MS: '300' },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await stack.services.ingestion.ingest([{ kind: 'company', id: 'acme', name: 'Acme', domain: 'acme.com' }]);
});

afterAll(async () => {
  await stack?.stop();
  await vendor?.close();
});

const admin = (path: string, init: Parameters<typeof call>[1] = {}) =>
  call(`${stack.url}${path}`, { token: TEST_ADMIN_TOKEN, ...init });
const scheduleState = async () =>
  (await stack.temporal.schedule.getHandle(stack.services.sources.schedules.idOf('job-boards')).describe()).state;

test('the operator lists the sources with their schedule, and disabling pauses the schedule until enabled again', async () => {
  const listed = await admin('/admin/v1/sources');
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((source: { name: string }) => source.name)).toEqual(
    expect.arrayContaining(['job-boards', 'company-profiles', 'news', 'sec-form-d']),
  );
  const named = (name: string) => listed.body.data.find((source: { name: string }) => source.name === name);
  const jobBoards = named('job-boards');
  expect([jobBoards, named('news')]).toEqual([
    expect.objectContaining({
      name: 'job-boards',
      enabled: true,
      running: false,
      lastRunStartedAt: null,
      recordsIngested: 0,
      recordsDropped: 0,
      errors: 0,
      lastError: null,
    }),
    expect.objectContaining({ name: 'news', enabled: true, running: false, recordsIngested: 0, recordsDropped: 0 }),
  ]);
  const nextRunAt = Date.parse(jobBoards.nextRunAt);
  // Every 6 hours by default: the next run is within that.
  expect(nextRunAt).toBeGreaterThan(Date.now());
  expect(nextRunAt).toBeLessThanOrEqual(Date.now() + 6 * 3_600_000);

  const disabled = await admin('/admin/v1/sources/job-boards/disable', { method: 'POST' });
  expect(disabled.status).toBe(200);
  expect(disabled.body).toMatchObject({ name: 'job-boards', enabled: false, nextRunAt: null });
  expect((await scheduleState()).paused).toBe(true);

  const enabled = await admin('/admin/v1/sources/job-boards/enable', { method: 'POST' });
  expect(enabled.body).toMatchObject({ enabled: true });
  expect(enabled.body.nextRunAt).not.toBeNull();
  expect((await scheduleState()).paused).toBe(false);
});

test('bad requests get the error envelope and change nothing', async () => {
  expect((await call(`${stack.url}/admin/v1/sources`)).status).toBe(401);
  const unknown = await admin('/admin/v1/sources/no-such-source/run', { method: 'POST' });
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND' });

  const badPlatform = await admin('/admin/v1/companies/acme/job-board', {
    method: 'PUT',
    body: { ats: 'monster', token: 'acme' },
  });
  expect(badPlatform.status).toBe(422);
  expect(JSON.stringify(badPlatform.body.error)).toContain('greenhouse');
  const badToken = await admin('/admin/v1/companies/acme/job-board', {
    method: 'PUT',
    body: { ats: 'greenhouse', token: '../../admin' },
  });
  expect(badToken.status).toBe(422);
  const noCompany = await admin('/admin/v1/companies/nobody/job-board', {
    method: 'PUT',
    body: { ats: 'greenhouse', token: 'acme' },
  });
  expect(noCompany.status).toBe(404);
  expect(await stack.db.query(`SELECT * FROM company_job_boards`)).toEqual([]);
});

test('the list is wrapped in items, as every list of the public API, and still in data for earlier clients', async () => {
  const listed = await admin('/admin/v1/sources');
  expect(listed.status).toBe(200);
  expect(listed.body.items.map((source: { name: string }) => source.name)).toEqual(
    expect.arrayContaining(['job-boards', 'company-profiles', 'news', 'companies-house']),
  );
  expect(listed.body.data).toEqual(listed.body.items);
});

test('a quiet source says why it reads nothing, and what it reads once it has something (issue 38)', async () => {
  const detailOf = async (name: string) =>
    (await admin('/admin/v1/sources')).body.items.find((source: { name: string }) => source.name === name).detail;
  expect(await detailOf('job-boards')).toMatch(/^nothing to read: no job board is known \(PUT \/admin\/v1\/companies/);
  expect(await detailOf('news')).toMatch(/^nothing to read: no company has a feed .*company_news/);
  // Only Acme is stored: one site to read; a demo company is never read, and the line says so.
  expect(await detailOf('company-profiles')).toBe('reads the sites of 1 company with a domain');
  await stack.services.ingestion.ingest([
    { kind: 'company', id: 'demo-company-quiet', name: 'Demo Quiet', domain: 'demo-quiet.example' },
  ]);
  expect(await detailOf('company-profiles')).toBe(
    'reads the sites of 1 company with a domain; 1 demo company is skipped (made-up domains)',
  );

  expect(
    (await admin('/admin/v1/companies/acme/job-board', { method: 'PUT', body: { ats: 'greenhouse', token: 'quiet' } }))
      .status,
  ).toBe(200);
  expect(await detailOf('job-boards')).toMatch(/^polls 1 board, [01] due now$/);
  await stack.db.query(`DELETE FROM company_job_boards`);
});

test('running or backfilling a disabled or off source is refused with the reason, and starts nothing (issue 38)', async () => {
  const actions = async () =>
    (await stack.temporal.schedule.getHandle(stack.services.sources.schedules.idOf('job-boards')).describe()).info
      .numActionsTaken;
  expect((await admin('/admin/v1/sources/job-boards/disable', { method: 'POST' })).status).toBe(200);
  const before = await actions();
  for (const verb of ['run', 'backfill']) {
    const refused = await admin(`/admin/v1/sources/job-boards/${verb}`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'SOURCE_DISABLED' });
    expect(refused.body.error.message).toContain('enable it first');
  }
  expect(await actions()).toBe(before);
  expect((await admin('/admin/v1/sources/job-boards/enable', { method: 'POST' })).status).toBe(200);

  // No COMPANIES_HOUSE_API_KEY here: the source is off, and says why.
  const off = await admin('/admin/v1/sources/companies-house/run', { method: 'POST' });
  expect(off.status).toBe(409);
  expect(off.body.error).toEqual({
    code: 'SOURCE_OFF',
    message: 'The source "companies-house" is off: no API key (COMPANIES_HOUSE_API_KEY)',
  });
});

test('SOURCES_HOST_MAP keeps path and query; private targets are refused where webhooks refuse them', async () => {
  const fetcher = stack.services.politeFetch;
  expect(fetcher.targetOf('https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true').href).toBe(
    `${vendor.origin}/v1/boards/acme/jobs?content=true`,
  );
  expect(fetcher.targetOf('https://api.lever.co/v0/postings/acme?mode=json').href).toBe(
    'https://api.lever.co/v0/postings/acme?mode=json',
  );
  const guarded = new PoliteFetch(stack.db, { ...stack.config, WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
  const refused = await guarded.get('https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true');
  expect(refused).toMatchObject({ status: 'failed', statusCode: null });
  expect((refused as { error: string }).error).toMatch(/127\.0\.0\.1.*not allowed/);
  expect(vendor.requests).toEqual([]);
});

test('two fetchers (two workers) share one pace per host through PostgreSQL', async () => {
  vendor.answer('/v1/boards/paced/jobs?content=true', { json: { jobs: [] } });
  const other = new PoliteFetch(stack.db, stack.config);
  const url = 'https://boards-api.greenhouse.io/v1/boards/paced/jobs?content=true';
  const [{ now: before }] = await stack.db.query(`SELECT now() AS now`);
  await Promise.all([stack.services.politeFetch.get(url), other.get(url), other.get(url)]);
  expect(vendor.requests).toHaveLength(3);
  // Three slots of one budget were taken, whichever fetcher took them: the host's next slot is three intervals on.
  const [{ next_allowed_at: next }] = await stack.db.query(
    `SELECT next_allowed_at FROM source_hosts WHERE host = 'boards-api.greenhouse.io'`,
  );
  expect(next.getTime() - before.getTime()).toBeGreaterThanOrEqual(3 * stack.config.SOURCES_HOST_INTERVAL_MS);
});

test('SOURCES_CONTACT_EMAIL is required in production; SOURCES_HOST_MAP must be host=origin pairs', () => {
  const base = {
    DATABASE_URL: 'postgres://x',
    ADMIN_TOKEN: 'a'.repeat(16),
    SECRETS_KEY: Buffer.alloc(32).toString('base64'),
  };
  expect(() => loadConfig({ ...base, NODE_ENV: 'production', PUBLIC_URL: 'https://leads.example.com' })).toThrow(
    /SOURCES_CONTACT_EMAIL: required when NODE_ENV=production/,
  );
  expect(() => loadConfig({ ...base, SOURCES_HOST_MAP: 'boards-api.greenhouse.io' })).toThrow(/SOURCES_HOST_MAP/);
  expect(loadConfig(base).SOURCES_CONTACT_EMAIL).toBe('sources@localhost');
});
