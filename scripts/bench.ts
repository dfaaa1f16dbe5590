/**
 * `npm run bench`: measures the service on this machine beside the ceilings of its parts, and
 * writes the results to docs/performance-results.json and the summary in docs/performance.md.
 * Not part of `npm test`.
 *
 *   npm run bench                               # pipeline, reads, evaluation, scale at full size
 *   npm run bench -- --quick                    # N = 1,000, 100,000 leads/rows, 100 signals
 *   npm run bench -- --sections reads,scale     # some sections only (in the usual order)
 *   npm run bench -- --sections ceiling         # ceiling (c) alone (it is also part of pipeline)
 *   npm run bench -- --ceiling-per-run 500      # ceiling (c)'s children per parent run (the signal workflow's bound)
 *   npm run bench -- --cpu-prof DIR             # also write V8 CPU profiles of the worker and API to DIR
 *   npm run bench -- --sections sources         # intent sources at scale against local stand-ins (own stack)
 *   npm run bench -- --sections sources --source-rows bluesky,usaspending  # some sources' rows only (the others' stay)
 *   npm run bench -- --sections scale-data      # 10M events, 10,000 signals, arrivals (own stack; not in the default)
 *   npm run bench -- --sections score-costs     # scores and forecasts on the scale-data store (own stack; not in the default)
 *   npm run bench -- --sections scale-signals   # 100,000 signals, 10M events, event → webhook latency, idle cost (own stack; not in the default)
 *   npm run bench -- --sections scale-signals --quick --temporal dev   # 2,000 signals, 200k events, ≤ 15 min
 *
 * It starts its own stack (scripts/bench/stack.ts) and stops it at the end, also on Ctrl-C.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { onLauncherGone, onShutdownSignals, relaunchDetached } from './process-tree';
import { runEvaluation } from './bench/evaluation';
import { DEFAULT_CEILING_SHAPE, startCeilingWorker, type CeilingRun, type CeilingShape } from './bench/ceiling';
import { runPipeline, type PipelineRun } from './bench/pipeline';
import { startReceiver } from './bench/receiver';
import { runReads } from './bench/reads';
import {
  DEFAULT_SECTIONS,
  loadAverage,
  machineFacts,
  printTable,
  SECTIONS,
  writeResults,
  type Mode,
  type Section,
  type SectionRecord,
} from './bench/report';
import { runScale } from './bench/scale';
import { runSchedule } from './bench/schedule';
import { runScaleData } from './bench/scale-data';
import { runScaleSignals } from './bench/scale-signals';
import { runScoreCosts } from './bench/score-costs';
import { prepareSources, runSources, SOURCE_ROWS, type SourceRow, type SourcesSetup } from './bench/sources';
import { findFreePort } from '../infra/net/ports';
import { BenchStack, ROOT, type BenchTemporal, type StackOptions } from './bench/stack';

interface Options {
  mode: Mode;
  sections: Section[];
  cpuProfDir?: string;
  ceiling: CeilingShape;
  /** The Temporal servers to measure on, one stack each; the cluster runs the pipeline and ceiling (c) only. */
  temporal: BenchTemporal[];
  /** The command as typed, for the document. */
  command: string;
  /** The sources section's stand-ins and worker environment, once its stack is up. */
  sources?: SourcesSetup;
  /** The sources section's rows to measure (all by default). */
  sourceRows: SourceRow[];
}

