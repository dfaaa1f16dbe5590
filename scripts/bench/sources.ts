/**
 * Sources at scale (issue #24): the real `job-boards` source over many watched companies'
 * boards, served by local stand-ins in the platforms' formats (source-stand-ins.ts), run through
 * its Temporal Schedule (`POST /admin/v1/sources/job-boards/run`) on the stack's worker.
 *
 * Time is compressed honestly, in two phases on one stack:
 *  1. cost: every board at SOURCES_HOST_INTERVAL_MS = 0 (each request still claims its host's
 *     slot in `source_hosts`): the worker's own pace w per board, with the CPU of the worker
 *     (utime + stime of its process, what process.cpuUsage() reports inside it) and of
 *     PostgreSQL (all its processes, /proc), PostgreSQL's own active time
 *     (pg_stat_database.active_time; pg_stat_statements is not preloaded in the embedded server)
 *     and the worker's memory: a first poll (every posting new) and a steady one (10 % changed).
 *  2. pacing: a subset of the boards at a short interval I > w, where the host limit is the
 *     bound: time per board beside max(I, w), and the stand-ins' arrival log per host (no two
 *     requests closer than I, less network jitter).
 * The 6-hour cycle at the production 1 s/host follows: a run syncs its boards one after another
 * in (platform, token) order, so each board takes max(1 s, w) after one on the same host.
 * Another source is one more function beside {@link measureJobBoards}, returning a {@link SourceMeasurement}.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client as PgClient } from 'pg';
import { cpuReading } from './cpu';
import { call, expectStatus } from './http';
import { boardToken, hostOf, platformOf, startBoardStandIns, type BoardStandIns } from './source-stand-ins';
import { residentMB, type BenchStack } from './stack';
import { percentile } from './stats';

/** The production pace: one request per host per second (SOURCES_HOST_INTERVAL_MS). */
const PRODUCTION_INTERVAL_MS = 1000;
const CYCLE_HOURS = 6;
/** PostgreSQL flushes an idle session's statistics within 10 s (PGSTAT_IDLE_INTERVAL). */
const STATS_SETTLE_MS = 11_000;
/** Arrival jitter allowed under the interval (the request's own trip over loopback). */
const JITTER_MS = 5;
const POLL_MS = 1000;

export interface SourcesSetup {
  standIns: BoardStandIns;
  /** The stack's environment: the hosts mapped to the stand-ins, no run on its own during the bench. */
  env: Record<string, string>;
  /** The worker's environment; the pacing phase changes its interval and restarts the worker. */
  workerEnv: Record<string, string>;
}

export async function prepareSources(): Promise<SourcesSetup> {
  const standIns = await startBoardStandIns();
  return {
    standIns,
    env: {
      SOURCES_HOST_MAP: standIns.hostMap,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Runs start when the bench says so; a year between scheduled ones keeps them out of the way.
      JOB_BOARDS_INTERVAL: '8760h',
    },
    workerEnv: { SOURCES_HOST_INTERVAL_MS: '0' },
  };
}

export interface CycleMeasurement {
  name: string;
  intervalMs: number;
  items: number;
  requests: number;
  recordsIngested: number;
  errors: number;
  elapsedMs: number;
  itemsPerSecond: number;
  msPerItem: number;
  /** CPU ms per item by process (worker, PostgreSQL, Temporal server, API, bench, machine). */
  cpuMsPerItem: Record<string, number>;
  /** pg_stat_database.active_time per item: time PostgreSQL spent executing statements. */
  postgresActiveMsPerItem: number;
  postgresTransactionsPerItem: number;
}

export interface HostCheck {
  host: string;
  requests: number;
  minGapMs: number;
  p1GapMs: number;
  /** Gaps shorter than the interval less {@link JITTER_MS}. */
  tooClose: number;
  /** Requests in the busiest second, beside 1000 / interval. */
  busiestSecond: number;
}

export interface SourceMeasurement {
  source: string;
  /** What one item is: "boards", "sites". */
  unit: string;
  items: number;
  byHost: Record<string, number>;
  cycles: CycleMeasurement[];
  paced: { cycle: CycleMeasurement; expectedMsPerItem: number; hosts: HostCheck[] };
  workerMB: number;
  peakMB: number;
  projection: {
    intervalMs: number;
    /** The worker's steady pace per item (phase 1), ms. */
    workMs: number;
    /** One run at the production interval as the workflow syncs: one item after another. */
    cycleS: number;
    /** No schedule can beat this: the busiest host's items at one per interval. */
    hostBoundS: number;
    /** The busiest host's requests per second if the cycle were spread over the 6-hour interval. */
    spreadPerHostPerSecond: number;
    method: string;
  };
}

export interface SourcesResult {
  companies: number;
  sources: SourceMeasurement[];
}

interface Context {
  stack: BenchStack;
  db: PgClient;
  setup: SourcesSetup;
  log(line: string): void;
}

