import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, createSignal } from '../leads/fixtures';
import { sourceSyncScheduleId, sourceSyncWorkflowType } from '../../src/temporal/contract';
import { AttemptCancelled } from '../../src/sources/kit/item-attempts';
import { startSite, type SiteServer } from './site-servers';
import { homepage } from './site-fixtures';
import { startSlowSite, type SlowSite } from './slow-sites';
import { runSourceNow } from './source-runs';

/**
 * Issue 31, finding 5 (and the parking of finding 2): a slow site is cut off by a deadline and
 * a least rate, a cancelled attempt closes its socket and writes nothing, an item lost twice
 * with its worker is parked, one account's many slow sites cannot keep another's site unread,
 * and the source runs go to the sources' own task queue.
 */
const SOURCE = 'company-profiles';
const MIN_RATE = 200;
const DEADLINE_S = 4;

let stack: Stack;
let trickle: SlowSite;
let steady: SlowSite;
let cancelled: SlowSite;
let slowOfA: SlowSite[];
let normal: Record<string, SiteServer>;

const mapTo = (domain: string, origin: string) => `${domain}=${origin},www.${domain}=${origin}`;

beforeAll(async () => {
  // One byte every half second: never idle for SOURCES_TIMEOUT_MS, far below the least rate.
  trickle = await startSlowSite({ bytesPerTick: 1, everyMs: 500 });
  // 400 bytes a second: above the least rate, so only the deadline ends it.
  steady = await startSlowSite({ bytesPerTick: 100, everyMs: 250 });
  cancelled = await startSlowSite({ bytesPerTick: 100, everyMs: 250 });
  slowOfA = await Promise.all([1, 2, 3, 4].map(() => startSlowSite({ bytesPerTick: 1, everyMs: 500 })));
  normal = Object.fromEntries(
    await Promise.all(
      ['crashy-site.com', 'calm-site.com', 'b-site.com', 'big-site.com'].map(async (d) => [d, await startSite()]),
    ),
  );
  for (const [domain, site] of Object.entries(normal))
    site.answer('/', { html: homepage({ title: `${domain} home`, description: `The site of ${domain}` }) });
  const hostMap = [
    mapTo('trickle-site.com', trickle.origin),
    mapTo('steady-site.com', steady.origin),
    mapTo('cancel-site.com', cancelled.origin),
    ...slowOfA.map((site, i) => mapTo(`a${i + 1}-site.com`, site.origin)),
    ...Object.entries(normal).map(([domain, site]) => mapTo(domain, site.origin)),
  ].join(',');
  stack = await startStack({
    env: {
      SOURCES_HOST_MAP: hostMap,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '3000',
      SOURCES_DEADLINE_MS: String(DEADLINE_S * 1000),
      SOURCES_MIN_BYTES_PER_SECOND: String(MIN_RATE),
      SOURCES_MIN_RATE_GRACE_MS: '1500',
      COMPANY_PROFILES_PER_ACCOUNT: '2',
      // Runs only when the test asks.
      COMPANY_PROFILES_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([trickle, steady, cancelled, ...(slowOfA ?? [])].map((site) => site?.close()));
  await Promise.all(Object.values(normal ?? {}).map((site) => site.close()));
});

const addCompanies = async (companies: { id: string; domain: string }[]) => {
  const records = companies.map((c) => ({ kind: 'company', id: c.id, name: c.id, domain: c.domain }));
  expect((await stack.services.ingestion.ingest(records)).accepted).toBe(records.length);
};
const siteOf = (companyId: string) => stack.services.companyProfiles.siteOf(companyId);
const eventually = async (check: () => boolean) => {
  const deadline = Date.now() + 20_000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
};

test('a homepage trickling a byte at a time is cut off by the least rate; the item says why', async () => {
  await addCompanies([{ id: 'trickle', domain: 'trickle-site.com' }]);

  const status = await runSourceNow(stack, SOURCE);

  const site = await siteOf('trickle');
  expect(site).toMatchObject({
    outcome: 'problem',
    lastProblem: expect.stringContaining(`slower than ${MIN_RATE} bytes/s`),
  });
  expect(status.lastError).toMatch(new RegExp(`company "trickle".*slower than ${MIN_RATE} bytes/s`));
  expect(await eventually(() => trickle.closedByClient() === 1)).toBe(true);
}, 120_000);

test('an answer above the least rate that never ends is cut off at the deadline', async () => {
  await addCompanies([{ id: 'steady', domain: 'steady-site.com' }]);

  const status = await runSourceNow(stack, SOURCE);

  expect(await siteOf('steady')).toMatchObject({
    outcome: 'problem',
    lastProblem: expect.stringContaining(`no complete answer within ${DEADLINE_S} s`),
  });
  expect(status.lastError).toMatch(/company "steady".*no complete answer within/);
  expect(await eventually(() => steady.closedByClient() === 1)).toBe(true);
}, 120_000);

test('each kind of document has a size cap far below the global one, and a caller may ask for less', async () => {
  const big = normal['big-site.com']!;
  big.answer('/', { html: homepage({ title: 'Big', head: [`<!-- ${'x'.repeat(2_100_000)} -->`] }) });
  await addCompanies([{ id: 'big', domain: 'big-site.com' }]);

  await runSourceNow(stack, SOURCE);

  // SOURCES_MAX_RESPONSE_BYTES is its default (20 MB) here: the page's own cap cut it, and its
  // head was read.
  expect(stack.config.SOURCES_MAX_RESPONSE_BYTES).toBe(20_000_000);
  expect(await siteOf('big')).toMatchObject({ outcome: 'profiled', homepageTitle: 'Big', lastProblem: null });
  // Any other kind of document over its cap is refused: a cut feed or JSON cannot be read.
  const feed = `<?xml version="1.0"?><rss><channel>${'<item/>'.repeat(800_000)}</channel></rss>`;
  big.answer('/feed.xml', { status: 200, headers: { 'content-type': 'application/rss+xml' }, body: feed });
  expect(await stack.services.politeFetch.get('https://big-site.com/feed.xml', 'application/rss+xml')).toMatchObject({
    status: 'failed',
    error: expect.stringContaining('larger than 5000000 bytes'),
  });
  // As much JSON is within JSON's cap; a caller asking for less gets less.
  const json = JSON.stringify({ pad: 'x'.repeat(2_100_000) });
  big.answer('/data.json', { status: 200, headers: { 'content-type': 'application/json' }, body: json });
  const whole = await stack.services.politeFetch.get('https://big-site.com/data.json');
  expect(whole).toMatchObject({ status: 'ok', body: json });
  const capped = await stack.services.politeFetch.get(
    'https://big-site.com/data.json',
    'application/json',
    {},
    {
      maxBytes: 1000,
    },
  );
  expect(capped).toMatchObject({ status: 'failed', error: expect.stringContaining('larger than 1000 bytes') });
}, 120_000);

test('an item lost twice with its worker is parked with its reason, skipped by later runs, and tried again once unparked', async () => {
  await addCompanies([
    { id: 'calm', domain: 'calm-site.com' },
    { id: 'crashy', domain: 'crashy-site.com' },
  ]);
  // Two attempts started and never finished: what two worker crashes on this item leave.
  await stack.db.query(
    `INSERT INTO source_item_attempts (source, item, unfinished, started_at)
     VALUES ($1, 'crashy', 2, ARRAY[now() - interval '2 minutes', now() - interval '1 minute'])`,
    [SOURCE],
  );

  const first = await runSourceNow(stack, SOURCE);
  expect(first.parked).toEqual([
    { item: 'crashy', reason: expect.stringMatching(/^parked: .*worker died/), parkedAt: expect.any(String) },
  ]);
  expect(first.lastError).toMatch(/^crashy: parked: /);
  expect(normal['crashy-site.com']!.paths()).toEqual([]);
  // The run went on with the other items.
  expect(await siteOf('calm')).toMatchObject({ outcome: 'profiled', homepageTitle: 'calm-site.com home' });

  // Still parked at the next run, and shown to the operator.
  await stack.db.query(`DELETE FROM company_sites WHERE company_id = 'calm'`);
  await runSourceNow(stack, SOURCE);
  expect(normal['crashy-site.com']!.paths()).toEqual([]);
  const listed = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect(listed.body.data.find((s: { name: string }) => s.name === SOURCE).parked).toEqual([
    expect.objectContaining({ item: 'crashy' }),
  ]);

  const unknown = await call(`${stack.url}/admin/v1/sources/${SOURCE}/unpark`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { item: 'nobody' },
  });
  expect({ status: unknown.status, text: unknown.text }).toEqual({ status: 404, text: expect.any(String) });
  const badBody = await call(`${stack.url}/admin/v1/sources/${SOURCE}/unpark`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { item: 7 },
  });
  expect(badBody.status).toBe(422);
  const unparked = await call(`${stack.url}/admin/v1/sources/${SOURCE}/unpark`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { item: 'crashy' },
  });
  expect(unparked.status).toBe(200);
  expect(unparked.body.parked).toEqual([]);

  await runSourceNow(stack, SOURCE);
  expect(normal['crashy-site.com']!.paths()).toContain('/');
  expect(await siteOf('crashy')).toMatchObject({ outcome: 'profiled', homepageTitle: 'crashy-site.com home' });
}, 240_000);

