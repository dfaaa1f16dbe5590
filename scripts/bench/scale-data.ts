/**
 * Scale data (issue #26): evaluation at real size on its own stack (interval 15 min, quick 1 min;
 * the worker's /metrics for the lag).
 *
 * 1. Signals first, on the empty store, through the API (status active; each evaluates once on
 *    activation and reads nothing): the four types in turn, typical configs (scale-data-store.ts
 *    shares), caps of 25–100 a day; 5 probes of each type have no cap, so every call reads.
 * 2. The store bulk-loaded in SQL to the first size, measured, then grown to the full one. The
 *    history is marked as changed before any horizon (`change_xid`), and after each load every
 *    signal is put in steady state, as its first full read would leave it: horizon at the
 *    current snapshot, `evaluated_at` now, its basis, no full read under way, no backlog. (The
 *    first full read is measured apart, on a sample, at the end.)
 * 3. One evaluation at each size: 5 rounds of one interval's arrivals, then one `produceBatch`
 *    (refresh and candidate query and production, the worker's own call) of each probe, timed.
 * 4. Arrivals through `POST /admin/v1/ingest` every 5 s: events of the history's kinds (3 % late,
 *    30–170 days old), a new person with each job change; 2 % as many people and companies
 *    updated in SQL, as sources write them. Rates 100,000 and 300,000 a day; the quick run
 *    compresses them ×15, so its 1-minute interval holds a 15-minute interval's arrivals.
 * 5. After a warm-up, one whole interval at each rate: lag (histogram difference), CPU per
 *    process, leads, worker memory. Then the worker is stopped and the same arrivals run for the
 *    baseline: PostgreSQL CPU on evaluations is the interval's less the baseline's.
 * 6. The first full read of a sample of each type (horizon cleared): its first evaluation
 *    (produceBatch until nothing waits or the cap), then the rest of its window page by page.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client as PgClient } from 'pg';
import type { DataSource } from 'typeorm';
import { COMPANY_SIZE_BANDS } from '../../src/catalogue/company-sizes';
import { countryName } from '../../src/catalogue/locations';
import { listPersonas } from '../../src/catalogue/personas';
import { Clock } from '../../src/clock';
import { Signal } from '../../src/db/entities/signal';
import { EvaluationBacklog } from '../../src/services/leads/evaluation-backlog';
import { LEADS_PER_BATCH } from '../../src/temporal/contract/signal';
import { openDatabase } from '../../src/db/data-source';
import { Credits } from '../../src/services/credits';
import { LeadProduction } from '../../src/services/leads/production';
import { cpuReading } from './cpu';
import { ArrivalStream, putInSteadyState, tracksChanges, waitForFirstEvaluations } from './arrival-stream';
import { call, createAccount, eachWithin, expectStatus, type BenchAccount } from './http';
import { lagHistogram, quantileBound, type Histogram } from './schedule';
import {
  COMMON_INDUSTRIES,
  COMMON_PERSONAS,
  COUNTRY_WEIGHTS,
  growStore,
  seededRandom,
  storeShape,
  type LoadTimes,
  type StoreSize,
} from './scale-data-store';
import { residentMB, type BenchStack } from './stack';
import { median, percentile } from './stats';

const DAY_MS = 86_400_000;
const FIFTEEN_MINUTES_MS = 15 * 60_000;
const CONCURRENCY = 20;
const SIGNALS_PER_ACCOUNT = 25;
const PROBE_ROUNDS = 5;
/** A sample signal's rest of the window is read for at most this long (reported as incomplete past it). */
const READ_TO_END_MAX_MS = 60_000;
/** Of each type's sample, this many also read the rest of their window; a type's sample stops after SAMPLE_TYPE_MAX_MS. */
const READ_TO_END_SIGNALS = 5;
const SAMPLE_TYPE_MAX_MS = 3 * 60_000;
const TYPES = ['job_changes', 'fundraising', 'hiring', 'account_watchlist'] as const;
type TypeId = (typeof TYPES)[number];
const CREATE_PATH: Record<TypeId, string> = {
  job_changes: 'job-changes',
  fundraising: 'fundraising',
  hiring: 'hiring',
  account_watchlist: 'account-watchlist',
};

