import type { ChildProcess } from 'node:child_process';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { compiledProject, killWorker, spawnWorker } from '../setup/worker-process';
import { startSite, type SiteServer } from './site-servers';
import { homepage } from './site-fixtures';
import { startSlowSite, type SlowSite } from './slow-sites';

/**
 * Issue 31, finding 2: a source item whose read kills the worker is not retried into the same
 * crash forever. The worker runs in a process of its own and is really killed (SIGKILL, as the
 * kernel kills one out of memory) while it reads the item, twice; the next attempt parks the
 * item with its reason and the run goes on with the other items.
 */
const SOURCE = 'company-profiles';

let stack: Stack;
let outDir: string;
let deadly: SlowSite;
let calm: SiteServer;
let env: Record<string, string>;
const workers: ChildProcess[] = [];
const output: string[] = [];

beforeAll(async () => {
  // Answers that go on for minutes: the worker is always killed in the middle of one.
  deadly = await startSlowSite({ bytesPerTick: 100, everyMs: 250 });
  calm = await startSite();
  calm.answer('/', { html: homepage({ title: 'Calm home' }) });
  env = {
    SOURCES_HOST_MAP: [
      `deadly-site.com=${deadly.origin}`,
      `www.deadly-site.com=${deadly.origin}`,
      `calm-site.com=${calm.origin}`,
      `www.calm-site.com=${calm.origin}`,
    ].join(','),
    SOURCES_HOST_INTERVAL_MS: '20',
    SOURCES_DEADLINE_MS: '240000',
    SOURCES_MIN_BYTES_PER_SECOND: '0',
    COMPANY_PROFILES_INTERVAL: '24h',
  };
  [stack, outDir] = await Promise.all([startStack({ worker: false, env }), compiledProject()]);
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
}, 300_000);

afterAll(async () => {
  await Promise.all(workers.map(killWorker));
  await stack?.stop();
  await Promise.all([deadly?.close(), calm?.close()]);
}, 60_000);

const startWorker = () => workers.push(spawnWorker({ outDir, stack, env, output }));
const homeReads = () => deadly.paths.filter((path) => path === '/').length;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time; worker output:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('an item that kills the worker twice is parked with its reason; the run goes on with the other items', async () => {
  const records = [
    { kind: 'company', id: 'a-deadly', name: 'Deadly', domain: 'deadly-site.com' },
    { kind: 'company', id: 'b-calm', name: 'Calm', domain: 'calm-site.com' },
  ];
  expect((await stack.services.ingestion.ingest(records)).accepted).toBe(2);
  startWorker();
  const run = await call(`${stack.url}/admin/v1/sources/${SOURCE}/run`, { method: 'POST', token: TEST_ADMIN_TOKEN });
  expect(run.status).toBe(200);

  // Two attempts, each killed with its worker while it reads the deadly page.
  for (const attempt of [1, 2]) {
    await until(`attempt ${attempt} reading the page`, () => homeReads() === attempt);
    await killWorker(workers.at(-1)!);
    startWorker();
  }

  // The third attempt finds two lost ones: the item is parked, and the run reads the next item.
  await until('the run to finish', async () => {
    const status = await stack.services.sources.get(SOURCE);
    return status.lastRunFinishedAt !== null && !status.running;
  });
  const status = await stack.services.sources.get(SOURCE);
  expect(status.parked).toEqual([
    { item: 'a-deadly', reason: expect.stringMatching(/^parked: .*worker died/), parkedAt: expect.any(String) },
  ]);
  expect(homeReads()).toBe(2);
  expect(await stack.services.companyProfiles.siteOf('b-calm')).toMatchObject({
    outcome: 'profiled',
    homepageTitle: 'Calm home',
  });
}, 420_000);