test("one account's many slow sites do not keep another account's site unread: turns across accounts, a cap per account", async () => {
  const a = client(stack, await createAccount(stack, { credits: 10 }));
  const b = client(stack, await createAccount(stack, { credits: 10 }));
  const aDomains = [1, 2, 3, 4].map((i) => `a${i}-site.com`);
  // B's company sorts after all of A's: by id alone it would be read last.
  await addCompanies([
    ...aDomains.map((domain, i) => ({ id: `a-company-${i + 1}`, domain })),
    { id: 'z-company-of-b', domain: 'b-site.com' },
  ]);
  await createSignal(a, 'account-watchlist', {
    name: 'A watches four',
    config: { companies: aDomains.map((domain) => ({ name: domain, domain })) },
  });
  await createSignal(b, 'account-watchlist', {
    name: 'B watches one',
    config: { companies: [{ name: 'B site', domain: 'b-site.com' }] },
  });

  await runSourceNow(stack, SOURCE);

  // B's site was read in this run, in the first round, before A's second site.
  expect(await siteOf('z-company-of-b')).toMatchObject({ outcome: 'profiled' });
  const homeAt = (site: { requests: { path: string; at: number }[] }) => site.requests.find((r) => r.path === '/')?.at;
  const bAt = homeAt(normal['b-site.com']!)!;
  expect(slowOfA.map((site) => site.paths.includes('/'))).toEqual([true, true, false, false]);
  expect((await siteOf('a-company-2'))?.lastProblem).toMatch(/slower than/);
  const a2 = await stack.db.query(`SELECT fetched_at FROM company_sites WHERE company_id = 'a-company-2'`);
  expect(bAt).toBeLessThan(new Date(a2[0].fetched_at).getTime());

  // A's other sites wait for the next run.
  await runSourceNow(stack, SOURCE);
  expect(slowOfA.map((site) => site.paths.filter((p) => p === '/').length)).toEqual([1, 1, 1, 1]);
}, 240_000);