const SIZES = {
  full: {
    pipelineN: [1_000, 10_000],
    readLeads: 1_000_000,
    readSeconds: 15,
    readRounds: 2,
    evaluationRows: 1_000_000,
    companies: 10_000,
    signals: 1_000,
    schedule: { signals: 10_000, intervalMs: 15 * 60_000 },
    sources: { companies: 10_000, pacedItems: 300, sites: 2_000, blueskyAccounts: 500 },
    scaleData: {
      signals: 10_000,
      intervalMs: 15 * 60_000,
      stages: [
        { companies: 200_000, people: 500_000, events: 1_000_000 },
        { companies: 200_000, people: 5_000_000, events: 10_000_000 },
      ],
      eventsPerDay: 100_000,
      higherEventsPerDay: 300_000,
      compression: 1,
      warmupMs: 5 * 60_000,
      baselineMs: 3 * 60_000,
      probesPerType: 5,
      fullReadSample: 20,
    },
    scoreCosts: {
      stages: [
        { companies: 200_000, people: 500_000, events: 1_000_000 },
        { companies: 200_000, people: 5_000_000, events: 10_000_000 },
      ],
      eventsPerDay: [100_000, 400_000],
    },
    scaleSignals: {
      signals: 100_000,
      store: { companies: 200_000, people: 5_000_000, events: 10_000_000 },
      eventsPerDay: [100_000, 1_000_000],
      windowMs: 30 * 60_000,
      drainMs: 15 * 60_000,
      idleMs: 60 * 60_000,
      historySample: 200,
      closingWaitMs: 30 * 60_000,
    },
  },
  quick: {
    pipelineN: [1_000],
    readLeads: 100_000,
    readSeconds: 8,
    readRounds: 2,
    evaluationRows: 100_000,
    companies: 10_000,
    signals: 100,
    schedule: { signals: 200, intervalMs: 60_000 },
    sources: { companies: 1_000, pacedItems: 150, sites: 500, blueskyAccounts: 100 },
    // The 15-minute interval's share of 100,000 events a day in each 1-minute interval (×15).
    scaleData: {
      signals: 400,
      intervalMs: 60_000,
      stages: [
        { companies: 50_000, people: 50_000, events: 100_000 },
        { companies: 50_000, people: 500_000, events: 1_000_000 },
      ],
      eventsPerDay: 100_000,
      higherEventsPerDay: 300_000,
      compression: 15,
      warmupMs: 60_000,
      baselineMs: 60_000,
      probesPerType: 5,
      fullReadSample: 5,
    },
    // scale-data's quick store; the same arrivals as at full size (a 15-minute interval's share).
    scoreCosts: {
      stages: [
        { companies: 50_000, people: 50_000, events: 100_000 },
        { companies: 50_000, people: 500_000, events: 1_000_000 },
      ],
      eventsPerDay: [100_000, 400_000],
    },
    // Real rates in shorter windows; a few minutes idle.
    scaleSignals: {
      signals: 2_000,
      store: { companies: 20_000, people: 100_000, events: 200_000 },
      eventsPerDay: [100_000, 1_000_000],
      windowMs: 90_000,
      drainMs: 30_000,
      idleMs: 3 * 60_000,
      historySample: 50,
      closingWaitMs: 7 * 60_000,
    },
  },
};

/** Sections that run on a stack of their own, after the others. */
const OWN_STACK: readonly Section[] = ['schedule', 'sources', 'scale-data', 'score-costs', 'scale-signals'];

