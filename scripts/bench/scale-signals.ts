/**
 * Scale signals (issue #36): many active signals of every registered type on one worker, a
 * large store, new events through the ingest endpoint; on its own stack, the evaluation
 * interval left at the service's default. It measures whatever the service does (timed
 * evaluation or wake-on-arrival) and depends on neither.
 *
 * 1. Signals first, on the empty store (activation reads nothing), each account's webhook its
 *    own path on one verifying receiver; configs as selective as real ones (one persona or
 *    keyword and a country, a watchlist of 0.1–1 % of the companies), caps of 25–100 a day.
 * 2. The store bulk-loaded (scale-data-store.ts) and every signal put in steady state.
 * 3. One arrival window at each rate (real rates; the quick run's windows are shorter): CPU
 *    per process, worker memory, Temporal rows. Each event's ingest is timed when the endpoint
 *    answered; the receiver times each lead; leads.event_id joins the two exactly.
 * 4. A drain, then a closing evaluation of every signal (the operator's evaluate endpoint): what
 *    no wake or timer has found by then is found now, so each signal's share of the arrivals it
 *    matches is exact, and a lead found only then counts with its latency up to that moment (a
 *    lower bound).
 * 5. An idle window, nothing arriving and nothing pending: the CPU and Temporal rows idle signals cost.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client as PgClient } from 'pg';
import { countryName } from '../../src/catalogue/locations';
import { SIGNAL_TYPES } from '../../src/signal-types/registry';
import { signalWorkflowId } from '../../src/temporal/contract/signal';
import { leadWorkflowId } from '../../src/temporal/contract/lead';
import { openDatabase } from '../../src/db/data-source';
import { ArrivalStream, putInSteadyState, tracksChanges, waitForFirstEvaluations } from './arrival-stream';
import { cpuReading } from './cpu';
import { call, createAccount, eachWithin, expectStatus, type BenchAccount } from './http';
import type { BenchReceiver } from './receiver';
import { COMMON_PERSONAS, growStore, seededRandom, storeShape, type StoreSize } from './scale-data-store';
import { residentMB, type BenchStack } from './stack';
import { mean, median, percentile } from './stats';

const DAY_MS = 86_400_000;
const CONCURRENCY = 20;
const SIGNALS_PER_ACCOUNT = 100;
const NAME = 'Bench scale signals';
/** The processes whose CPU the idle target counts together. */
const SERVICE_PROCESSES = ['Temporal server', 'worker', 'PostgreSQL'] as const;
/** Countries a config names: the larger markets, so one persona or keyword and a country match 0.1–1 %. */
const CONFIG_COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IN', 'CA', 'BR'];
const HIRING_KEYWORDS = ['data', 'sales', 'product', 'marketing', 'engineer', 'Python', 'Salesforce'];

export interface ScaleSignalsOptions {
  signals: number;
  store: StoreSize;
  /** New events a day in each arrival window, lower first. */
  eventsPerDay: readonly number[];
  /** Each arrival window (real rates; the quick run's windows are shorter). */
  windowMs: number;
  /** After the arrivals, before the idle window. */
  drainMs: number;
  idleMs: number;
  /** Signal workflows whose history length is read at each mark. */
  historySample: number;
  /** How long the closing evaluation's leads may take to arrive. */
  closingWaitMs: number;
}

/** Temporal's rows over a span, per signal per day at the span's rate. */
export interface TemporalRows {
  /** Executions started (one visibility row each), per signal per day. */
  visibilityRowsPerSignalDay: number;
  /** History events of the sampled signal workflows, per signal per day. */
  signalHistoryPerSignalDay: number;
  /** History events of the lead workflows started, per signal per day (their mean length from a sample). */
  leadHistoryPerSignalDay: number;
  executionsStarted: number;
}

export interface ArrivalWindow {
  eventsPerDay: number;
  durationMs: number;
  arrivals: number;
  ingestP99Ms: number;
  /** CPU seconds per process over the window. */
  cpu: Record<string, number>;
  postgresCorePct: number;
  workerCorePct: number;
  servicesCorePct: number;
  workerMB: number;
  workerPeakMB: number;
  temporal: TemporalRows;
}

