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
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client as PgClient } from 'pg';
import { cpuReading } from './cpu';
import { call, expectStatus } from './http';
import { phaseOf } from '../../src/sources/job-boards/board-phases';
import {
  boardToken,
  hostOf,
  platformOf,
  siteDomain,
  startBoardStandIns,
  startEdgarStandIn,
  startSiteStandIn,
  type BoardStandIns,
  type EdgarStandIn,
  type SiteStandIn,
} from './source-stand-ins';
import { residentMB, type BenchStack } from './stack';
import { awardRelease, startPublisher, type PublisherServer } from '../../test/sources/tender-fixtures';
import { actor, startAppView, type Actor, type AppView } from '../../test/sources/bluesky-fixtures';
import { call as callApi, createAccount } from './http';
import { registerCompanyName, startRegisterStandIn, type RegisterStandIn } from './register-stand-in';
import { percentile } from './stats';

/** New directors at known companies the companies-house row reads in one run. */
const REGISTER_APPOINTMENTS = 40;
/** Companies House REST: 600 requests per 5 minutes per key (HOST_INTERVALS_MS), whatever the worker's interval. */
const REGISTER_INTERVAL_MS = 500;
/** The production pace: one request per host per second (SOURCES_HOST_INTERVAL_MS). */
const PRODUCTION_INTERVAL_MS = 1000;
const CYCLE_HOURS = 6;
/** The job-boards schedule's tick (JOB_BOARDS_TICK): each run takes the boards due since the last. */
const TICK_MS = 5 * 60_000;
/** PostgreSQL flushes an idle session's statistics within 10 s (PGSTAT_IDLE_INTERVAL). */
const STATS_SETTLE_MS = 11_000;
/** Arrival jitter allowed under the interval (the request's own trip over loopback). */
const JITTER_MS = 5;
const POLL_MS = 1000;
/** Tender offers the sec-filings measurement reads from one daily index. */
const SEC_FILINGS = 200;
/** SEC's fair-access pace for www.sec.gov (HOST_INTERVALS_MS): the bench cannot go faster, nor can production. */
const SEC_INTERVAL_MS = 100;

export interface SourcesSetup {
  standIns: BoardStandIns;
  site: SiteStandIn;
  /** A stand-in of Find a Tender's OCDS API (its host mapped there), for the tender row. */
  tenders: PublisherServer;
  /** Companies House: its streams and REST API, for the companies-house row. */
  register: RegisterStandIn;
  /** EDGAR for sec-filings (www.sec.gov mapped to it). */
  edgar: EdgarStandIn;
  /** Contracts Finder's OCDS search and USAspending's award search, for their rows. */
  contractsFinder: PublisherServer;
  usaspending: PublisherServer;
  /** Bluesky's public AppView (test/sources/bluesky-fixtures.ts), for the bluesky row. */
  appView: AppView;
  /** Companies whose site the company-profiles source reads (the first ones; the others have no domain). */
  sites: number;
  /** The stack's environment: the hosts mapped to the stand-ins, no run on its own during the bench. */
  env: Record<string, string>;
  /** The worker's environment; the pacing phase changes its interval and restarts the worker. */
  workerEnv: Record<string, string>;
}