function log(line: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

function parseOptions(argv: string[]): Options {
  let mode: Mode = 'full';
  let sections: Section[] = [...DEFAULT_SECTIONS];
  let cpuProfDir: string | undefined;
  const ceiling: CeilingShape = { ...DEFAULT_CEILING_SHAPE };
  let temporal: BenchTemporal[] = ['dev', 'cluster'];
  let sourceRows: SourceRow[] = [...SOURCE_ROWS];
  const count = (name: string, value: string | undefined) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} takes a whole number ≥ 1`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') mode = 'quick';
    else if (arg === '--sections' || arg.startsWith('--sections=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      const asked = (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = asked.filter((s) => !(SECTIONS as readonly string[]).includes(s));
      if (asked.length === 0 || unknown.length)
        throw new Error(
          `--sections takes a list of ${SECTIONS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
        );
      sections = SECTIONS.filter((s) => asked.includes(s));
    } else if (arg === '--ceiling-per-run') {
      ceiling.perRun = count(arg, argv[++i]);
    } else if (arg === '--ceiling-batch') {
      ceiling.batch = count(arg, argv[++i]);
    } else if (arg === '--temporal') {
      const asked = (argv[++i] ?? '').split(',').map((t) => t.trim());
      if (asked.length === 0 || asked.some((t) => t !== 'dev' && t !== 'cluster'))
        throw new Error('--temporal takes dev, cluster or dev,cluster');
      temporal = asked as BenchTemporal[];
    } else if (arg === '--source-rows') {
      const asked = (argv[++i] ?? '').split(',').map((t) => t.trim());
      const unknown = asked.filter((t) => !(SOURCE_ROWS as readonly string[]).includes(t));
      if (asked.length === 0 || unknown.length)
        throw new Error(`--source-rows takes a list of ${SOURCE_ROWS.join(', ')}; unknown: ${unknown.join(', ')}`);
      sourceRows = SOURCE_ROWS.filter((row) => asked.includes(row));
    } else if (arg === '--cpu-prof') {
      cpuProfDir = path.resolve(argv[++i] ?? 'bench-profiles');
    } else if (arg === '--help' || arg === '-h') {
      console.log(
        `usage: npm run bench -- [--quick] [--sections ${SECTIONS.join(',')}] [--ceiling-per-run ${DEFAULT_CEILING_SHAPE.perRun}] ` +
          `[--ceiling-batch ${DEFAULT_CEILING_SHAPE.batch}] [--temporal dev,cluster] [--source-rows ${SOURCE_ROWS.join(',')}] [--cpu-prof DIR]\n(default sections: ${DEFAULT_SECTIONS.join(', ')})`,
      );
      process.exit(0);
    } else throw new Error(`unknown option ${arg} (see --help)`);
  }
  return {
    mode,
    sections,
    cpuProfDir,
    ceiling,
    temporal,
    sourceRows,
    command: ['npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' '),
  };
}

async function runSections(stack: BenchStack, options: Options, records: SectionRecord[]): Promise<void> {
  const size = SIZES[options.mode];
  const db = new PgClient({ connectionString: stack.databaseUrl });
  await db.connect();
  stack.adopt({ name: 'bench database connection', stop: () => db.end() });
  for (const section of options.sections) {
    if (stack.isClosing) return;
    log(`section ${section} (${options.mode})`);
    const machine = machineFacts();
    const started = performance.now();
    const record: SectionRecord = { section, mode: options.mode, command: options.command, machine, elapsedMs: 0 };
    try {
      record.data = await runSection(section, stack, db, size, options);
    } catch (err) {
      if (stack.isClosing) return;
      record.error = (err as Error).message;
      log(`section ${section} failed: ${(err as Error).stack ?? record.error}`);
    }
    record.elapsedMs = performance.now() - started;
    machine.loadAtEnd = loadAverage();
    records.push(record);
  }
}