export interface Latency {
  leads: number;
  p50S: number;
  p99S: number;
  maxS: number;
  /** Leads first found by the closing evaluation (their latency is a lower bound). */
  foundAtClose: number;
}

export interface ScaleSignalsResult {
  signals: number;
  byType: Record<string, number>;
  store: StoreSize;
  /** The evaluation interval the service ran with (its default). */
  evaluationInterval: string;
  steadyState: boolean;
  createMs: number;
  loadMs: number;
  windows: ArrivalWindow[];
  idle: { durationMs: number; cpu: Record<string, number>; servicesCorePct: number; temporal: TemporalRows };
  /** Whether every lead had arrived before the idle window (if not, deliveries ran into it). */
  closingSettled: boolean;
  /** Event ingested (endpoint answered) → lead received, overall and by the window the event arrived in. */
  latency: Latency;
  latencyByRate: (Latency & { eventsPerDay: number })[];
  /** Each uncapped signal's matched share of the arrivals, by type (median, p10, p90) and overall. */
  share: {
    signals: number;
    inRange: number;
    /** The mean: a quick run's few arrivals leave many signals at 0 or 1 match, so the median is coarse. */
    mean: number;
    median: number;
    p10: number;
    p90: number;
    byType: Record<string, { signals: number; mean: number; median: number }>;
  };
  leadsOfArrivals: number;
  received: number;
  refused: number;
  workerMB: number;
  peakMB: number;
}

interface BenchSignal {
  id: string;
  type: string;
}

/** A config as selective as a real one: each matches about 0.1–1 % of the events. */
function configOf(type: string, random: () => number, companies: number): Record<string, unknown> {
  const pick = <T>(array: readonly T[]) => array[Math.floor(random() * array.length)]!;
  const country = () => countryName(pick(CONFIG_COUNTRIES)) ?? 'United States';
  switch (type) {
    case 'job_changes':
      return {
        jobTitles: [...new Set(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(COMMON_PERSONAS)))],
        locations: [country()],
      };
    case 'fundraising':
      return {
        locations: [country()],
        ...(random() < 0.5 ? { fundingStages: [pick(['Seed', 'Series A', 'Series B', 'Series C'])] } : {}),
      };
    case 'hiring':
      return { keywords: [pick(HIRING_KEYWORDS)], locations: [country()] };
    case 'account_watchlist': {
      // Events spread evenly over companies: a watchlist of 0.1–1 % of them matches that share.
      const size = Math.max(5, Math.round(companies * (0.001 + random() * 0.009)));
      return {
        companies: [...new Set(Array.from({ length: size }, () => `sdco${Math.floor(random() * companies)}.com`))],
      };
    }
    case 'account_score':
      return { locations: [country()] };
    default:
      // A type registered after this bench was written: its defaults (the share shows how selective).
      return {};
  }
}

/** History length of a signal workflow now (its run, so a continue-as-new is followed). */
async function historyMark(stack: BenchStack, ids: string[]): Promise<Map<string, { runId: string; length: number }>> {
  const marks = new Map<string, { runId: string; length: number }>();
  await eachWithin(ids, 10, async (id) => {
    try {
      const d = await stack.temporal!.workflow.getHandle(signalWorkflowId(id)).describe();
      marks.set(id, { runId: d.runId, length: d.historyLength });
    } catch {
      // Not running (a signal that ended): left out of the sample.
    }
  });
  return marks;
}

/** History events the sampled signals' workflows added between two marks (a continue-as-new: the old run's rest plus the new run). */
async function historyGrowth(
  stack: BenchStack,
  before: Map<string, { runId: string; length: number }>,
  after: Map<string, { runId: string; length: number }>,
): Promise<number> {
  let events = 0;
  let counted = 0;
  for (const [id, a] of before) {
    const b = after.get(id);
    if (!b) continue;
    counted++;
    if (a.runId === b.runId) events += b.length - a.length;
    else {
      const old = await stack.temporal!.workflow.getHandle(signalWorkflowId(id), a.runId).describe();
      events += old.historyLength - a.length + b.length;
    }
  }
  return counted ? events / counted : NaN;
}