export interface ScaleDataOptions {
  signals: number;
  intervalMs: number;
  /** The store after the first load, then after growing it. */
  stages: readonly StoreSize[];
  /** New events a day, and the rate of the second measured interval. */
  eventsPerDay: number;
  higherEventsPerDay: number;
  /** How many times faster than real time the arrivals come (the quick run's 1-minute interval gets a 15-minute share). */
  compression: number;
  warmupMs: number;
  baselineMs: number;
  probesPerType: number;
  fullReadSample: number;
  metricsUrl: string;
}

export interface ProbeStage {
  events: number;
  /** Median ms of one produceBatch per type, after one interval's share of arrivals. */
  medianMsByType: Record<string, number>;
  /** The fastest of each type: the least disturbed by other work on a shared machine. */
  minMsByType: Record<string, number>;
  /** The medians summed: one evaluation of each type. */
  sumMs: number;
  runsMs: number[];
  /** Rows the first round's arrivals brought back to a refresh, by branch. */
  reread: RereadRows;
}

export interface IntervalMeasurement {
  eventsPerDay: number;
  durationMs: number;
  arrivals: number;
  late: number;
  ingestP99Ms: number;
  evaluations: number;
  lagP50S: number;
  lagP99S: number;
  leads: number;
  /** CPU seconds per process over the interval. */
  cpu: Record<string, number>;
  postgresCorePct: number;
  workerCorePct: number;
  /** PostgreSQL % of one core with the worker stopped, arrivals at the same rate. */
  baselinePostgresCorePct?: number;
  /** The difference: what the evaluations (and the leads they produced) cost PostgreSQL. */
  evaluationPostgresCorePct?: number;
  workerMB: number;
}

export interface FullReadSample {
  type: string;
  signals: number;
  medianMs: number;
  maxMs: number;
  batches: number;
  leads: number;
  /** Reading the rest of the window after the first evaluation (refresh page by page), median per signal. */
  readToEndMedianMs: number;
  pages: number;
  /** Signals whose window was read to its end within the time allowed. */
  complete: number;
}

export interface ScaleDataResult {
  signals: number;
  byType: Record<string, number>;
  intervalMs: number;
  compression: number;
  /** Whether the service kept watermarks (incremental evaluation) and the signals were put in steady state after each load. */
  steadyState: boolean;
  createMs: number;
  stages: { size: StoreSize; load: LoadTimes }[];
  probes: ProbeStage[];
  /** Probe cost at the larger store over the smaller (sum of the per-type medians). */
  costRatio: number;
  intervals: IntervalMeasurement[];
  fullRead: FullReadSample[];
  fullReadPostgresCpuS: number;
  workerMB: number;
  peakMB: number;
  /** Projections from the measured intervals (see `projections`). */
  projection: {
    postgresMsPerEvaluation: number;
    postgresMsPerEvaluationHigherRate: number;
    workerMsPerEvaluation: number;
    signalsPer15MinAtQuarterCore: number;
    signalsPer15MinPerWorkerCore: number;
    postgresMsPerEvaluationPer100kEventsPerDay: number;
  };
}

interface BenchSignal {
  id: string;
  type: TypeId;
  probe: boolean;
}