async function runSection(
  section: Section,
  stack: BenchStack,
  db: PgClient,
  size: (typeof SIZES)[Mode],
  options: Options,
): Promise<unknown> {
  const shape = options.ceiling;
  switch (section) {
    case 'pipeline': {
      const receiver = await startReceiver();
      stack.adopt({ name: 'webhook receiver', stop: receiver.close });
      const ceilingWorker = await startCeilingWorker(stack, shape);
      const runs: PipelineRun[] = [];
      try {
        for (const [index, n] of size.pipelineN.entries()) {
          log(`pipeline N = ${n}`);
          runs.push(await runPipeline({ stack, receiver, db, log }, n, index, ceilingWorker));
        }
      } finally {
        await ceilingWorker.stop();
      }
      return { runs };
    }
    case 'ceiling': {
      const ceilingWorker = await startCeilingWorker(stack, shape);
      const runs: CeilingRun[] = [];
      try {
        for (const n of size.pipelineN) {
          log(`ceiling (c) with ${n} children`);
          const run = await ceilingWorker.run(n, 120_000 + n * 150);
          log(
            `  ${n} children in ${(run.elapsedMs / 1000).toFixed(1)} s = ${run.childrenPerSecond.toFixed(1)} leads/s${run.complete ? '' : ' (INCOMPLETE)'}`,
          );
          runs.push(run);
        }
      } finally {
        await ceilingWorker.stop();
      }
      return { runs };
    }
    case 'reads':
      return runReads(
        stack,
        db,
        { leads: size.readLeads, seconds: size.readSeconds, warmupSeconds: 3, rounds: size.readRounds },
        log,
      );
    case 'evaluation':
      return runEvaluation(stack, db, { rows: size.evaluationRows, companies: size.companies }, log);
    case 'scale':
      return runScale(stack, { signals: size.signals }, log);
    case 'schedule':
      return runSchedule(stack, { ...size.schedule, metricsUrl: stack.workerMetricsUrl! }, log);
    case 'sources':
      return runSources(stack, db, options.sources!, size.sources, log, options.sourceRows);
    case 'scale-data':
      return runScaleData(stack, db, { ...size.scaleData, metricsUrl: stack.workerMetricsUrl! }, log);
    case 'score-costs':
      return runScoreCosts(stack, db, size.scoreCosts, log);
    case 'scale-signals': {
      const receiver = await startReceiver();
      stack.adopt({ name: 'webhook receiver', stop: receiver.close });
      return runScaleSignals(stack, db, receiver, size.scaleSignals, log);
    }
  }
}