/** Temporal's rows between `from` (wall clock) and now, for `signals` signals over `ms`. */
async function temporalRows(
  stack: BenchStack,
  db: PgClient,
  signals: BenchSignal[],
  sample: string[],
  from: { at: Date; marks: Map<string, { runId: string; length: number }> },
  ms: number,
): Promise<TemporalRows> {
  const perSignalDay = (n: number) => (n * DAY_MS) / ms / signals.length;
  // The visibility store's count of executions started since; NaN (logged) where the query is not supported.
  const count = await stack
    .temporal!.workflow.count(`StartTime >= "${from.at.toISOString()}"`)
    .then((c) => c.count)
    .catch((err: unknown) => {
      console.warn(`[bench] counting executions: ${(err as Error).message}`);
      return NaN;
    });
  const signalEvents = await historyGrowth(stack, from.marks, await historyMark(stack, sample));
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM leads WHERE created_at >= $1 ORDER BY created_at LIMIT 20`,
    [from.at],
  );
  const { rows: made } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE created_at >= $1`, [
    from.at,
  ]);
  const lengths: number[] = [];
  for (const { id } of rows) {
    try {
      lengths.push((await stack.temporal!.workflow.getHandle(leadWorkflowId(id)).describe()).historyLength);
    } catch {
      // A lead without a workflow of its own (none expected): not in the mean.
    }
  }
  const meanLead = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 0;
  return {
    visibilityRowsPerSignalDay: perSignalDay(count),
    signalHistoryPerSignalDay: (signalEvents * DAY_MS) / ms,
    leadHistoryPerSignalDay: perSignalDay(made[0]!.n * meanLead),
    executionsStarted: count,
  };
}