export async function runSources(
  stack: BenchStack,
  db: PgClient,
  setup: SourcesSetup,
  size: { companies: number; pacedItems: number },
  log: (line: string) => void,
): Promise<SourcesResult> {
  const context = { stack, db, setup, log };
  return { companies: size.companies, sources: [await measureJobBoards(context, size)] };
}

async function measureJobBoards(
  context: Context,
  size: { companies: number; pacedItems: number },
): Promise<SourceMeasurement> {
  const { stack, db, setup, log } = context;
  const started = performance.now();
  await db.query(
    `INSERT INTO companies (id, name, name_key, domain)
     SELECT 'bench-src-co-' || g, 'Board Company ' || g, 'board company ' || g, 'boardco' || g || '.com'
     FROM generate_series(0, $1::int - 1) g`,
    [size.companies],
  );
  const boards = Array.from({ length: size.companies }, (_, n) => n);
  await db.query(
    `INSERT INTO company_job_boards (ats, token, company_id)
     SELECT b.ats, b.token, 'bench-src-co-' || b.n FROM unnest($1::text[], $2::text[], $3::int[]) AS b(ats, token, n)`,
    [boards.map(platformOf), boards.map(boardToken), boards],
  );
  await db.query(`ANALYZE companies, company_job_boards`);
  const byHost: Record<string, number> = {};
  for (const n of boards) byHost[hostOf(platformOf(n))] = (byHost[hostOf(platformOf(n))] ?? 0) + 1;
  log(
    `  ${size.companies} companies with a board each (${Object.entries(byHost)
      .map(([host, count]) => `${count} on ${host}`)
      .join(', ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const memory = sampleMemory(stack);
  const first = await measureCycle(context, 'job-boards', 'first poll, every posting new', size.companies, 0);
  for (const n of boards) if (n % 10 === 0) setup.standIns.addPosting(n);
  const steady = await measureCycle(context, 'job-boards', 'steady poll, 10 % of boards changed', size.companies, 0);
  const { workerMB, peakMB } = memory.stop();

  // Pacing: a subset over every host, at an interval above the worker's own pace.
  const workMs = steady.msPerItem;
  const intervalMs = Math.max(100, Math.ceil((2 * workMs) / 10) * 10);
  const perPlatform = Math.ceil(size.pacedItems / 3);
  await db.query(
    `DELETE FROM company_job_boards b USING (
       SELECT ats, token, row_number() OVER (PARTITION BY ats ORDER BY token) AS nth FROM company_job_boards) r
     WHERE b.ats = r.ats AND b.token = r.token AND r.nth > $1`,
    [perPlatform],
  );
  const pacedItems = Number(
    ((await db.query(`SELECT count(*)::int AS n FROM company_job_boards`)).rows[0] as { n: number }).n,
  );
  setup.workerEnv.SOURCES_HOST_INTERVAL_MS = String(intervalMs);
  await stack.restartWorker();
  for (const arrivals of setup.standIns.requests.values()) arrivals.length = 0;
  const paced = await measureCycle(context, 'job-boards', `paced at ${intervalMs} ms per host`, pacedItems, intervalMs);
  const hosts = [...setup.standIns.requests].map(([host, arrivals]) => hostCheck(host, arrivals, intervalMs));
  for (const h of hosts)
    log(
      `  ${h.host}: ${h.requests} requests, smallest gap ${h.minGapMs.toFixed(1)} ms (interval ${intervalMs}), ` +
        `${h.tooClose} closer than the interval less ${JITTER_MS} ms, busiest second ${h.busiestSecond}`,
    );

  const busiest = Math.max(...Object.values(byHost));
  // Sorted by (platform, token), all but the first board of each host follow one on the same host.
  const sameHostFollowers = size.companies - Object.keys(byHost).length;
  const cycleMs = sameHostFollowers * Math.max(PRODUCTION_INTERVAL_MS, workMs) + Object.keys(byHost).length * workMs;
  return {
    source: 'job-boards',
    unit: 'boards',
    items: size.companies,
    byHost,
    cycles: [first, steady],
    paced: { cycle: paced, expectedMsPerItem: Math.max(intervalMs, workMs), hosts },
    workerMB,
    peakMB,
    projection: {
      intervalMs: PRODUCTION_INTERVAL_MS,
      workMs,
      cycleS: cycleMs / 1000,
      hostBoundS: (busiest * PRODUCTION_INTERVAL_MS) / 1000,
      spreadPerHostPerSecond: busiest / (CYCLE_HOURS * 3600),
      method:
        `steady per-board time w = ${workMs.toFixed(1)} ms at interval 0; a run syncs boards one after another in (platform, token) order, ` +
        `so at ${PRODUCTION_INTERVAL_MS} ms/host each board after one on the same host takes max(${PRODUCTION_INTERVAL_MS} ms, w); ` +
        `checked by the paced phase (${paced.msPerItem.toFixed(1)} ms per board at ${intervalMs} ms, expected ${Math.max(intervalMs, workMs).toFixed(1)})`,
    },
  };
}

/** One run of `source` through its schedule, timed from the trigger to its recorded end. */
async function measureCycle(
  context: Context,
  source: string,
  name: string,
  items: number,
  intervalMs: number,
): Promise<CycleMeasurement> {
  const { stack, db, setup, log } = context;
  const admin = (path: string, method = 'GET') =>
    expectStatus(`${method} ${path}`, 200, call(`${stack.apiUrl}${path}`, { method, token: stack.adminToken }));
  const status = async () => {
    const { data } = (await admin('/admin/v1/sources')) as { data: (SourceStatusBody & { name: string })[] };
    const found = data.find((s) => s.name === source);
    if (!found) throw new Error(`GET /admin/v1/sources lists no ${source}`);
    return found;
  };
  await sleep(STATS_SETTLE_MS);
  const before = await status();
  const pgBefore = await postgresActivity(db);
  const requestsBefore = requestCount(setup.standIns);
  const cpu = cpuReading(stack.cpuMeters());
  const started = performance.now();
  await admin(`/admin/v1/sources/${source}/run`, 'POST');
  let now = before;
  let lastLog = performance.now();
  // Generous: ten times the slower of the interval and 200 ms per item, and five minutes more.
  const deadline = started + items * Math.max(intervalMs, 200) * 10 + 300_000;
  for (;;) {
    await sleep(POLL_MS);
    now = await status();
    if (now.lastRunFinishedAt !== before.lastRunFinishedAt && !now.running) break;
    if (performance.now() > deadline) throw new Error(`${source} (${name}) did not finish in time`);
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      log(`  ${name}: ${requestCount(setup.standIns) - requestsBefore} of ${items} requests so far`);
    }
  }
  const elapsedMs = performance.now() - started;
  const used = cpu.since();
  await sleep(STATS_SETTLE_MS);
  const pgAfter = await postgresActivity(db);
  const result: CycleMeasurement = {
    name,
    intervalMs,
    items,
    requests: requestCount(setup.standIns) - requestsBefore,
    recordsIngested: now.recordsIngested - before.recordsIngested,
    errors: now.errors - before.errors,
    elapsedMs,
    itemsPerSecond: (items * 1000) / elapsedMs,
    msPerItem: elapsedMs / items,
    cpuMsPerItem: Object.fromEntries(Object.entries(used).map(([process, s]) => [process, (s * 1000) / items])),
    postgresActiveMsPerItem: (pgAfter.activeMs - pgBefore.activeMs) / items,
    postgresTransactionsPerItem: (pgAfter.transactions - pgBefore.transactions) / items,
  };
  log(
    `  ${name}: ${items} ${source} items in ${(elapsedMs / 1000).toFixed(1)} s = ${result.itemsPerSecond.toFixed(1)}/s; ` +
      `${result.recordsIngested} records, ${result.errors} errors; CPU per item: worker ${result.cpuMsPerItem.worker?.toFixed(2)} ms, ` +
      `PostgreSQL ${result.cpuMsPerItem.PostgreSQL?.toFixed(2)} ms (active ${result.postgresActiveMsPerItem.toFixed(2)} ms)`,
  );
  return result;
}

interface SourceStatusBody {
  running: boolean;
  lastRunFinishedAt: string | null;
  recordsIngested: number;
  errors: number;
}

async function postgresActivity(db: PgClient): Promise<{ activeMs: number; transactions: number }> {
  const { rows } = await db.query(
    `SELECT active_time AS active, xact_commit + xact_rollback AS transactions
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  const row = rows[0] as { active: number; transactions: string };
  return { activeMs: Number(row.active), transactions: Number(row.transactions) };
}

const requestCount = (standIns: BoardStandIns) =>
  [...standIns.requests.values()].reduce((sum, arrivals) => sum + arrivals.length, 0);

function hostCheck(host: string, arrivals: readonly number[], intervalMs: number): HostCheck {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((at, i) => at - sorted[i]!);
  let busiestSecond = 0;
  for (let from = 0, to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 1000) from++;
    busiestSecond = Math.max(busiestSecond, to - from + 1);
  }
  return {
    host,
    requests: sorted.length,
    minGapMs: gaps.length ? Math.min(...gaps) : NaN,
    p1GapMs: percentile(gaps, 1),
    tooClose: gaps.filter((gap) => gap < intervalMs - JITTER_MS).length,
    busiestSecond,
  };
}

function sampleMemory(stack: BenchStack): { stop(): { workerMB: number; peakMB: number } } {
  let workerMB = 0;
  let peakMB = 0;
  const read = () => {
    const reading = residentMB(stack.worker?.pid ?? -1);
    if (reading) [workerMB, peakMB] = [reading.rss, Math.max(peakMB, reading.rss, reading.peak)];
  };
  const timer = setInterval(read, 1000);
  return {
    stop: () => {
      read();
      clearInterval(timer);
      return { workerMB, peakMB };
    },
  };
}