/** A typical config of each type: a few personas or keywords, an industry or two, size bands, a country. */
function configOf(type: TypeId, random: () => number, companies: number): Record<string, unknown> {
  const pick = <T>(array: readonly T[]) => array[Math.floor(random() * array.length)]!;
  const some = <T>(array: readonly T[], min: number, max: number) => {
    const n = min + Math.floor(random() * (max - min + 1));
    return [...new Set(Array.from({ length: n }, () => pick(array)))];
  };
  const personas = listPersonas().map((p) => p.name);
  const persona = () => (random() < 0.8 ? pick(COMMON_PERSONAS) : pick(personas));
  const countries = COUNTRY_WEIGHTS.flatMap(([code, weight]) => Array<string>(weight).fill(code));
  const country = () => countryName(pick(countries)) ?? 'United States';
  const bandAt = 1 + Math.floor(random() * 6);
  const sizes = COMPANY_SIZE_BANDS.slice(bandAt, bandAt + 2 + Math.floor(random() * 2));
  const industries = some(COMMON_INDUSTRIES, 1, 2);
  switch (type) {
    case 'job_changes':
      return {
        jobTitles: Array.from(new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, persona))),
        companySizeFilters: sizes,
        industryFilters: industries,
        locations: [country()],
      };
    case 'fundraising':
      return {
        industryFilters: industries,
        locations: [country()],
        ...(random() < 0.5 ? { fundingStages: some(['Seed', 'Series A', 'Series B', 'Series C'], 1, 3) } : {}),
        ...(random() < 0.5 ? { targetPersonas: [persona()] } : {}),
      };
    case 'hiring':
      return {
        keywords: some(
          ['engineer', 'sales', 'data', 'marketing', 'product', 'Python', 'Kubernetes', 'Salesforce'],
          1,
          3,
        ),
        industryFilters: industries,
        locations: [country()],
      };
    case 'account_watchlist':
      return {
        companies: Array.from(
          new Set(
            Array.from(
              { length: 20 + Math.floor(random() * 181) },
              () => `sdco${Math.floor(random() * companies)}.com`,
            ),
          ),
        ),
      };
  }
}

/** The worker's lag histogram now. */
async function scrape(metricsUrl: string): Promise<Histogram> {
  return lagHistogram(await (await fetch(metricsUrl)).text());
}

/** Observations between two scrapes of a cumulative histogram. */
function between(before: Histogram, after: Histogram): Histogram {
  return {
    buckets: after.buckets.map((b) => ({
      le: b.le,
      count: b.count - (before.buckets.find((o) => o.le === b.le)?.count ?? 0),
    })),
    count: after.count - before.count,
  };
}