export async function runScaleSignals(
  stack: BenchStack,
  db: PgClient,
  receiver: BenchReceiver,
  options: ScaleSignalsOptions,
  log: (line: string) => void,
): Promise<ScaleSignalsResult> {
  const worker = stack.worker!;
  let [workerMB, peakMB, windowPeakMB] = [0, 0, 0];
  const sampler = setInterval(() => {
    const reading = residentMB(worker.pid);
    if (reading) {
      [workerMB, peakMB] = [reading.rss, Math.max(peakMB, reading.rss)];
      windowPeakMB = Math.max(windowPeakMB, reading.rss);
    }
  }, 5_000);
  const dataSource = await openDatabase(stack.databaseUrl, 2);
  const shape = storeShape();
  const evaluationInterval = stack.serviceEnv.SIGNAL_EVALUATION_INTERVAL ?? 'the service default';
  try {
    const steady = await tracksChanges(db);
    const { signals, createMs } = await createSignals(stack, receiver, options, log);
    await waitForFirstEvaluations(db, NAME, signals.length, log);

    log(`  loading the store to ${options.store.events.toLocaleString('en-US')} events`);
    const load = await growStore(db, shape, { companies: 0, people: 0, events: 0 }, options.store, steady, log);
    const loadMs = load.companiesMs + load.peopleMs + load.eventsMs + load.vacuumMs;
    if (steady)
      await putInSteadyState(
        db,
        dataSource,
        signals.map((s) => s.id),
      );
    log(`  store loaded in ${(loadMs / 1000).toFixed(0)} s; signals in steady state: ${steady}`);

    // Each event's ingest, timed when the endpoint answered, and the window it arrived in.
    const ingested = new Map<string, { at: number; window: number }>();
    let windowIndex = 0;
    const arrivals = new ArrivalStream(stack, db, shape, options.store, log);
    arrivals.seq.next = 10_000_000;
    arrivals.onIngested = (ids, at) => {
      for (const id of ids) ingested.set(id, { at, window: windowIndex });
    };
    const sample = signals.slice(0, options.historySample).map((s) => s.id);
    const windows: ArrivalWindow[] = [];
    try {
      for (const [index, perDay] of options.eventsPerDay.entries()) {
        windowIndex = index;
        arrivals.setRate(perDay, 1);
        if (index === 0) arrivals.start();
        const mark = { at: new Date(), marks: await historyMark(stack, sample) };
        const reading = cpuReading(stack.cpuMeters());
        const [events, requests] = [arrivals.events, arrivals.latenciesMs.length];
        windowPeakMB = 0;
        const started = performance.now();
        await sleep(options.windowMs);
        const ms = performance.now() - started;
        const cpu = reading.since();
        const window: ArrivalWindow = {
          eventsPerDay: perDay,
          durationMs: ms,
          arrivals: arrivals.events - events,
          ingestP99Ms: percentile(arrivals.latenciesMs.slice(requests), 99),
          cpu,
          postgresCorePct: ((cpu.PostgreSQL ?? NaN) * 100_000) / ms,
          workerCorePct: ((cpu.worker ?? NaN) * 100_000) / ms,
          servicesCorePct: servicesPct(cpu, ms),
          workerMB,
          workerPeakMB: windowPeakMB,
          temporal: await temporalRows(stack, db, signals, sample, mark, performance.now() - started),
        };
        windows.push(window);
        log(
          `  ${perDay.toLocaleString('en-US')} events/day: ${window.arrivals} arrivals; PostgreSQL ${window.postgresCorePct.toFixed(1)} %, ` +
            `worker ${window.workerCorePct.toFixed(1)} %, together with Temporal ${window.servicesCorePct.toFixed(1)} % of a core; ` +
            `worker ${window.workerPeakMB.toFixed(0)} MB peak; ${window.temporal.executionsStarted} executions started`,
        );
      }
    } finally {
      await arrivals.stop();
    }
    // Drain, then the closing evaluation: nothing is pending when the idle window starts.
    log(
      `  ${arrivals.events} events arrived, ${arrivals.failures} failed ingest calls; drain ${options.drainMs / 1000} s`,
    );
    await sleep(options.drainMs);

    // What no wake or timer found yet is found now: the shares are exact, late leads counted.
    const closing = await closingEvaluation(stack, db, receiver, signals, options.closingWaitMs, log);
    const latency = await latencies(db, receiver, ingested, closing.found);
    const share = await shares(db, signals, new Set(ingested.keys()));
    log(
      `  event ingested → lead received: ${latency.all.leads} leads, p50 ${latency.all.p50S.toFixed(1)} s, p99 ${latency.all.p99S.toFixed(1)} s ` +
        `(${latency.all.foundAtClose} found by the closing evaluation); matched share mean ${(share.mean * 100).toFixed(2)} %, ` +
        `by type ${Object.entries(share.byType)
          .map(([type, t]) => `${type} ${(t.mean * 100).toFixed(2)} %`)
          .join(', ')}; ` +
        `${share.inRange} of ${share.signals} uncapped signals within 0.1–1 %`,
    );
    const idleMark = { at: new Date(), marks: await historyMark(stack, sample) };
    const idleReading = cpuReading(stack.cpuMeters());
    const idleStarted = performance.now();
    await sleep(options.idleMs);
    const idleMs = performance.now() - idleStarted;
    const idleCpu = idleReading.since();
    const idle = {
      durationMs: idleMs,
      cpu: idleCpu,
      servicesCorePct: servicesPct(idleCpu, idleMs),
      temporal: await temporalRows(stack, db, signals, sample, idleMark, performance.now() - idleStarted),
    };
    log(
      `  idle ${(idleMs / 1000).toFixed(0)} s: Temporal server + worker + PostgreSQL ${idle.servicesCorePct.toFixed(1)} % of a core; ` +
        `${idle.temporal.visibilityRowsPerSignalDay.toFixed(2)} executions and ${idle.temporal.signalHistoryPerSignalDay.toFixed(1)} history events per signal per day`,
    );

    return {
      signals: signals.length,
      byType: Object.fromEntries(
        SIGNAL_TYPES.map((t) => [t.signalTypeId, signals.filter((s) => s.type === t.signalTypeId).length]),
      ),
      store: options.store,
      evaluationInterval,
      steadyState: steady,
      createMs,
      loadMs,
      windows,
      idle,
      closingSettled: closing.settled,
      latency: latency.all,
      latencyByRate: latency.byWindow.map((l, i) => ({ ...l, eventsPerDay: options.eventsPerDay[i]! })),
      share,
      leadsOfArrivals: latency.leadsOfArrivals,
      received: receiver.arrivals.size,
      refused: receiver.counts.refused,
      workerMB,
      peakMB,
    };
  } finally {
    clearInterval(sampler);
    await dataSource.destroy();
  }
}