export async function prepareSources(size: { sites: number }): Promise<SourcesSetup> {
  const standIns = await startBoardStandIns();
  const site = await startSiteStandIn();
  const tenders = await startPublisher('ocds', FIND_A_TENDER_PATH, `https://${FIND_A_TENDER_HOST}`);
  const register = await startRegisterStandIn(REGISTER_APPOINTMENTS);
  const edgar = await startEdgarStandIn(SEC_FILINGS, new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  const contractsFinder = await startPublisher('ocds', CONTRACTS_FINDER_PATH, `https://${CONTRACTS_FINDER_HOST}`);
  const usaspending = await startPublisher('usaspending', USASPENDING_PATH, `https://${USASPENDING_HOST}`);
  const appView = await startAppView();
  // One host per company: each domain mapped to the one local site (the map must fit in the environment).
  const sites = Array.from({ length: size.sites }, (_, n) => `${siteDomain(n)}=${site.origin}`);
  const never = '8760h';
  return {
    standIns,
    site,
    tenders,
    register,
    edgar,
    contractsFinder,
    usaspending,
    appView,
    sites: size.sites,
    env: {
      SOURCES_HOST_MAP: [
        standIns.hostMap,
        `${FIND_A_TENDER_HOST}=${tenders.origin}`,
        register.hostMap,
        `www.sec.gov=${edgar.origin}`,
        `${CONTRACTS_FINDER_HOST}=${contractsFinder.origin}`,
        `${USASPENDING_HOST}=${usaspending.origin}`,
        `${APPVIEW_HOST}=${appView.origin}`,
        ...sites,
      ].join(','),
      COMPANIES_HOUSE_API_KEY: 'bench-rest-key',
      COMPANIES_HOUSE_STREAM_KEY: 'bench-stream-key',
      COMPANIES_HOUSE_STREAM_READ_SECONDS: '10',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Runs start when the bench says so (run now); a year between scheduled ones keeps them out of the way.
      JOB_BOARDS_TICK: never,
      COMPANY_PROFILES_INTERVAL: never,
      NEWS_INTERVAL: never,
      SEC_FORM_D_INTERVAL: never,
      TED_INTERVAL: never,
      PEOPLE_DATA_LABS_INTERVAL: never,
      COMPANIES_HOUSE_INTERVAL: never,
      FIND_A_TENDER_INTERVAL: never,
      CONTRACTS_FINDER_INTERVAL: never,
      USASPENDING_INTERVAL: never,
      FIND_A_TENDER_HOST_INTERVAL_MS: '0',
      CONTRACTS_FINDER_HOST_INTERVAL_MS: '0',
      BLUESKY_INTERVAL: never,
      FORECASTS_INTERVAL: never,
      SEC_FILINGS_INTERVAL: never,
    },
    workerEnv: {
      SOURCES_HOST_INTERVAL_MS: '0',
      FIND_A_TENDER_HOST_INTERVAL_MS: '0',
      CONTRACTS_FINDER_HOST_INTERVAL_MS: '0',
    },
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
  /** When and at what load this row was measured (a run of some rows keeps the others' own). */
  measured?: { date: string; load: string };
  /** What one item is: "boards", "sites". */
  unit: string;
  items: number;
  byHost: Record<string, number>;
  cycles: CycleMeasurement[];
  /** Requests per item (a site: robots.txt, homepage, careers page). */
  requestsPerItem: number;
  paced?: { cycle: CycleMeasurement; expectedMsPerItem: number; hosts: HostCheck[] };
  workerMB: number;
  peakMB: number;
  projection: {
    intervalMs: number;
    /** The worker's steady pace per item (phase 1), ms. */
    workMs: number;
    /** What one cycle takes at the production interval. */
    cycleS: number;
    /** A run of every item at once (the operator's run now), one after another. */
    runNowS: number;
    /** The spread schedule: the busiest tick's items and how long they take, beside the tick. */
    tickS?: number;
    busiestTickItems?: number;
    busiestTickS?: number;
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

/** The rows of the section, in their order; `--source-rows` picks some (their results replace those rows only). */
export const SOURCE_ROWS = [
  'job-boards',
  'company-profiles',
  'find-a-tender',
  'contracts-finder',
  'usaspending',
  'companies-house',
  'sec-filings',
  'forecasts',
  'bluesky',
] as const;
export type SourceRow = (typeof SOURCE_ROWS)[number];

export async function runSources(
  stack: BenchStack,
  db: PgClient,
  setup: SourcesSetup,
  size: { companies: number; pacedItems: number; blueskyAccounts: number },
  log: (line: string) => void,
  rows: readonly SourceRow[] = SOURCE_ROWS,
): Promise<SourcesResult> {
  const context = { stack, db, setup, log };
  const measure: Record<SourceRow, () => Promise<SourceMeasurement>> = {
    'job-boards': () => measureJobBoards(context, size),
    'company-profiles': () => measureCompanySites(context),
    'find-a-tender': () => measureFindATender(context, size),
    'contracts-finder': () => measureContractsFinder(context, size),
    usaspending: () => measureUsaspending(context, size),
    'companies-house': () => measureCompaniesHouse(context),
    'sec-filings': () => measureSecFilings(context),
    forecasts: () => measureForecasts(context, size),
    bluesky: () => measureBluesky(context, size),
  };
  const sources: SourceMeasurement[] = [];
  for (const row of SOURCE_ROWS) {
    if (!rows.includes(row)) continue;
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
    const measurement = await measure[row]();
    sources.push({ ...measurement, measured: { date: new Date().toISOString(), load } });
  }
  return { companies: size.companies, sources };
}

/** The bench's companies (`BOARD COMPANY n`, the first `setup.sites` with a domain), made once for every row. */
async function ensureCompanies(context: Context, companies: number): Promise<void> {
  await context.db.query(
    `INSERT INTO companies (id, name, name_key, domain)
     SELECT 'bench-src-co-' || lpad(g::text, 6, '0'), 'Board Company ' || g, 'board company ' || g,
            CASE WHEN g < $2 THEN 'boardco' || g || '.com' END
     FROM generate_series(0, $1::int - 1) g
     ON CONFLICT (id) DO NOTHING`,
    [companies, context.setup.sites],
  );
}

/** Every worker at interval 0 (a paced phase before may have changed it). */
async function unpaced(context: Context): Promise<void> {
  if (context.setup.workerEnv.SOURCES_HOST_INTERVAL_MS !== '0') {
    context.setup.workerEnv.SOURCES_HOST_INTERVAL_MS = '0';
    await context.stack.restartWorker();
  }
}

/**
 * forecasts over the store the job boards filled (every company's postings): a first pass of
 * every rule over every company with events in its lookback, then a pass with nothing changed,
 * which looks at no company (docs/sources/forecasts.md). No requests: the store is all it reads.
 */
async function measureForecasts(context: Context, size: { companies: number }): Promise<SourceMeasurement> {
  const memory = sampleMemory(context.stack);
  const first = await measureCycle(context, 'forecasts', 'first pass over the store', size.companies, 0, () => 0);
  const again = await measureCycle(context, 'forecasts', 'a pass with nothing changed', size.companies, 0, () => 0);
  const { workerMB, peakMB } = memory.stop();
  return {
    source: 'forecasts',
    unit: 'companies',
    items: size.companies,
    byHost: {},
    cycles: [first, again],
    requestsPerItem: 0,
    workerMB,
    peakMB,
    projection: {
      intervalMs: 0,
      workMs: first.msPerItem,
      cycleS: again.elapsedMs / 1000,
      runNowS: first.elapsedMs / 1000,
      method:
        'the four rules over every company at once (first pass), then a run with nothing changed; ' +
        'a run looks only at companies with changed events, so its time follows the changes',
    },
  };
}

async function measureJobBoards(
  context: Context,
  size: { companies: number; pacedItems: number },
): Promise<SourceMeasurement> {
  const { stack, db, setup, log } = context;
  const started = performance.now();
  await ensureCompanies(context, size.companies);
  const boards = Array.from({ length: size.companies }, (_, n) => n);
  await db.query(
    `INSERT INTO company_job_boards (ats, token, company_id)
     SELECT b.ats, b.token, 'bench-src-co-' || lpad(b.n::text, 6, '0') FROM unnest($1::text[], $2::text[], $3::int[]) AS b(ats, token, n)`,
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
  const requests = boardRequests(setup.standIns);
  const first = await measureCycle(context, 'job-boards', 'first poll, every posting new', size.companies, 0, requests);
  for (const n of boards) if (n % 10 === 0) setup.standIns.addPosting(n);
  const steady = await measureCycle(
    context,
    'job-boards',
    'steady poll, 10 % of boards changed',
    size.companies,
    0,
    requests,
  );
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
  const paced = await measureCycle(
    context,
    'job-boards',
    `paced at ${intervalMs} ms per host`,
    pacedItems,
    intervalMs,
    requests,
  );
  const hosts = [...setup.standIns.requests].map(([host, arrivals]) => hostCheck(host, arrivals, intervalMs));
  for (const h of hosts)
    log(
      `  ${h.host}: ${h.requests} requests, smallest gap ${h.minGapMs.toFixed(1)} ms (interval ${intervalMs}), ` +
        `${h.tooClose} closer than the interval less ${JITTER_MS} ms, busiest second ${h.busiestSecond}`,
    );

  const perItemMs = Math.max(PRODUCTION_INTERVAL_MS, workMs);
  // Sorted by (platform, token), all but the first board of each host follow one on the same host.
  const hostCount = Object.keys(byHost).length;
  const runNowMs = (size.companies - hostCount) * perItemMs + hostCount * workMs;
  // The spread schedule: each board due at its phase (board-phases.ts), taken by the tick after it.
  const perTick = new Map<number, number>();
  for (const n of boards) {
    const tick = Math.floor(phaseOf(`${platformOf(n)}:${boardToken(n)}`, CYCLE_HOURS * 3_600_000) / TICK_MS);
    perTick.set(tick, (perTick.get(tick) ?? 0) + 1);
  }
  const busiestTickItems = Math.max(...perTick.values());
  const busiestTickMs = busiestTickItems * perItemMs;
  return {
    source: 'job-boards',
    unit: 'boards',
    items: size.companies,
    byHost,
    cycles: [first, steady],
    requestsPerItem: steady.requests / steady.items,
    paced: { cycle: paced, expectedMsPerItem: Math.max(intervalMs, workMs), hosts },
    workerMB,
    peakMB,
    projection: {
      intervalMs: PRODUCTION_INTERVAL_MS,
      workMs,
      cycleS: busiestTickMs <= TICK_MS ? CYCLE_HOURS * 3600 : runNowMs / 1000,
      runNowS: runNowMs / 1000,
      tickS: TICK_MS / 1000,
      busiestTickItems,
      busiestTickS: busiestTickMs / 1000,
      method:
        `steady per-board time w = ${workMs.toFixed(1)} ms at interval 0; a run syncs its due boards one after another in (platform, token) order, ` +
        `so at ${PRODUCTION_INTERVAL_MS} ms/host a board after one on the same host takes max(${PRODUCTION_INTERVAL_MS} ms, w) ` +
        `(checked by the paced phase: ${paced.msPerItem.toFixed(1)} ms per board at ${intervalMs} ms, expected ${Math.max(intervalMs, workMs).toFixed(1)}). ` +
        `Spread: each board due at its phase (board-phases.ts) in ${CYCLE_HOURS} h, a run every ${TICK_MS / 60_000} min takes the due ones; ` +
        `the cycle is ${CYCLE_HOURS} h while the busiest tick's boards take less than the tick`,
    },
  };
}

/**
 * company-profiles over the first `setup.sites` companies, one host each (their domains mapped
 * to one local site): a first read of every site (robots.txt, homepage, careers page) at interval 0.
 * At the production interval the pages of one site are a second apart, so a site takes at least
 * (requests - 1) s; sites do not wait for each other.
 */
async function measureCompanySites(context: Context): Promise<SourceMeasurement> {
  const { stack, setup } = context;
  if (setup.workerEnv.SOURCES_HOST_INTERVAL_MS !== '0') {
    setup.workerEnv.SOURCES_HOST_INTERVAL_MS = '0';
    await stack.restartWorker();
  }
  const memory = sampleMemory(stack);
  const read = await measureCycle(
    context,
    'company-profiles',
    'first read of every site',
    setup.sites,
    0,
    () => setup.site.arrivals.length,
  );
  const { workerMB, peakMB } = memory.stop();
  const requestsPerItem = read.requests / read.items;
  const perItemMs = Math.max(read.msPerItem, (requestsPerItem - 1) * PRODUCTION_INTERVAL_MS + read.msPerItem);
  return {
    source: 'company-profiles',
    unit: 'sites',
    items: setup.sites,
    byHost: { 'one host per company': setup.sites },
    cycles: [read],
    requestsPerItem,
    workerMB,
    peakMB,
    projection: {
      intervalMs: PRODUCTION_INTERVAL_MS,
      workMs: read.msPerItem,
      cycleS: (setup.sites * perItemMs) / 1000,
      runNowS: (setup.sites * perItemMs) / 1000,
      method:
        `per-site time w = ${read.msPerItem.toFixed(1)} ms at interval 0 for ${requestsPerItem.toFixed(1)} requests to the site's own host; ` +
        `at ${PRODUCTION_INTERVAL_MS} ms/host those are a second apart, so a site takes (requests - 1) s + w, sites one after another`,
    },
  };
}

const FIND_A_TENDER_HOST = 'www.find-tender.service.gov.uk';
const FIND_A_TENDER_PATH = '/api/1.0/ocdsReleasePackages';
/** Find a Tender's own pace (FIND_A_TENDER_HOST_INTERVAL_MS): it answers 429 after about 12 quick requests. */
const FIND_A_TENDER_INTERVAL_MS = 5000;
const RELEASES_PER_PAGE = 100;

/**
 * find-a-tender, the smallest honest row of the tender sources: one run over award releases of
 * the bench's companies (one fifth of them), served by a stand-in of its OCDS API
 * (test/sources/tender-fixtures.ts) 100 a page by cursor, every supplier written as registers
 * write it (`BOARD COMPANY 7 LIMITED`), so each is matched by name with its legal ending and
 * becomes an event. At the production pace a run of P pages takes (P - 1) × 5 s + w.
 */
async function measureFindATender(context: Context, size: { companies: number }): Promise<SourceMeasurement> {
  const { stack, setup } = context;
  await unpaced(context);
  await ensureCompanies(context, size.companies);
  const awards = Math.max(100, Math.floor(size.companies / 5));
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  for (let n = 0; n < awards; n++) {
    const supplier = { id: `GB-PPON-BENCH-${n}`, name: `BOARD COMPANY ${n} LIMITED`, roles: ['supplier'] };
    setup.tenders.items.push(
      awardRelease({
        ocid: `ocds-h6vhtk-bench${String(n).padStart(6, '0')}`,
        id: `${String(n).padStart(6, '0')}-2026`,
        date: `${day}T09:00:00Z`,
        title: `Bench services ${n}`,
        buyer: { id: 'GB-SRS-bench', name: 'Bench Borough Council' },
        parties: [supplier, { id: 'GB-SRS-bench', name: 'Bench Borough Council', roles: ['buyer'] }],
        awards: [
          { id: '1', date: `${day}T00:00:00Z`, value: { amount: 10_000 + n, currency: 'GBP' }, suppliers: [supplier] },
        ],
      }),
    );
  }
  const memory = sampleMemory(stack);
  const read = await measureCycle(
    context,
    'find-a-tender',
    `first read, ${awards} award releases`,
    awards,
    0,
    () => setup.tenders.requests.length,
  );
  const { workerMB, peakMB } = memory.stop();
  const pages = Math.ceil(awards / RELEASES_PER_PAGE);
  const runS = ((pages - 1) * FIND_A_TENDER_INTERVAL_MS + read.elapsedMs) / 1000;
  return {
    source: 'find-a-tender',
    unit: 'awards',
    items: awards,
    byHost: { [FIND_A_TENDER_HOST]: pages },
    cycles: [read],
    requestsPerItem: read.requests / awards,
    workerMB,
    peakMB,
    projection: {
      intervalMs: FIND_A_TENDER_INTERVAL_MS,
      workMs: read.msPerItem,
      cycleS: runS,
      runNowS: runS,
      method:
        `one run of ${awards} award releases in ${pages} pages of ${RELEASES_PER_PAGE} at interval 0 took ${(read.elapsedMs / 1000).toFixed(1)} s; ` +
        `at Find a Tender's ${FIND_A_TENDER_INTERVAL_MS} ms between requests the pages add (pages - 1) × 5 s`,
    },
  };
}

const CONTRACTS_FINDER_HOST = 'www.contractsfinder.service.gov.uk';
const CONTRACTS_FINDER_PATH = '/Published/Notices/OCDS/Search';
/** Contracts Finder's own pace (CONTRACTS_FINDER_HOST_INTERVAL_MS): it answers 403 to quicker clients. */
const CONTRACTS_FINDER_INTERVAL_MS = 5000;
const USASPENDING_HOST = 'api.usaspending.gov';
const USASPENDING_PATH = '/api/v2/search/spending_by_award/';

/**
 * contracts-finder as find-a-tender: one run over award releases of the bench's companies (one
 * fifth), served 100 a page by cursor by a stand-in of its OCDS search (test/sources/tender-fixtures.ts),
 * each supplier written as registers write it and matched by name. At its 5 s between requests
 * a run of P pages takes (P - 1) × 5 s + w.
 */
async function measureContractsFinder(context: Context, size: { companies: number }): Promise<SourceMeasurement> {
  const { setup } = context;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const awards = Math.max(100, Math.floor(size.companies / 5));
  for (let n = 0; n < awards; n++) {
    const guid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const supplier = { id: `GB-CFS-B${n}`, name: `Board Company ${n} Ltd`, roles: ['supplier'] };
    const buyer = { id: 'GB-CFS-1', name: 'Bench Borough Council', roles: ['buyer'] };
    setup.contractsFinder.items.push(
      awardRelease({
        ocid: `ocds-b5fd17-${guid}`,
        id: `${guid}-${n}`,
        date: `${day}T11:05:27Z`,
        title: `Bench services ${n}`,
        parties: [buyer, supplier],
        awards: [
          {
            id: `${guid}-1`,
            status: 'active',
            date: `${day}T00:00:00Z`,
            value: { amount: 20_000 + n, currency: 'GBP' },
            suppliers: [{ id: supplier.id, name: supplier.name }],
          },
        ],
      }),
    );
  }
  return measureAwards(context, {
    source: 'contracts-finder',
    host: CONTRACTS_FINDER_HOST,
    publisher: setup.contractsFinder,
    awards,
    intervalMs: CONTRACTS_FINDER_INTERVAL_MS,
    pace: "Contracts Finder's",
  });
}

/**
 * usaspending: one run over contract awards to the bench's companies (one fifth), served 100 a
 * page (`page`, `hasNext`) by a stand-in of the award search; recipients written as FPDS writes
 * them (`BOARD COMPANY 7, INC.`) and matched by name. Paced as every host (1 s) in production.
 */
async function measureUsaspending(context: Context, size: { companies: number }): Promise<SourceMeasurement> {
  const { setup } = context;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const awards = Math.max(100, Math.floor(size.companies / 5));
  for (let n = 0; n < awards; n++) {
    setup.usaspending.items.push({
      'Award ID': `BENCH${String(n).padStart(6, '0')}`,
      'Recipient Name': `BOARD COMPANY ${n}, INC.`,
      'Award Amount': 150_000 + n,
      'Start Date': day,
      'Awarding Agency': 'General Services Administration',
      'Awarding Sub Agency': 'Federal Acquisition Service',
      Description: `BENCH SERVICES ${n}`,
      generated_internal_id: `CONT_AWD_BENCH${n}_4732_-NONE-_-NONE-`,
    });
  }
  return measureAwards(context, {
    source: 'usaspending',
    host: USASPENDING_HOST,
    publisher: setup.usaspending,
    awards,
    intervalMs: PRODUCTION_INTERVAL_MS,
    pace: 'the production',
  });
}

/** One run of an award source over its stand-in's awards, at interval 0, projected to the host's pace. */
async function measureAwards(
  context: Context,
  row: { source: string; host: string; publisher: PublisherServer; awards: number; intervalMs: number; pace: string },
): Promise<SourceMeasurement> {
  const { stack } = context;
  await unpaced(context);
  await ensureCompanies(context, row.awards * 5);
  const memory = sampleMemory(stack);
  const read = await measureCycle(
    context,
    row.source,
    `first read, ${row.awards} awards`,
    row.awards,
    0,
    () => row.publisher.requests.length,
  );
  const { workerMB, peakMB } = memory.stop();
  const pages = Math.max(1, read.requests);
  const runS = ((pages - 1) * row.intervalMs + read.elapsedMs) / 1000;
  return {
    source: row.source,
    unit: 'awards',
    items: row.awards,
    byHost: { [row.host]: pages },
    cycles: [read],
    requestsPerItem: read.requests / row.awards,
    workerMB,
    peakMB,
    projection: {
      intervalMs: row.intervalMs,
      workMs: read.msPerItem,
      cycleS: runS,
      runNowS: runS,
      method:
        `one run of ${row.awards} awards in ${read.requests} requests of up to ${RELEASES_PER_PAGE} at interval 0 took ${(read.elapsedMs / 1000).toFixed(1)} s ` +
        `(${read.recordsIngested} records); at ${row.pace} ${row.intervalMs} ms between requests the pages add (pages - 1) × ${row.intervalMs / 1000} s`,
    },
  };
}

const APPVIEW_HOST = 'public.api.bsky.app';
/** Likes and reposts on each watched account's one new post, by a pool of reactors. */
const BLUESKY_LIKES = 5;
const BLUESKY_REPOSTS = 2;
const BLUESKY_REACTORS = 400;
/** BLUESKY_INTERVAL's default: every watched account is read once an hour. */
const BLUESKY_RUN_MS = 3_600_000;

/**
 * bluesky over `blueskyAccounts` watched companies whose domains Bluesky verifies as handles,
 * each with one post of the day, liked 5 times and reposted twice by a pool of reactors, served
 * by the AppView stand-in of the tests (XRPC JSON with cursors): a first read (resolveHandle,
 * profile, feed, likes, reposts: 7 events an account) and a steady read (the handle known, nothing
 * new). The AppView is paced at 1 s like every host and shared by all workers, so a run takes
 * requests × 1 s; BLUESKY_INTERVAL (1 h) bounds how many accounts one run holds.
 */
async function measureBluesky(context: Context, size: { blueskyAccounts: number }): Promise<SourceMeasurement> {
  const { stack, db, setup, log } = context;
  await unpaced(context);
  const accounts = size.blueskyAccounts;
  const domain = (n: number) => `bskyco${n}.com`;
  await db.query(
    `INSERT INTO companies (id, name, name_key, domain)
     SELECT 'bench-bsky-co-' || g, 'Social Company ' || g, 'social company ' || g, 'bskyco' || g || '.com'
     FROM generate_series(0, $1::int - 1) g ON CONFLICT (id) DO NOTHING`,
    [accounts],
  );
  const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench bluesky', 10);
  const made = await callApi(`${stack.apiUrl}/api/v1/signals/account-watchlist`, {
    token: account.apiKey,
    body: {
      name: 'Bench social accounts',
      status: 'active',
      config: { companies: Array.from({ length: accounts }, (_, n) => domain(n)) },
    },
  });
  if (made.status !== 201) throw new Error(`create the bluesky watchlist: ${made.status} ${made.text.slice(0, 300)}`);
  const view = setup.appView;
  const reactors: Actor[] = Array.from({ length: BLUESKY_REACTORS }, (_, n) =>
    actor(view, `reactor${n}.bsky.social`, { displayName: `Reactor ${n} Person`, description: 'Builds things.' }),
  );
  const day = new Date(Date.now() - 3_600_000).toISOString();
  for (let n = 0; n < accounts; n++) {
    const author = actor(view, domain(n), { displayName: `Social Company ${n}` });
    view.domainHandles.set(domain(n), author.did);
    view.feeds.set(domain(n), [{ rkey: `3lbench${n}`, createdAt: day }]);
    const uri = `at://${author.did}/app.bsky.feed.post/3lbench${n}`;
    const pick = (k: number) => reactors[(n * 7 + k) % BLUESKY_REACTORS]!;
    view.likes.set(
      uri,
      Array.from({ length: BLUESKY_LIKES }, (_, k) => ({ actor: pick(k), createdAt: day })),
    );
    view.reposts.set(
      uri,
      Array.from({ length: BLUESKY_REPOSTS }, (_, k) => pick(BLUESKY_LIKES + k)),
    );
  }
  log(
    `  ${accounts} watched companies on Bluesky, ${BLUESKY_LIKES} likes and ${BLUESKY_REPOSTS} reposts of one post each`,
  );
  const memory = sampleMemory(stack);
  const requests = () => view.requests.length;
  const first = await measureCycle(context, 'bluesky', 'first read, 7 reactions an account', accounts, 0, requests);
  const steady = await measureCycle(context, 'bluesky', 'steady read, nothing new', accounts, 0, requests);
  const { workerMB, peakMB } = memory.stop();
  const steadyRequests = steady.requests / accounts;
  const perAccountMs = Math.max(steady.msPerItem, steadyRequests * PRODUCTION_INTERVAL_MS);
  const perRun = Math.floor(BLUESKY_RUN_MS / perAccountMs);
  return {
    source: 'bluesky',
    unit: 'accounts',
    items: accounts,
    byHost: { [APPVIEW_HOST]: accounts },
    cycles: [first, steady],
    requestsPerItem: steadyRequests,
    workerMB,
    peakMB,
    projection: {
      intervalMs: PRODUCTION_INTERVAL_MS,
      workMs: steady.msPerItem,
      cycleS: (accounts * perAccountMs) / 1000,
      runNowS: (accounts * (first.requests / accounts) * PRODUCTION_INTERVAL_MS) / 1000,
      method:
        `steady per-account time w = ${steady.msPerItem.toFixed(1)} ms for ${steadyRequests.toFixed(1)} requests (first read ${(first.requests / accounts).toFixed(1)}) at interval 0; ` +
        `at ${PRODUCTION_INTERVAL_MS} ms per request to ${APPVIEW_HOST}, shared by all workers, an account takes max(w, requests × 1 s): ` +
        `~${perRun} accounts (one new post each) per hourly run; each more post in the window adds 2 requests`,
    },
  };
}

/**
 * companies-house over REGISTER_APPOINTMENTS new directors, one at each of as many stored
 * companies: one run reads the officers stream (and the empty PSC stream), then per company its
 * profile, the officer's appointment list and the filing history. The REST host is paced at the
 * per-key limit (500 ms) in every phase, so the run is bound by it: a company takes its requests
 * × 500 ms, which the arrivals check (no two REST requests closer than 500 ms) confirms.
 */
async function measureCompaniesHouse(context: Context): Promise<SourceMeasurement> {
  const { db, setup, log, stack } = context;
  await db.query(
    `INSERT INTO companies (id, name, name_key, hq_country_code)
     SELECT 'bench-ch-co-' || g, $2 || g, lower($2) || g, 'GB' FROM generate_series(0, $1::int - 1) g`,
    [REGISTER_APPOINTMENTS, registerCompanyName(0).slice(0, -1)],
  );
  const memory = sampleMemory(stack);
  const run = await measureCycle(
    context,
    'companies-house',
    `${REGISTER_APPOINTMENTS} new directors at known companies`,
    REGISTER_APPOINTMENTS,
    REGISTER_INTERVAL_MS,
    () => setup.register.restArrivals.length,
  );
  const { workerMB, peakMB } = memory.stop();
  const host = hostCheck('api.company-information.service.gov.uk', setup.register.restArrivals, REGISTER_INTERVAL_MS);
  log(
    `  ${host.host}: ${host.requests} requests, smallest gap ${host.minGapMs.toFixed(1)} ms (per-key limit ${REGISTER_INTERVAL_MS}), ` +
      `${host.tooClose} closer than the limit less ${JITTER_MS} ms`,
  );
  const requestsPerItem = run.requests / run.items;
  const perItemMs = Math.max(run.msPerItem, requestsPerItem * REGISTER_INTERVAL_MS);
  // A 5-minute run holds this many new appointments' companies at the key's limit.
  const perRun = Math.floor((5 * 60_000) / perItemMs);
  return {
    source: 'companies-house',
    unit: 'new directors',
    items: REGISTER_APPOINTMENTS,
    byHost: { 'api.company-information.service.gov.uk': REGISTER_APPOINTMENTS },
    cycles: [run],
    requestsPerItem,
    paced: { cycle: run, expectedMsPerItem: requestsPerItem * REGISTER_INTERVAL_MS, hosts: [host] },
    workerMB,
    peakMB,
    projection: {
      intervalMs: REGISTER_INTERVAL_MS,
      workMs: run.msPerItem,
      cycleS: (REGISTER_APPOINTMENTS * perItemMs) / 1000,
      runNowS: (REGISTER_APPOINTMENTS * perItemMs) / 1000,
      method:
        `per company ${requestsPerItem.toFixed(1)} REST requests (profile, the officer's appointment list, filing history) ` +
        `at the per-key ${REGISTER_INTERVAL_MS} ms: ${perItemMs.toFixed(0)} ms per new director's company, ~${perRun} per 5-minute run ` +
        `(a company already linked skips its profile)`,
    },
  };
}

/**
 * sec-filings over one daily index of tender offers: each filing's header read and made two
 * companies and two deal events (the deal check at ingestion included). www.sec.gov is paced at
 * SEC's 100 ms whatever SOURCES_HOST_INTERVAL_MS says, so this run is the production pace itself;
 * the host check shows the requests never came closer.
 */
async function measureSecFilings(context: Context): Promise<SourceMeasurement> {
  const { stack, db, setup, log } = context;
  await db.query(
    `INSERT INTO sec_filings_index_days (day) VALUES ($1::date) ON CONFLICT (day) DO UPDATE SET read_at = NULL`,
    [setup.edgar.day],
  );
  setup.edgar.arrivals.length = 0;
  const memory = sampleMemory(stack);
  const read = await measureCycle(
    context,
    'sec-filings',
    'tender offers from a daily index',
    SEC_FILINGS,
    SEC_INTERVAL_MS,
    () => setup.edgar.arrivals.length,
  );
  const { workerMB, peakMB } = memory.stop();
  const host = hostCheck('www.sec.gov', setup.edgar.arrivals, SEC_INTERVAL_MS);
  log(
    `  www.sec.gov: ${host.requests} requests, smallest gap ${host.minGapMs.toFixed(1)} ms (interval ${SEC_INTERVAL_MS}), ` +
      `${host.tooClose} closer, busiest second ${host.busiestSecond}`,
  );
  const requestsPerItem = read.requests / read.items;
  const perItemMs = Math.max(read.msPerItem, requestsPerItem * SEC_INTERVAL_MS);
  return {
    source: 'sec-filings',
    unit: 'filings',
    items: SEC_FILINGS,
    byHost: { 'www.sec.gov': SEC_FILINGS },
    cycles: [read],
    requestsPerItem,
    paced: { cycle: read, expectedMsPerItem: perItemMs, hosts: [host] },
    workerMB,
    peakMB,
    projection: {
      intervalMs: SEC_INTERVAL_MS,
      workMs: read.msPerItem,
      cycleS: (SEC_FILINGS * perItemMs) / 1000,
      runNowS: (SEC_FILINGS * perItemMs) / 1000,
      method:
        `per-filing time w = ${read.msPerItem.toFixed(1)} ms for ${requestsPerItem.toFixed(2)} requests at SEC's ${SEC_INTERVAL_MS} ms for all workers; ` +
        `a filing takes max(w, requests × ${SEC_INTERVAL_MS} ms), filings one after another`,
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
  requestCount: () => number,
): Promise<CycleMeasurement> {
  const { stack, db, log } = context;
  const runNow = () =>
    call(`${stack.apiUrl}/admin/v1/sources/${source}/run`, { method: 'POST', token: stack.adminToken });
  // Read from the table the status endpoint reads, without asking Temporal each second for the next run.
  const status = async (): Promise<SourceStatusBody> => {
    const { rows } = await db.query(
      `SELECT coalesce((state->>'running')::boolean, false) AS running, last_run_finished_at::text AS finished,
              records_ingested::int AS records, errors_count::int AS errors
       FROM sources WHERE name = $1`,
      [source],
    );
    const row = rows[0] as { running: boolean; finished: string | null; records: number; errors: number } | undefined;
    if (!row) throw new Error(`no source ${source} in table sources`);
    return { running: row.running, lastRunFinishedAt: row.finished, recordsIngested: row.records, errors: row.errors };
  };
  await sleep(STATS_SETTLE_MS);
  const before = await status();
  const pgBefore = await postgresActivity(db);
  const requestsBefore = requestCount();
  const cpu = cpuReading(stack.cpuMeters());
  const started = performance.now();
  const triggered = await runNow();
  // Its answer describes the schedule after triggering it; on a loaded machine that may time out.
  if (triggered.status !== 200) {
    await sleep(5000);
    const after = await status();
    if (!after.running && after.lastRunFinishedAt === before.lastRunFinishedAt)
      await expectStatus(`POST /admin/v1/sources/${source}/run`, 200, runNow());
  }
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
      log(`  ${name}: ${requestCount() - requestsBefore} requests so far (${items} items)`);
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
    requests: requestCount() - requestsBefore,
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

const boardRequests = (standIns: BoardStandIns) => () =>
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