export async function runScaleData(
  stack: BenchStack,
  db: PgClient,
  options: ScaleDataOptions,
  log: (line: string) => void,
): Promise<ScaleDataResult> {
  const worker = stack.worker!;
  let [workerMB, peakMB] = [0, 0];
  const sampler = setInterval(() => {
    const reading = residentMB(worker.pid);
    if (reading) [workerMB, peakMB] = [reading.rss, Math.max(peakMB, reading.rss)];
  }, 5_000);
  const dataSource = await openDatabase(stack.databaseUrl, 4);
  const shape = storeShape();
  const [small, large] = [options.stages[0]!, options.stages[options.stages.length - 1]!];
  try {
    const steady = await tracksChanges(db);
    log(`  incremental evaluation ${steady ? 'present: signals are put in steady state after each load' : 'absent'}`);

    // Signals first, on an empty store: their activation evaluations read nothing.
    const { signals, createMs } = await createSignals(stack, options, large.companies, log);
    await waitForFirstEvaluations(db, 'Bench scale data', signals.length, log);

    const stages: ScaleDataResult['stages'] = [];
    const probes: ProbeStage[] = [];
    const production = new LeadProduction(dataSource, new Credits(dataSource), new Clock());
    const probeSignals = signals.filter((s) => s.probe);
    const perInterval = Math.round((options.eventsPerDay * options.intervalMs * options.compression) / DAY_MS);
    let from: StoreSize = { companies: 0, people: 0, events: 0 };
    for (const size of [small, large]) {
      log(`  loading to ${size.events.toLocaleString('en-US')} events, ${size.people.toLocaleString('en-US')} people`);
      const load = await growStore(db, shape, from, size, steady, log);
      stages.push({ size, load });
      from = size;
      log(
        `  loaded: companies ${(load.companiesMs / 1000).toFixed(1)} s, people ${(load.peopleMs / 1000).toFixed(1)} s, ` +
          `events ${(load.eventsMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(load.vacuumMs / 1000).toFixed(1)} s`,
      );
      if (steady)
        await putInSteadyState(
          db,
          dataSource,
          signals.map((s) => s.id),
        );
      const arrivals = new ArrivalStream(stack, db, shape, size, log);
      arrivals.seq.next = probes.length * 1_000_000;
      probes.push(await probe(db, production, probeSignals, arrivals, perInterval, size.events, log));
    }
    const costRatio = probes[1]!.sumMs / probes[0]!.sumMs;
    log(
      `  one evaluation of each type: ${probes.map((p) => `${p.sumMs.toFixed(1)} ms`).join(' → ')} (×${costRatio.toFixed(2)})`,
    );

    // Continuous arrivals: warm-up, then one whole interval at each rate.
    const arrivals = new ArrivalStream(stack, db, shape, large, log);
    arrivals.seq.next = 10_000_000;
    arrivals.setRate(options.eventsPerDay, options.compression);
    arrivals.start();
    const intervals: IntervalMeasurement[] = [];
    try {
      log(
        `  arrivals at ${options.eventsPerDay.toLocaleString('en-US')}/day ×${options.compression}; warm-up ${options.warmupMs / 1000} s`,
      );
      await sleep(options.warmupMs);
      for (const perDay of [options.eventsPerDay, options.higherEventsPerDay]) {
        arrivals.setRate(perDay, options.compression);
        intervals.push(await measureInterval(stack, db, arrivals, perDay, options, () => workerMB, log));
      }
      // The baseline: the same arrivals with the worker stopped (no evaluation, no lead).
      log('  worker stopped: ingest-only baseline');
      await stack.worker!.stop();
      for (const interval of intervals) {
        arrivals.setRate(interval.eventsPerDay, options.compression);
        const reading = cpuReading(stack.cpuMeters());
        const started = performance.now();
        await sleep(options.baselineMs);
        const seconds = (performance.now() - started) / 1000;
        interval.baselinePostgresCorePct = ((reading.since().PostgreSQL ?? NaN) * 100) / seconds;
        interval.evaluationPostgresCorePct = interval.postgresCorePct - interval.baselinePostgresCorePct;
        log(
          `  baseline at ${interval.eventsPerDay.toLocaleString('en-US')}/day: PostgreSQL ${interval.baselinePostgresCorePct.toFixed(1)} % of a core; ` +
            `evaluations ${interval.evaluationPostgresCorePct.toFixed(1)} %`,
        );
      }
    } finally {
      await arrivals.stop();
    }
    log(`  ${arrivals.events} events arrived (${arrivals.late} late), ${arrivals.failures} failed ingest calls`);

    const fullReadStarted = cpuReading(stack.cpuMeters());
    const fullRead = await sampleFullReads(db, dataSource, production, signals, options.fullReadSample, steady, log);
    const fullReadPostgresCpuS = fullReadStarted.since().PostgreSQL ?? NaN;

    const byType = Object.fromEntries(TYPES.map((t) => [t, signals.filter((s) => s.type === t).length]));
    return {
      signals: signals.length,
      byType,
      intervalMs: options.intervalMs,
      compression: options.compression,
      steadyState: steady,
      createMs,
      stages,
      probes,
      costRatio,
      intervals,
      fullRead,
      fullReadPostgresCpuS,
      workerMB,
      peakMB,
      projection: projections(intervals),
    };
  } finally {
    clearInterval(sampler);
    await dataSource.destroy();
  }
}