/** Temporal server, worker and PostgreSQL together, as % of one core. */
function servicesPct(cpu: Record<string, number>, ms: number): number {
  return (SERVICE_PROCESSES.reduce((sum, name) => sum + (cpu[name] ?? NaN), 0) * 100_000) / ms;
}

async function createSignals(
  stack: BenchStack,
  receiver: BenchReceiver,
  options: ScaleSignalsOptions,
  log: (line: string) => void,
): Promise<{ signals: BenchSignal[]; createMs: number }> {
  const started = performance.now();
  const accounts: (BenchAccount & { webhookUrl: string })[] = [];
  for (let i = 0; i < Math.ceil(options.signals / SIGNALS_PER_ACCOUNT); i++) {
    const account = await createAccount(stack.apiUrl, stack.adminToken, `${NAME} ${i}`, 10_000_000);
    accounts.push({ ...account, webhookUrl: receiver.urlFor(account.webhookSecret) });
  }
  const random = seededRandom(36);
  const plans = Array.from({ length: options.signals }, (_, i) => {
    const type = SIGNAL_TYPES[i % SIGNAL_TYPES.length]!;
    return {
      type,
      dailyLeadLimit: 25 + Math.floor(random() * 76),
      config: configOf(type.signalTypeId, random, options.store.companies),
      account: accounts[i % accounts.length]!,
    };
  });
  const signals: BenchSignal[] = [];
  await eachWithin(plans, CONCURRENCY, async (plan, i) => {
    const created = await expectStatus<{ id: string }>(
      `create ${plan.type.signalTypeId} signal`,
      201,
      call(`${stack.apiUrl}/api/v1/signals/${plan.type.createPath}`, {
        token: plan.account.apiKey,
        body: {
          name: `${NAME} ${i}`,
          config: plan.config,
          status: 'active',
          dailyLeadLimit: plan.dailyLeadLimit,
          webhookUrl: plan.account.webhookUrl,
        },
      }),
    );
    signals[i] = { id: created.id, type: plan.type.signalTypeId };
    if ((i + 1) % 1000 === 0) log(`  ${i + 1} signals created`);
  });
  const createMs = performance.now() - started;
  log(`  ${signals.length} active signals in ${accounts.length} accounts created in ${(createMs / 1000).toFixed(1)} s`);
  return { signals, createMs };
}

/**
 * Every signal evaluated once more through the operator's endpoint, then a wait until the
 * receiver has every lead of the arrivals (or the time is up). Answers the leads that existed
 * before it, so the ones it found are told apart.
 */
async function closingEvaluation(
  stack: BenchStack,
  db: PgClient,
  receiver: BenchReceiver,
  signals: BenchSignal[],
  waitMs: number,
  log: (line: string) => void,
): Promise<{ found: Set<string>; settled: boolean }> {
  const leadsOfArrivals = async () =>
    (await db.query<{ id: string }>(`SELECT id FROM leads WHERE event_id LIKE 'sd-ev-a%'`)).rows.map((r) => r.id);
  const before = new Set(await leadsOfArrivals());
  await eachWithin(signals, CONCURRENCY, async (signal) => {
    await expectStatus(
      'evaluate',
      202,
      call(`${stack.apiUrl}/admin/v1/signals/${signal.id}/evaluate`, { token: stack.adminToken, method: 'POST' }),
    );
  });
  log(`  closing evaluation of ${signals.length} signals requested`);
  // Settled: every lead of the arrivals received, and their number unchanged over two looks.
  const deadline = performance.now() + waitMs;
  let [last, stable, settled] = [-1, 0, false];
  while (performance.now() < deadline) {
    await sleep(5_000);
    const ids = await leadsOfArrivals();
    const missing = ids.filter((id) => !receiver.arrivals.has(id)).length;
    stable = missing === 0 && ids.length === last ? stable + 1 : 0;
    last = ids.length;
    if ((settled = stable >= 2)) break;
  }
  if (!settled) log(`  WARNING: the closing evaluation's leads were still in flight after ${waitMs / 1000} s`);
  const after = await leadsOfArrivals();
  return { found: new Set(after.filter((id) => !before.has(id))), settled };
}