function main(): void {
  if (relaunchDetached()) return;
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  // Written when the process exits, so a profile covers everything up to the stack's stop.
  const profileArgs: string[] = [];
  if (options.cpuProfDir) {
    mkdirSync(options.cpuProfDir, { recursive: true });
    profileArgs.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`);
  }
  const newStack = (temporal: BenchTemporal, extra: Partial<StackOptions> = {}) =>
    new BenchStack({ log, workerNodeArgs: profileArgs, apiNodeArgs: profileArgs, temporal, ...extra });
  let stack = newStack(options.temporal[0]!);
  const records: SectionRecord[] = [];
  let stopping = false;

  const finish = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping the stack');
    await stack.close();
    process.exit(exitCode);
  };
  onShutdownSignals(
    (signal) => {
      log(`received ${signal}: nothing is written, the stack is being stopped`);
      void finish(130);
    },
    () => {
      log('second interrupt: exiting now');
      process.exit(130);
    },
  );
  onLauncherGone(() => void finish(130));

  const run = async () => {
    for (const [index, temporal] of options.temporal.entries()) {
      if (index > 0) {
        await stack.close();
        stack = newStack(temporal);
      }
      // The cluster is measured where it differs: the Temporal server under the pipeline.
      const sections =
        temporal === 'dev'
          ? options.sections.filter((s) => !OWN_STACK.includes(s))
          : options.sections.filter((s) => s === 'pipeline' || s === 'ceiling');
      if (sections.length === 0) continue;
      log(
        `sections ${sections.join(', ')} (${options.mode}) on ${temporal}; load average ${loadAverage()}; temp dir ${stack.tmpDir}`,
      );
      await stack.start();
      const before = records.length;
      await runSections(stack, { ...options, sections }, records);
      if (temporal !== 'dev') for (const record of records.slice(before)) record.temporal = stack.temporalLabel;
      if (stopping) return;
    }
    if (options.sections.includes('schedule') && !stopping) {
      // Its own stack: evaluations on their interval, and the worker's /metrics to read the lag from.
      await stack.close();
      const metricsPort = await findFreePort();
      const interval = `${SIZES[options.mode].schedule.intervalMs / 1000}s`;
      stack = newStack('dev', {
        env: { SIGNAL_EVALUATION_INTERVAL: interval },
        workerEnv: { METRICS_PORT: String(metricsPort) },
      });
      stack.workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      log(`section schedule on its own stack; every signal evaluates every ${interval}`);
      await stack.start();
      await runSections(stack, { ...options, sections: ['schedule'] }, records);
      if (stopping) return;
    }
    if (options.sections.includes('sources') && !stopping) {
      // Its own stack: the sources' hosts mapped to local stand-ins, the worker's pace set by the section.
      await stack.close();
      const sources = await prepareSources(SIZES[options.mode].sources);
      stack = newStack('dev', { env: sources.env, workerEnv: sources.workerEnv });
      stack.adopt({ name: 'source stand-ins', stop: sources.standIns.close });
      stack.adopt({ name: 'site stand-in', stop: sources.site.close });
      stack.adopt({ name: 'tender stand-in', stop: sources.tenders.close });
      stack.adopt({ name: 'register stand-in', stop: sources.register.close });
      stack.adopt({ name: 'EDGAR stand-in', stop: sources.edgar.close });
      stack.adopt({ name: 'Contracts Finder stand-in', stop: sources.contractsFinder.close });
      stack.adopt({ name: 'USAspending stand-in', stop: sources.usaspending.close });
      stack.adopt({ name: 'AppView stand-in', stop: sources.appView.close });
      log(`section sources on its own stack; load average ${loadAverage()}`);
      await stack.start();
      await runSections(stack, { ...options, sections: ['sources'], sources }, records);
      if (stopping) return;
    }
    if (options.sections.includes('scale-data') && !stopping) {
      // Its own stack: its store, its signals on their interval, the worker's /metrics for the lag.
      await stack.close();
      const metricsPort = await findFreePort();
      const interval = `${SIZES[options.mode].scaleData.intervalMs / 1000}s`;
      stack = newStack('dev', {
        env: { SIGNAL_EVALUATION_INTERVAL: interval },
        workerEnv: { METRICS_PORT: String(metricsPort) },
      });
      stack.workerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      log(
        `section scale-data on its own stack; every signal evaluates every ${interval}; load average ${loadAverage()}`,
      );
      await stack.start();
      await runSections(stack, { ...options, sections: ['scale-data'] }, records);
      if (stopping) return;
    }
    if (options.sections.includes('score-costs') && !stopping) {
      // Its own stack: its own store, and no other section's events or signals in the measurements.
      await stack.close();
      stack = newStack('dev');
      log(`section score-costs on its own stack; load average ${loadAverage()}`);
      await stack.start();
      await runSections(stack, { ...options, sections: ['score-costs'] }, records);
      if (stopping) return;
    }
    if (options.sections.includes('scale-signals') && !stopping) {
      // Its own stack on each Temporal server asked for, the evaluation interval at the service's default.
      for (const temporal of options.temporal) {
        await stack.close();
        stack = newStack(temporal, { serviceDefaults: ['SIGNAL_EVALUATION_INTERVAL'] });
        log(`section scale-signals on its own stack (${temporal}); load average ${loadAverage()}`);
        await stack.start();
        const before = records.length;
        await runSections(stack, { ...options, sections: ['scale-signals'] }, records);
        if (temporal !== 'dev') for (const record of records.slice(before)) record.temporal = stack.temporalLabel;
        if (stopping) return;
      }
    }
    printTable(records, (line) => console.log(line));
    const written = writeResults(path.join(ROOT, 'docs'), records);
    log(`results written to ${written.map((file) => path.relative(process.cwd(), file) || file).join(' and ')}`);
    await finish(records.some((r) => r.error) ? 1 : 0);
  };
  run().catch((err: unknown) => {
    if (stopping) return;
    console.error(`[bench] failed: ${(err as Error).stack ?? err}`);
    void finish(1);
  });
}

main();