async function createSignals(
  stack: BenchStack,
  options: ScaleDataOptions,
  companies: number,
  log: (line: string) => void,
): Promise<{ signals: BenchSignal[]; createMs: number }> {
  const started = performance.now();
  const accounts: BenchAccount[] = [];
  for (let i = 0; i < Math.ceil(options.signals / SIGNALS_PER_ACCOUNT); i++)
    accounts.push(await createAccount(stack.apiUrl, stack.adminToken, `Bench scale data ${i}`, 1_000_000));
  const random = seededRandom(2026);
  const plans = Array.from({ length: options.signals }, (_, i) => {
    const type = TYPES[i % TYPES.length]!;
    const probe = i < options.probesPerType * TYPES.length;
    // Probes never reach a cap, so each of their evaluations reads; the others cap at 25–100 a day.
    const dailyLeadLimit = probe ? 999_999 : 25 + Math.floor(random() * 76);
    return {
      type,
      probe,
      dailyLeadLimit,
      config: configOf(type, random, companies),
      account: accounts[i % accounts.length]!,
    };
  });
  const signals: BenchSignal[] = [];
  await eachWithin(plans, CONCURRENCY, async (plan, i) => {
    const created = await expectStatus<{ id: string }>(
      `create ${plan.type} signal`,
      201,
      call(`${stack.apiUrl}/api/v1/signals/${CREATE_PATH[plan.type]}`, {
        token: plan.account.apiKey,
        body: {
          name: `Bench scale data ${i}`,
          config: plan.config,
          status: 'active',
          dailyLeadLimit: plan.dailyLeadLimit,
        },
      }),
    );
    signals[i] = { id: created.id, type: plan.type, probe: plan.probe };
    if ((i + 1) % 1000 === 0) log(`  ${i + 1} signals created`);
  });
  const createMs = performance.now() - started;
  log(`  ${signals.length} active signals in ${accounts.length} accounts created in ${(createMs / 1000).toFixed(1)} s`);
  return { signals, createMs };
}

/**
 * The cost of one evaluation: each probe brought up to date, then for each round one interval's
 * share of arrivals ingested and one `produceBatch` of each probe timed (the worker's own call).
 */