function latencyOf(seconds: number[], foundAtClose: number): Latency {
  return {
    leads: seconds.length,
    p50S: percentile(seconds, 50),
    p99S: percentile(seconds, 99),
    maxS: seconds.length ? seconds.reduce((a, b) => Math.max(a, b)) : NaN,
    foundAtClose,
  };
}

/** Per lead of an arrival: its event's ingest (endpoint answered) → the receiver had it; not received: now. */
async function latencies(
  db: PgClient,
  receiver: BenchReceiver,
  ingested: Map<string, { at: number; window: number }>,
  foundAtClose: Set<string>,
): Promise<{ all: Latency; byWindow: Latency[]; leadsOfArrivals: number }> {
  const { rows } = await db.query<{ id: string; event_id: string }>(
    `SELECT id, event_id FROM leads WHERE event_id LIKE 'sd-ev-a%'`,
  );
  const now = performance.now();
  const all: number[] = [];
  const byWindow: number[][] = [];
  const closeByWindow: number[] = [];
  for (const lead of rows) {
    const event = ingested.get(lead.event_id);
    if (!event) continue;
    const seconds = ((receiver.arrivals.get(lead.id) ?? now) - event.at) / 1000;
    all.push(seconds);
    (byWindow[event.window] ??= []).push(seconds);
    if (foundAtClose.has(lead.id)) closeByWindow[event.window] = (closeByWindow[event.window] ?? 0) + 1;
  }
  return {
    all: latencyOf(all, foundAtClose.size),
    byWindow: Array.from({ length: Math.max(byWindow.length, 1) }, (_, i) =>
      latencyOf(byWindow[i] ?? [], closeByWindow[i] ?? 0),
    ),
    leadsOfArrivals: rows.length,
  };
}

/** Each signal's distinct matched arrivals over all arrivals; signals that reached their daily cap are left out. */
async function shares(
  db: PgClient,
  signals: BenchSignal[],
  arrivals: Set<string>,
): Promise<ScaleSignalsResult['share']> {
  const { rows } = await db.query<{ signal_id: string; events: string[] }>(
    `SELECT l.signal_id, array_agg(DISTINCT l.event_id) AS events FROM leads l
     WHERE l.event_id LIKE 'sd-ev-a%' GROUP BY l.signal_id`,
  );
  const { rows: capped } = await db.query<{ id: string }>(
    `SELECT id FROM signals WHERE name LIKE $1 AND leads_today >= daily_lead_limit`,
    [`${NAME} %`],
  );
  const cappedIds = new Set(capped.map((r) => r.id));
  const matched = new Map(rows.map((r) => [r.signal_id, r.events.filter((e) => arrivals.has(e)).length]));
  const byType = new Map<string, number[]>();
  const all: number[] = [];
  for (const signal of signals) {
    if (cappedIds.has(signal.id)) continue;
    const share = (matched.get(signal.id) ?? 0) / Math.max(1, arrivals.size);
    all.push(share);
    byType.set(signal.type, [...(byType.get(signal.type) ?? []), share]);
  }
  return {
    signals: all.length,
    inRange: all.filter((s) => s >= 0.001 && s <= 0.01).length,
    mean: mean(all),
    median: median(all),
    p10: percentile(all, 10),
    p90: percentile(all, 90),
    byType: Object.fromEntries(
      [...byType].map(([type, s]) => [type, { signals: s.length, mean: mean(s), median: median(s) }]),
    ),
  };
}