test("the source runs go to the sources' own task queue, and an older schedule is moved there", async () => {
  const queue = stack.config.TEMPORAL_TASK_QUEUE;
  const scheduleId = sourceSyncScheduleId(SOURCE, queue);
  const description = await stack.temporal.schedule.getHandle(scheduleId).describe();
  expect(description.action).toMatchObject({ type: 'startWorkflow', taskQueue: `${queue}-sources` });
  const runs = description.info.recentActions.map((action) => action.action.workflow);
  expect(runs.length).toBeGreaterThan(0);
  for (const run of runs) {
    const execution = await stack.temporal.workflow.getHandle(run.workflowId, run.firstExecutionRunId).describe();
    expect(execution.taskQueue).toBe(`${queue}-sources`);
  }

  // A schedule made before the sources had their own queue.
  const tedId = sourceSyncScheduleId('ted', queue);
  await stack.temporal.schedule.getHandle(tedId).delete();
  await stack.temporal.schedule.create({
    scheduleId: tedId,
    spec: { intervals: [{ every: stack.config.TED_INTERVAL }] },
    action: {
      type: 'startWorkflow',
      workflowType: sourceSyncWorkflowType,
      workflowId: tedId,
      taskQueue: queue,
      args: ['ted'],
    },
    state: { paused: true },
  });
  await stack.services.sources.schedules.ensure(['ted']);
  expect((await stack.temporal.schedule.getHandle(tedId).describe()).action).toMatchObject({
    taskQueue: `${queue}-sources`,
  });
}, 120_000);

test("an attempt's cancellation closes its socket at once and writes nothing", async () => {
  await addCompanies([{ id: 'cancelled', domain: 'cancel-site.com' }]);
  const before = await stack.services.sources.get(SOURCE);
  const [stateBefore] = await stack.db.query(`SELECT state FROM sources WHERE name = $1`, [SOURCE]);
  const controller = new AbortController();

  // As the activity does (activities/sources.ts), with its Temporal cancellation signal.
  const syncing = stack.services.sources.syncItem(SOURCE, 'cancelled', undefined, controller.signal);
  const outcome = syncing.then(
    () => 'finished',
    (err: unknown) => err,
  );
  expect(await eventually(() => cancelled.paths.includes('/'))).toBe(true);
  controller.abort(new Error('the activity timed out'));

  expect(await outcome).toBeInstanceOf(AttemptCancelled);
  expect(await eventually(() => cancelled.closedByClient() === 1)).toBe(true);
  // Nothing of the attempt is written: no site, no counts, no error, the cursor where it was.
  expect(await siteOf('cancelled')).toBeNull();
  const after = await stack.services.sources.get(SOURCE);
  expect(after).toMatchObject({
    recordsIngested: before.recordsIngested,
    errors: before.errors,
    lastError: before.lastError,
  });
  const [stateAfter] = await stack.db.query(`SELECT state FROM sources WHERE name = $1`, [SOURCE]);
  expect(stateAfter.state).toEqual(stateBefore.state);
  // Ended in this process: not counted as lost with a worker.
  const [attempt] = await stack.db.query(
    `SELECT unfinished FROM source_item_attempts WHERE source = $1 AND item = 'cancelled'`,
    [SOURCE],
  );
  expect(attempt.unfinished).toBe(0);
}, 60_000);