async function probe(
  db: PgClient,
  production: LeadProduction,
  probes: BenchSignal[],
  arrivals: ArrivalStream,
  perInterval: number,
  events: number,
  log: (line: string) => void,
): Promise<ProbeStage> {
  for (const signal of probes) await drain(production, signal.id, 200);
  const byType = new Map<string, number[]>();
  const runsMs: number[] = [];
  let reread: RereadRows | undefined;
  for (let round = 0; round < PROBE_ROUNDS; round++) {
    const { rows } = await db.query<{ xid: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid`);
    await arrivals.send(perInterval);
    if (round === 0) reread = await rereadRows(db, rows[0]!.xid);
    for (const signal of probes) {
      const started = performance.now();
      await production.produceBatch(signal.id);
      const elapsed = performance.now() - started;
      runsMs.push(elapsed);
      byType.set(signal.type, [...(byType.get(signal.type) ?? []), elapsed]);
    }
  }
  const medianMsByType = Object.fromEntries([...byType].map(([type, ms]) => [type, median(ms)]));
  const minMsByType = Object.fromEntries([...byType].map(([type, ms]) => [type, Math.min(...ms)]));
  const sumMs = Object.values(medianMsByType).reduce((sum, ms) => sum + ms, 0);
  log(
    `  ${events.toLocaleString('en-US')} events: one evaluation after ${perInterval} arrivals, medians ` +
      Object.entries(medianMsByType)
        .map(([type, ms]) => `${type} ${ms.toFixed(1)} ms`)
        .join(', '),
  );
  log(
    `  rows one interval's arrivals bring back to a refresh: ${Object.entries(reread ?? {})
      .map(([branch, n]) => `${branch} ${n}`)
      .join(', ')}`,
  );
  return { events, medianMsByType, minMsByType, sumMs, runsMs, reread: reread! };
}

/**
 * Events one interval's arrivals bring back to a refresh, by the way they come back (180-day
 * window), before the refresh keeps only the plan's kinds and nameable people: how the re-read
 * grows with events per company.
 */
export interface RereadRows {
  changedEvents: number;
  eventsOfChangedCompanies: number;
  eventsOfChangedPeople: number;
  /** With persona targeting: every event at the company of a changed (or new) person. */
  eventsAtCompaniesOfChangedPeople: number;
}

async function rereadRows(db: PgClient, xid: string): Promise<RereadRows> {
  const count = async (sql: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, [xid])).rows[0]!.n;
  const recent = `e.occurred_at >= now() - interval '180 days'`;
  return {
    changedEvents: await count(`SELECT 1 FROM events e WHERE e.change_xid >= $1::xid8`),
    eventsOfChangedCompanies: await count(
      `SELECT 1 FROM companies x JOIN events e ON e.company_id = x.id WHERE x.change_xid >= $1::xid8 AND ${recent}`,
    ),
    eventsOfChangedPeople: await count(
      `SELECT 1 FROM people x JOIN events e ON e.person_id = x.id WHERE x.change_xid >= $1::xid8 AND ${recent}`,
    ),
    eventsAtCompaniesOfChangedPeople: await count(
      `SELECT 1 FROM people x JOIN events e ON e.company_id = x.company_id WHERE x.change_xid >= $1::xid8 AND ${recent}`,
    ),
  };
}

/** produceBatch until nothing more waits (or `max` batches); answers batches and leads. */
async function drain(production: LeadProduction, id: string, max: number): Promise<{ batches: number; leads: number }> {
  let [batches, leads] = [0, 0];
  for (;;) {
    const batch = await production.produceBatch(id);
    batches++;
    leads += batch.produced;
    if (!batch.more || batches >= max) return { batches, leads };
  }
}

async function measureInterval(
  stack: BenchStack,
  db: PgClient,
  arrivals: ArrivalStream,
  perDay: number,
  options: ScaleDataOptions,
  rss: () => number,
  log: (line: string) => void,
): Promise<IntervalMeasurement> {
  const before = await scrape(options.metricsUrl);
  const reading = cpuReading(stack.cpuMeters());
  const [events, late, requests] = [arrivals.events, arrivals.late, arrivals.latenciesMs.length];
  const startedAt = new Date();
  const started = performance.now();
  await sleep(options.intervalMs);
  const seconds = (performance.now() - started) / 1000;
  const cpu = reading.since();
  const lag = between(before, await scrape(options.metricsUrl));
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE created_at >= $1`, [
    startedAt,
  ]);
  const result: IntervalMeasurement = {
    eventsPerDay: perDay,
    durationMs: seconds * 1000,
    arrivals: arrivals.events - events,
    late: arrivals.late - late,
    ingestP99Ms: percentile(arrivals.latenciesMs.slice(requests), 99),
    evaluations: lag.count,
    lagP50S: quantileBound(lag, 0.5),
    lagP99S: quantileBound(lag, 0.99),
    leads: rows[0]!.n,
    cpu,
    postgresCorePct: ((cpu.PostgreSQL ?? NaN) * 100) / seconds,
    workerCorePct: ((cpu.worker ?? NaN) * 100) / seconds,
    workerMB: rss(),
  };
  log(
    `  interval at ${perDay.toLocaleString('en-US')}/day: ${result.arrivals} arrivals, ${result.evaluations} evaluations, ` +
      `lag p50 ≤ ${result.lagP50S} s, p99 ≤ ${result.lagP99S} s; ${result.leads} leads; PostgreSQL ${result.postgresCorePct.toFixed(1)} %, ` +
      `worker ${result.workerCorePct.toFixed(1)} % of a core; worker ${result.workerMB.toFixed(0)} MB`,
  );
  return result;
}

/**
 * The first full read of a sample of each type, with the worker stopped: each signal made new
 * (horizon cleared), then its first evaluation as the worker runs it (produceBatch until
 * nothing more waits or the day's cap), then the rest of its window read page by page.
 */
async function sampleFullReads(
  db: PgClient,
  dataSource: DataSource,
  production: LeadProduction,
  signals: BenchSignal[],
  perType: number,
  steady: boolean,
  log: (line: string) => void,
): Promise<FullReadSample[]> {
  const samples: FullReadSample[] = [];
  for (const type of TYPES) {
    const chosen = signals.filter((s) => s.type === type && !s.probe).slice(0, perType);
    if (steady)
      await clearWatermarks(
        db,
        chosen.map((s) => s.id),
      );
    const [times, rest] = [[] as number[], [] as number[]];
    let [batches, leads, pages, complete] = [0, 0, 0, 0];
    const typeStarted = performance.now();
    let sampled = 0;
    for (const signal of chosen) {
      if (performance.now() - typeStarted > SAMPLE_TYPE_MAX_MS) break;
      sampled++;
      const started = performance.now();
      const drained = await drain(production, signal.id, 500);
      times.push(performance.now() - started);
      batches += drained.batches;
      leads += drained.leads;
      if (steady && sampled <= READ_TO_END_SIGNALS) {
        const read = await readToEnd(dataSource, signal.id);
        rest.push(read.ms);
        pages += read.pages;
        if (read.complete) complete++;
      }
    }
    samples.push({
      type,
      signals: sampled,
      medianMs: median(times),
      maxMs: Math.max(...times),
      batches,
      leads,
      readToEndMedianMs: median(rest),
      pages,
      complete,
    });
    log(
      `  first full read, ${type}: ${sampled} signals, first evaluation median ${median(times).toFixed(0)} ms ` +
        `(max ${Math.max(...times).toFixed(0)} ms, ${batches} batches, ${leads} leads); rest of the window median ` +
        `${median(rest).toFixed(0)} ms in ${pages} pages (${complete} of ${rest.length} to the end)`,
    );
  }
  return samples;
}

/** The signals as new: no horizon, so their next evaluation reads the whole window. */
async function clearWatermarks(db: PgClient, ids: string[]): Promise<void> {
  await db.query(
    `UPDATE signals SET evaluated_xid = NULL, evaluated_at = NULL, evaluation_basis = NULL, full_read_at = NULL,
       full_read_event_id = NULL WHERE id = ANY($1::uuid[])`,
    [ids],
  );
}

/**
 * The rest of the window after the first evaluation stopped (at the cap): the full read's
 * pages moved into the backlog one refresh at a time, as the next days' evaluations would.
 */
async function readToEnd(
  dataSource: DataSource,
  id: string,
): Promise<{ ms: number; pages: number; complete: boolean }> {
  const backlog = new EvaluationBacklog(dataSource);
  const signal = (await dataSource.getRepository(Signal).findOneBy({ id }))!;
  const started = performance.now();
  let pages = 0;
  for (;;) {
    const read = await backlog.refresh(signal, new Date(), LEADS_PER_BATCH);
    pages++;
    const ms = performance.now() - started;
    if (!read.upTo || ms > READ_TO_END_MAX_MS) return { ms, pages, complete: !read.upTo };
  }
}

/**
 * What one more signal and one more event a day cost. Each measured interval holds a 15-minute
 * interval's arrivals (compressed in the quick run), so per evaluation the costs are those of a
 * 15-minute interval: PostgreSQL (less the ingest-only baseline) and worker CPU per evaluation at
 * both rates, the signals every 15 minutes that fill a quarter of a PostgreSQL core and a whole
 * worker core, and the PostgreSQL ms per evaluation that 100,000 more events a day add.
 */
function projections(intervals: IntervalMeasurement[]): ScaleDataResult['projection'] {
  const perEvaluation = (i: IntervalMeasurement | undefined) =>
    i
      ? ((i.evaluationPostgresCorePct ?? i.postgresCorePct) * 10 * (i.durationMs / 1000)) / Math.max(1, i.evaluations)
      : NaN;
  const [base, higher] = intervals;
  const postgresMsPerEvaluation = perEvaluation(base);
  const higherMs = perEvaluation(higher);
  const workerMsPerEvaluation = base ? ((base.cpu.worker ?? NaN) * 1000) / Math.max(1, base.evaluations) : NaN;
  const extraPer100k =
    base && higher ? ((higherMs - postgresMsPerEvaluation) * 100_000) / (higher.eventsPerDay - base.eventsPerDay) : NaN;
  return {
    postgresMsPerEvaluation,
    postgresMsPerEvaluationHigherRate: higherMs,
    workerMsPerEvaluation,
    signalsPer15MinAtQuarterCore: (0.25 * FIFTEEN_MINUTES_MS) / postgresMsPerEvaluation,
    signalsPer15MinPerWorkerCore: FIFTEEN_MINUTES_MS / workerMsPerEvaluation,
    postgresMsPerEvaluationPer100kEventsPerDay: extraPer100k,
  };
}
