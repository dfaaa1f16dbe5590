/**
 * The results: a table on the terminal, every number in `docs/performance-results.json` (one
 * record per mode and section, replaced when that section runs again), and a short summary of
 * the latest records in `docs/performance.md`, between its `bench:summary` markers. The rest of
 * that document is written by people.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CeilingRun } from './ceiling';
import type { EvaluationResult } from './evaluation';
import type { PipelineRun } from './pipeline';
import type { ReadsResult } from './reads';
import type { ScaleResult } from './scale';
import type { ScaleDataResult } from './scale-data';
import type { ScaleSignalsResult } from './scale-signals';
import type { ScheduleResult } from './schedule';
import type { ScoreCostsResult } from './score-costs';
import type { SourceMeasurement, SourcesResult } from './sources';
import { fmt, ms } from './stats';

export const SECTIONS = [
  'pipeline',
  'ceiling',
  'reads',
  'evaluation',
  'scale',
  'schedule',
  'sources',
  'scale-data',
  'score-costs',
  'scale-signals',
] as const;
export type Section = (typeof SECTIONS)[number];
/**
 * What `npm run bench` runs without `--sections`: ceiling (c) is measured inside the pipeline
 * section; scale-data and scale-signals (10M events, an hour or more each) only when asked for.
 */
export const DEFAULT_SECTIONS: readonly Section[] = ['pipeline', 'reads', 'evaluation', 'scale', 'schedule', 'sources'];
export type Mode = 'full' | 'quick';

/** The pipeline's target against ceiling (c) (issue #12). */
export const SHARE_OF_CEILING_TARGET = 0.7;
const RESULTS_FILE = 'performance-results.json';
const DOCUMENT_FILE = 'performance.md';
/** The document's size limit; the summary is built to stay well inside it. */
const DOCUMENT_MAX_BYTES = 10 * 1024;

export interface Machine {
  date: string;
  cpus: number;
  cpuModel: string;
  memory: string;
  node: string;
  kernel: string;
  loadAtStart: string;
  loadAtEnd?: string;
}

export interface SectionRecord<T = unknown> {
  section: Section;
  mode: Mode;
  /** The Temporal server it ran on, when not the dev server (`npm run bench -- --temporal`). */
  temporal?: string;
  command: string;
  machine: Machine;
  /** Wall time of the section. */
  elapsedMs: number;
  data?: T;
  error?: string;
}

export function machineFacts(): Machine {
  const run = (command: string) => {
    try {
      return execSync(command, { encoding: 'utf8' }).trim();
    } catch {
      return 'n/a';
    }
  };
  return {
    date: new Date().toISOString(),
    cpus: Number(run('nproc')) || os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'n/a',
    memory: run('free -h'),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAtStart: loadAverage(),
  };
}

export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}

// ------------------------------------------------------------------ targets

interface Verdict {
  target: string;
  measured: string;
  met: boolean | undefined;
}

const pct = (ratio: number) => `${fmt(ratio * 100, 0)} %`;

/** Pipeline runs of the current shape (with ceiling (c)); records of older shapes are history in git. */
function pipelineRuns(record: SectionRecord): PipelineRun[] {
  return ((record.data as { runs?: PipelineRun[] } | undefined)?.runs ?? []).filter((r) => r.ceiling !== undefined);
}

/** Issue #7's absolute targets were set for the dev server; the cluster is judged by its share of (c) alone. */
function pipelineVerdicts(runs: PipelineRun[], onDevServer: boolean): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const run of runs) {
    const n = fmt(run.n, 0);
    const incomplete = run.complete ? '' : ` (only ${fmt(run.received, 0)} of ${n} received)`;
    verdicts.push({
      target: `pipeline ≥ ${pct(SHARE_OF_CEILING_TARGET)} of ceiling (c) (N = ${n})`,
      measured: `${pct(run.shareOfCeiling)}: ${fmt(run.leadsPerSecond)} of ${fmt(run.ceiling.childrenPerSecond)} leads/s${incomplete}${run.ceiling.complete ? '' : ' (ceiling incomplete)'}`,
      met: run.complete && run.ceiling.complete && run.shareOfCeiling >= SHARE_OF_CEILING_TARGET,
    });
    if (!onDevServer) continue;
    verdicts.push({
      target: `pipeline ≥ 200 leads/s (issue #7; N = ${n})`,
      measured: `${fmt(run.leadsPerSecond)} leads/s${incomplete}`,
      met: run.complete && run.leadsPerSecond >= 200,
    });
    if (run.n === 1000) {
      verdicts.push({
        target: 'p99 request → receipt < 2 s at 1,000 leads',
        measured: ms(run.latency.p99),
        met: run.complete && run.latency.p99 < 2000,
      });
    }
  }
  return verdicts;
}

function verdictsOf(record: SectionRecord): Verdict[] {
  if (record.error || !record.data)
    return [{ target: record.section, measured: `failed: ${record.error ?? 'no data'}`, met: false }];
  switch (record.section) {
    case 'pipeline':
      return pipelineVerdicts(pipelineRuns(record), !record.temporal);
    case 'ceiling':
      return [];
    case 'reads': {
      const r = record.data as ReadsResult;
      return [
        {
          target: `leads page ≥ 1.0× the bare handler (${fmt(r.leads, 0)} leads stored)`,
          measured: `${fmt(r.ratio)}× (${fmt(r.service.pagesPerSecond, 0)} vs ${fmt(r.bare.pagesPerSecond, 0)} pages/s)`,
          met: r.ratio >= 1 && r.service.non2xx === 0 && r.service.errors === 0,
        },
      ];
    }
    case 'evaluation': {
      const r = record.data as EvaluationResult;
      return [
        {
          target: `one evaluation over ${fmt(r.rows, 0)} rows < 500 ms`,
          measured: `${ms(r.worstMedianMs)} (slowest variant, median)`,
          met: r.worstMedianMs < 500,
        },
      ];
    }
    case 'schedule': {
      const r = record.data as ScheduleResult;
      const all = r.evaluations >= r.signals;
      const of = `${fmt(r.signals, 0)} signals every ${fmt(r.intervalMs / 60_000, 0)} min on one worker`;
      return [
        {
          target: `${of}: evaluation lag p99 < 60 s`,
          measured: `p99 ≤ ${r.lagP99S} s over ${fmt(r.evaluations, 0)} scheduled evaluations${all ? '' : ' (not all evaluated)'}`,
          met: all && r.lagP99S <= 60,
        },
        {
          target: `${of}: worker < 600 MB`,
          measured: `${fmt(r.workerMB, 0)} MB (peak ${fmt(r.peakMB, 0)})`,
          met: r.peakMB < 600,
        },
      ];
    }
    case 'sources':
      return (record.data as SourcesResult).sources.flatMap(sourceVerdicts);
    case 'scale-data':
      return scaleDataVerdicts(record.data as ScaleDataResult);
    case 'score-costs':
      // Issue 35 sets no number: "proportional to what changed", read beside the counts.
      return [];
    case 'scale-signals':
      return scaleSignalsVerdicts(record.data as ScaleSignalsResult);
    case 'scale': {
      const r = record.data as ScaleResult;
      return [
        {
          target: `${fmt(r.signals, 0)} idle signals < 500 MB of worker memory`,
          measured: `${fmt(r.idleMB, 0)} MB resident`,
          met: r.idleMB < 500,
        },
      ];
    }
  }
}

const events = (n: number) => (n >= 1e6 ? `${fmt(n / 1e6, 0)}M` : `${fmt(n / 1e3, 0)}k`);

function scaleDataVerdicts(r: ScaleDataResult): Verdict[] {
  const [small, large] = [r.probes[0], r.probes[r.probes.length - 1]];
  const base = r.intervals[0];
  const of = `${fmt(r.signals, 0)} signals, ${events(large?.events ?? NaN)}`;
  const verdicts: Verdict[] = [
    {
      target: `one evaluation at ${events(large?.events ?? NaN)} events ≤ 1.2× at ${events(small?.events ?? NaN)}`,
      measured: `${fmt(r.costRatio)}× (${ms(large?.sumMs ?? NaN)} vs ${ms(small?.sumMs ?? NaN)})`,
      met: r.costRatio <= 1.2,
    },
  ];
  if (base) {
    const evaluationPct = base.evaluationPostgresCorePct ?? NaN;
    verdicts.push(
      {
        target: `${of}: evaluation lag p99 < 60 s`,
        measured: `p99 ≤ ${base.lagP99S} s, ${fmt(base.evaluations, 0)} evaluations`,
        met: base.lagP99S <= 60 && base.evaluations > 0,
      },
      {
        target: `${of}: PostgreSQL CPU on evaluations < 25 % of a core`,
        measured: `${fmt(evaluationPct, 1)} % (${fmt(base.postgresCorePct, 1)} less ${fmt(base.baselinePostgresCorePct ?? NaN, 1)} ingest)`,
        met: evaluationPct < 25,
      },
    );
  }
  verdicts.push({
    target: `${of}: worker < 600 MB`,
    measured: `${fmt(r.workerMB, 0)} MB (peak ${fmt(r.peakMB, 0)})`,
    met: r.peakMB < 600,
  });
  return verdicts;
}

/** Issue #36's targets; Temporal's rows are reported beside, without a target. */
function scaleSignalsVerdicts(r: ScaleSignalsResult): Verdict[] {
  const of = `${fmt(r.signals, 0)} signals, ${events(r.store.events)}`;
  const higher = r.windows[r.windows.length - 1];
  const verdicts: Verdict[] = [
    {
      target: `${of}: event ingested → webhook received p99 < 60 s`,
      measured: `p99 ${fmt(r.latency.p99S, 1)} s, p50 ${fmt(r.latency.p50S, 1)} s over ${fmt(r.latency.leads, 0)} leads (${fmt(r.latency.foundAtClose, 0)} found only by the closing evaluation)`,
      met: r.latency.leads > 0 && r.latency.p99S < 60,
    },
    {
      target: `${of}: all idle, Temporal server + worker + PostgreSQL < 25 % of a core`,
      measured: `${fmt(r.idle.servicesCorePct, 1)} % over ${fmt(r.idle.durationMs / 60_000, 0)} min${r.closingSettled === false ? ' (deliveries still running into it)' : ''}`,
      met: r.idle.servicesCorePct < 25,
    },
  ];
  if (higher)
    verdicts.push(
      {
        target: `${of}, ${events(higher.eventsPerDay)} events/day: PostgreSQL < 25 % of a core`,
        measured: `${fmt(higher.postgresCorePct, 1)} %`,
        met: higher.postgresCorePct < 25,
      },
      {
        target: `${of}, ${events(higher.eventsPerDay)} events/day: worker < 600 MB`,
        measured: `${fmt(higher.workerPeakMB, 0)} MB peak`,
        met: higher.workerPeakMB < 600,
      },
    );
  verdicts.push({
    target: `${of}: Temporal rows per signal per day (idle; at ${r.windows.map((w) => events(w.eventsPerDay)).join(', ')}/day)`,
    measured: [r.idle.temporal, ...r.windows.map((w) => w.temporal)]
      .map(
        (t) =>
          `${fmt(t.visibilityRowsPerSignalDay)} visibility, ${fmt(t.signalHistoryPerSignalDay + t.leadHistoryPerSignalDay)} history`,
      )
      .join('; '),
    met: undefined,
  });
  return verdicts;
}

const hours = (seconds: number) => `${fmt(seconds / 3600, 1)} h`;

function sourceVerdicts(m: SourceMeasurement): Verdict[] {
  const p = m.projection;
  const verdicts: Verdict[] = [];
  if (p.busiestTickS !== undefined && p.tickS !== undefined) {
    verdicts.push({
      target: `${m.source}: ${fmt(m.items, 0)} ${m.unit} once per 6 h at ${fmt(p.intervalMs / 1000, 0)} s/host`,
      measured: `busiest tick ${fmt(p.busiestTickItems ?? NaN, 0)} ${m.unit} ≈ ${fmt(p.busiestTickS, 0)} of ${fmt(p.tickS, 0)} s; run now ${hours(p.runNowS)}`,
      met: p.busiestTickS <= p.tickS,
    });
  }
  if (m.paced) {
    const { hosts, cycle } = m.paced;
    const tooClose = hosts.reduce((sum, h) => sum + h.tooClose, 0);
    const gaps = hosts.reduce((sum, h) => sum + h.requests - 1, 0);
    const short = cycle.intervalMs - Math.min(...hosts.map((h) => h.minGapMs));
    verdicts.push({
      target: `${m.source}: host gaps ≥ interval (paced ${fmt(cycle.intervalMs, 0)} ms)`,
      measured: `${tooClose} of ${gaps} > 5 ms under, worst ${fmt(short, 0)} ms`,
      met: tooClose === 0,
    });
  }
  return verdicts;
}

const mark = (met: boolean | undefined) => (met === undefined ? '–' : met ? 'met' : '**missed**');

// ------------------------------------------------------------------ terminal

export function printTable(records: SectionRecord[], print: (line: string) => void): void {
  const rows: string[][] = [['section', 'measurement', 'value', 'beside']];
  for (const record of records) {
    if (record.error || !record.data) {
      rows.push([record.section, 'FAILED', record.error ?? '', '']);
      continue;
    }
    if (record.section === 'pipeline') {
      if (record.temporal) rows.push(['pipeline', `on ${record.temporal}`, '', '']);
      for (const run of pipelineRuns(record)) {
        const n = `N=${fmt(run.n, 0)}`;
        rows.push([
          record.temporal ? '' : 'pipeline',
          `${n} end to end`,
          `${fmt(run.leadsPerSecond)} leads/s${run.complete ? '' : ' (INCOMPLETE)'}`,
          `${pct(run.shareOfCeiling)} of ceiling (c)`,
        ]);
        rows.push([
          '',
          `${n} request→receipt p50/p95/p99`,
          `${ms(run.latency.p50)} / ${ms(run.latency.p95)} / ${ms(run.latency.p99)}`,
          'per lead, from the evaluate request',
        ]);
        rows.push([
          '',
          `${n} batch→receipt p50/p95/p99`,
          `${ms(run.evaluated.p50)} / ${ms(run.evaluated.p95)} / ${ms(run.evaluated.p99)}`,
          'per lead, from its production batch',
        ]);
        rows.push([
          '',
          `${n} workflow executions`,
          `${fmt(run.executions.total, 0)} = ${fmt(run.executionsPerLead, 3)} per lead`,
          executionTypes(run),
        ]);
        rows.push([
          '',
          `${n} ceiling (c) Temporal`,
          `${fmt(run.ceiling.childrenPerSecond)} leads/s${run.ceiling.complete ? '' : ' (INCOMPLETE)'}`,
          shapeOf(run.ceiling),
        ]);
        rows.push([
          '',
          `${n} ceiling (a) direct signed POSTs`,
          `${fmt(run.direct.leadsPerSecond)} leads/s`,
          `pipeline ${pct(run.leadsPerSecond / run.direct.leadsPerSecond)} of it`,
        ]);
      }
    } else if (record.section === 'ceiling') {
      for (const run of (record.data as { runs: CeilingRun[] }).runs) {
        rows.push([
          'ceiling',
          `(c) with ${fmt(run.children, 0)} children`,
          `${fmt(run.childrenPerSecond)} leads/s${run.complete ? '' : ' (INCOMPLETE)'}`,
          shapeOf(run),
        ]);
      }
    } else if (record.section === 'reads') {
      const r = record.data as ReadsResult;
      rows.push([
        'reads',
        `leads page, ${fmt(r.leads, 0)} leads stored`,
        `${fmt(r.service.pagesPerSecond)} pages/s, p99 ${ms(r.service.p99)}`,
        '',
      ]);
      rows.push([
        '',
        'bare Koa + pg handler',
        `${fmt(r.bare.pagesPerSecond)} pages/s, p99 ${ms(r.bare.p99)}`,
        `ratio ${fmt(r.ratio, 3)}`,
      ]);
    } else if (record.section === 'evaluation') {
      const r = record.data as EvaluationResult;
      for (const v of r.variants)
        rows.push([
          'evaluation',
          `${fmt(r.rows, 0)} rows: ${v.name}`,
          `median ${ms(v.medianMs)}, max ${ms(v.maxMs)}`,
          `${v.candidates} candidates`,
        ]);
    } else if (record.section === 'sources') {
      for (const m of (record.data as SourcesResult).sources) {
        for (const c of m.cycles)
          rows.push([
            'sources',
            `${m.source}: ${c.name}`,
            `${fmt(c.itemsPerSecond)} ${m.unit}/s`,
            `CPU/item worker ${ms(c.cpuMsPerItem.worker ?? NaN)}, PostgreSQL ${ms(c.cpuMsPerItem.PostgreSQL ?? NaN)} (active ${ms(c.postgresActiveMsPerItem)})`,
          ]);
        if (m.paced)
          rows.push([
            '',
            `${m.source}: ${m.paced.cycle.name}`,
            `${ms(m.paced.cycle.msPerItem)} per item`,
            `expected ${ms(m.paced.expectedMsPerItem)}; ${m.paced.hosts.reduce((n, h) => n + h.tooClose, 0)} gaps under the interval`,
          ]);
        rows.push([
          '',
          `${m.source}: one cycle at ${fmt(m.projection.intervalMs / 1000)} s/host`,
          hours(m.projection.cycleS),
          `worker ${fmt(m.workerMB, 0)} MB (peak ${fmt(m.peakMB, 0)})`,
        ]);
      }
    } else if (record.section === 'scale-data') {
      const r = record.data as ScaleDataResult;
      for (const [i, stage] of r.stages.entries()) {
        const load = stage.load;
        rows.push([
          i === 0 ? 'scale-data' : '',
          `load to ${events(stage.size.events)} events, ${events(stage.size.people)} people`,
          `${fmt((load.companiesMs + load.peopleMs + load.eventsMs + load.vacuumMs) / 1000, 0)} s`,
          `events ${fmt(load.eventsMs / 1000, 0)} s`,
        ]);
      }
      for (const p of r.probes)
        rows.push([
          '',
          `one evaluation at ${events(p.events)} events`,
          `${ms(p.sumMs)} (one of each type)`,
          Object.entries(p.medianMsByType)
            .map(([type, value]) => `${type} ${ms(value)}`)
            .join(', '),
        ]);
      for (const i of r.intervals)
        rows.push([
          '',
          `${fmt(r.signals, 0)} signals, ${events(i.eventsPerDay)}/day: lag p50 / p99`,
          `≤ ${i.lagP50S} s / ≤ ${i.lagP99S} s`,
          `PostgreSQL ${fmt(i.postgresCorePct, 1)} % (evaluations ${fmt(i.evaluationPostgresCorePct ?? NaN, 1)} %), worker ${fmt(i.workerCorePct, 1)} % of a core; ${fmt(i.leads, 0)} leads`,
        ]);
      for (const f of r.fullRead)
        rows.push([
          '',
          `first full read, ${f.type} (${f.signals} signals)`,
          `median ${ms(f.medianMs)} + ${ms(f.readToEndMedianMs)}`,
          `first evaluation (max ${ms(f.maxMs)}, ${f.batches} batches, ${f.leads} leads) + rest of window (${f.pages} pages, ${f.complete} to the end)`,
        ]);
      rows.push(['', 'worker memory', `${fmt(r.workerMB, 0)} MB`, `peak ${fmt(r.peakMB, 0)} MB`]);
    } else if (record.section === 'score-costs') {
      const r = record.data as ScoreCostsResult;
      for (const [i, stage] of r.stages.entries()) {
        const f = stage.wholeStoreForecast;
        rows.push([
          i === 0 ? 'score-costs' : '',
          `forecast run over the whole store, ${events(stage.size.events)} events`,
          ms(f.ms),
          `${fmt(f.looked, 0)} companies looked at (four rules), ${fmt(f.made, 0)} forecasts`,
        ]);
      }
      for (const x of r.refreshes) {
        const changed = `${fmt(x.arrivals, 0)} arrivals at ${events(x.storeEvents)}: ${fmt(x.companiesWithScoredEvents, 0)} companies changed (${fmt(x.scoredEventsOfThoseCompanies, 0)} scored events)`;
        rows.push([
          '',
          `${changed}: their scores / account_score refresh`,
          `${ms(x.scoresMs)} / ${ms(x.signalMs)}`,
          `${x.batches} batches, ${x.leads} leads`,
        ]);
        rows.push([
          '',
          `${changed}: forecast pass`,
          ms(x.forecast.ms),
          `${fmt(x.forecast.looked, 0)} companies looked at, ${x.forecast.made} made`,
        ]);
      }
    } else if (record.section === 'scale-signals') {
      const r = record.data as ScaleSignalsResult;
      rows.push([
        'scale-signals',
        `${fmt(r.signals, 0)} signals, ${events(r.store.events)} events: matched share`,
        `mean ${fmt(r.share.mean * 100, 2)} %, median ${fmt(r.share.median * 100, 2)} % (p10 ${fmt(r.share.p10 * 100, 2)}, p90 ${fmt(r.share.p90 * 100, 2)})`,
        `${fmt(r.share.inRange, 0)} of ${fmt(r.share.signals, 0)} uncapped signals within 0.1–1 %`,
      ]);
      for (const l of r.latencyByRate)
        rows.push([
          '',
          `${events(l.eventsPerDay)}/day: ingested → received p50 / p99`,
          `${fmt(l.p50S, 1)} s / ${fmt(l.p99S, 1)} s`,
          `${fmt(l.leads, 0)} leads, ${fmt(l.foundAtClose, 0)} found by the closing evaluation`,
        ]);
      for (const w of r.windows)
        rows.push([
          '',
          `${events(w.eventsPerDay)}/day: PostgreSQL / worker / all three`,
          `${fmt(w.postgresCorePct, 1)} / ${fmt(w.workerCorePct, 1)} / ${fmt(w.servicesCorePct, 1)} % of a core`,
          `worker ${fmt(w.workerPeakMB, 0)} MB peak; ${fmt(w.temporal.visibilityRowsPerSignalDay)} executions/signal/day`,
        ]);
      rows.push([
        '',
        'idle: Temporal + worker + PostgreSQL',
        `${fmt(r.idle.servicesCorePct, 1)} % of a core`,
        `${fmt(r.idle.temporal.visibilityRowsPerSignalDay)} executions, ${fmt(r.idle.temporal.signalHistoryPerSignalDay)} history events per signal per day`,
      ]);
    } else if (record.section === 'schedule') {
      const r = record.data as ScheduleResult;
      rows.push([
        'schedule',
        `${fmt(r.signals, 0)} signals every ${fmt(r.intervalMs / 60_000, 0)} min, lag p50 / p99`,
        `≤ ${r.lagP50S} s / ≤ ${r.lagP99S} s`,
        `${fmt(r.evaluations, 0)} scheduled evaluations, ${pct(r.withinMinuteShare)} within 60 s`,
      ]);
      rows.push(['', 'worker memory', `${fmt(r.workerMB, 0)} MB`, `peak ${fmt(r.peakMB, 0)} MB`]);
    } else {
      const r = record.data as ScaleResult;
      rows.push([
        'scale',
        `worker memory, ${fmt(r.signals, 0)} idle signals`,
        `${fmt(r.idleMB, 0)} MB`,
        `fresh worker ${fmt(r.baselineMB, 0)} MB`,
      ]);
      rows.push([
        '',
        'pause all / resume all',
        `${ms(r.pause.allPausedMs)} / ${ms(r.resume.allEvaluatedMs)}`,
        'until every workflow took it',
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  print('');
  print(line(rows[0]!));
  print(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) print(line(row));
  print('');
  print('targets:');
  for (const record of records)
    for (const v of verdictsOf(record))
      print(`  ${v.met === undefined ? '–     ' : v.met ? 'met   ' : 'MISSED'}  ${v.target}: ${v.measured}`);
  print('');
}

function shapeOf(run: CeilingRun): string {
  return `batches of ${run.batch}, ${run.perRun} children per parent run (${run.parentRuns} runs)`;
}

/** "Temporal server 27 ms, ceiling worker 15.6 ms of CPU per child, machine 100 % busy" */
function ceilingCpu(run: CeilingRun, machine: Machine): string {
  const perChild = (name: string) => fmt(((run.cpu[name] ?? NaN) * 1000) / run.children);
  const busy = ((run.cpu.machine ?? NaN) * 100_000) / (run.elapsedMs * machine.cpus);
  return `CPU per child: Temporal server ${perChild('Temporal server')} ms, ceiling worker ${perChild('ceiling worker')} ms; machine ${fmt(busy, 0)} % busy`;
}

function executionTypes(run: PipelineRun): string {
  if (run.executions.error) return `not counted: ${run.executions.error}`;
  const types = Object.entries(run.executions.byType).map(([type, count]) => `${fmt(count, 0)} ${type}`);
  return `${types.join(', ')}${run.executions.stable ? '' : ' (visibility still moving)'}`;
}

// ------------------------------------------------------------------ files

interface ResultsFile {
  about: string;
  records: SectionRecord[];
}

const ABOUT =
  'Raw results of `npm run bench` (scripts/bench.ts): the latest record of each mode and section, each with its command, ' +
  "machine and date. Written by the bench; docs/performance.md summarises it. Older records are in this file's git history.";

const SUMMARY_BEGIN = '<!-- bench:summary:begin -->';
const SUMMARY_END = '<!-- bench:summary:end -->';

/** Keys a record by mode and section; a new record replaces the old one of the same key. */
const keyOf = (r: SectionRecord) => `${r.mode}:${r.section}${r.temporal ? `:${r.temporal}` : ''}`;
const order = (r: SectionRecord) => SECTIONS.indexOf(r.section) * 2 + (r.mode === 'full' ? 0 : 1);

/** Merges the records into docs/performance-results.json and rebuilds the summary in docs/performance.md. */
export function writeResults(docsDir: string, records: SectionRecord[]): string[] {
  const resultsPath = path.join(docsDir, RESULTS_FILE);
  const previous: SectionRecord[] = existsSync(resultsPath)
    ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as ResultsFile).records
    : [];
  const byKey = new Map(previous.map((r) => [keyOf(r), r]));
  for (const record of records) {
    const before = byKey.get(keyOf(record));
    byKey.set(keyOf(record), before ? withEarlierSourceRows(record, before) : record);
  }
  const all = [...byKey.values()].sort((a, b) => order(a) - order(b));
  writeFileSync(resultsPath, `${JSON.stringify({ about: ABOUT, records: all } satisfies ResultsFile, null, 2)}\n`);

  const docPath = path.join(docsDir, DOCUMENT_FILE);
  let doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : `# Performance\n\n${SUMMARY_BEGIN}\n${SUMMARY_END}\n`;
  if (!doc.includes(SUMMARY_BEGIN)) doc = doc.replace(/\n*$/, `\n\n${SUMMARY_BEGIN}\n${SUMMARY_END}\n`);
  const s = doc.indexOf(SUMMARY_BEGIN);
  const e = doc.indexOf(SUMMARY_END);
  doc = `${doc.slice(0, s + SUMMARY_BEGIN.length)}\n${summary(all)}\n${doc.slice(e)}`;
  writeFileSync(docPath, doc);
  const bytes = Buffer.byteLength(doc);
  if (bytes > DOCUMENT_MAX_BYTES)
    console.warn(
      `[bench] WARNING: ${docPath} is ${bytes} bytes, over its ${DOCUMENT_MAX_BYTES}-byte limit: shorten the text around the summary`,
    );
  return [resultsPath, docPath];
}

/**
 * A sources record of some rows (`--source-rows`) keeps the earlier record's other rows, each
 * with the date and load it was measured at; a record of every row replaces the earlier one.
 */
function withEarlierSourceRows(record: SectionRecord, before: SectionRecord): SectionRecord {
  if (record.section !== 'sources' || record.error || before.error || !before.data) return record;
  const fresh = (record.data as SourcesResult).sources;
  const measuredNow = new Set(fresh.map((m) => m.source));
  const earlier = (before.data as SourcesResult).sources
    .filter((m) => !measuredNow.has(m.source))
    .map((m) => ({ ...m, measured: m.measured ?? { date: before.machine.date, load: before.machine.loadAtStart } }));
  if (earlier.length === 0) return record;
  const data: SourcesResult = { ...(record.data as SourcesResult), sources: [...earlier, ...fresh] };
  return { ...record, data };
}

const dateOf = (r: SectionRecord) => `${r.mode}, ${r.machine.date.slice(0, 10)}`;

/** The summary: targets, then the latest numbers of each section, compact; every detail stays in the JSON. */
export function summary(all: SectionRecord[]): string {
  // One record per section: the full-size one, else the quick check.
  const records = all.filter(
    (r) =>
      r.mode === 'full' || !all.some((o) => o.section === r.section && o.temporal === r.temporal && o.mode === 'full'),
  );
  const lines: string[] = ['### Targets', '', '| run | target | measured | |', '|---|---|---|---|'];
  const pipelineRecords = records.filter((r) => r.section === 'pipeline' && (r.error || pipelineRuns(r).length > 0));
  if (pipelineRecords.length === 0) {
    // Placeholder until the pipeline of one lead workflow per lead has been measured.
    lines.push(
      '| – | pipeline ≥ 70 % of ceiling (c), p99 request → receipt < 2 s at 1,000 leads | **not measured yet**: `npm run bench -- --sections pipeline` | – |',
    );
  }
  for (const record of records)
    for (const v of verdictsOf(record))
      lines.push(
        `| ${dateOf(record)}${record.temporal ? ', cluster' : ''} | ${v.target} | ${v.measured} | ${mark(v.met)} |`,
      );

  lines.push('', '### Pipeline and its ceilings', '');
  const runs = pipelineRecords.flatMap((r) => pipelineRuns(r).map((run) => ({ record: r, run })));
  if (runs.length === 0) {
    lines.push(
      'Not measured yet on the current shape (placeholder written by the bench until `--sections pipeline` runs).',
    );
  } else {
    lines.push(
      '| run | N | leads/s | share of (c) | request → receipt p50 / p99 | batch → receipt p50 / p99 | ceiling (c) | ceiling (a) | executions per lead |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const { record, run } of runs) {
      lines.push(
        `| ${dateOf(record)}, ${record.temporal ?? 'dev server'} | ${fmt(run.n, 0)} | ${fmt(run.leadsPerSecond)}${run.complete ? '' : ' (incomplete)'} | ${pct(run.shareOfCeiling)} | ` +
          `${ms(run.latency.p50)} / ${ms(run.latency.p99)} | ${ms(run.evaluated.p50)} / ${ms(run.evaluated.p99)} | ` +
          `${fmt(run.ceiling.childrenPerSecond)} leads/s | ${fmt(run.direct.leadsPerSecond, 0)} leads/s | ${fmt(run.executionsPerLead, 3)} |`,
      );
    }
    const { run: latest, record: latestRecord } = runs[runs.length - 1]!;
    const names = Object.keys(latest.cpu).filter((name) => name !== 'machine');
    lines.push(
      '',
      `CPU per lead by process, ${latestRecord.temporal ? 'cluster' : 'dev server'}, N = ${fmt(latest.n, 0)} (ms; ceiling (c): per child): ` +
        names
          .map(
            (name) =>
              `${name} ${fmt((latest.cpu[name]! * 1000) / latest.received)} vs ${fmt(((latest.ceiling.cpu[name] ?? NaN) * 1000) / latest.ceiling.children)}`,
          )
          .join('; ') +
        `; ceiling worker ${fmt(((latest.ceiling.cpu['ceiling worker'] ?? NaN) * 1000) / latest.ceiling.children)}.`,
    );
  }
  for (const record of records.filter((r) => r.section === 'ceiling' && r.data)) {
    const runs = (record.data as { runs: CeilingRun[] }).runs;
    const cells = runs.map(
      (run) =>
        `${fmt(run.childrenPerSecond)} leads/s with ${fmt(run.children, 0)} children (${ceilingCpu(run, record.machine)})`,
    );
    lines.push(
      '',
      `Ceiling (c) alone (${dateOf(record)}, \`${record.command}\`, load average ${record.machine.loadAtStart} at start): ` +
        `${cells.join('; ')}${runs[0] ? `; batches of ${runs[0].batch}, ${runs[0].perRun} children per parent run` : ''}.`,
    );
  }

  const other = records.filter(
    (r) =>
      !r.error &&
      r.data &&
      ['reads', 'evaluation', 'scale', 'schedule', 'sources', 'scale-data', 'score-costs', 'scale-signals'].includes(
        r.section,
      ),
  );
  if (other.length) lines.push('', '### Reads, evaluation, scale, sources', '');
  for (const record of other) {
    if (record.section === 'reads') {
      const r = record.data as ReadsResult;
      lines.push(
        `- Reads (${dateOf(record)}): \`GET .../leads\` ${fmt(r.service.pagesPerSecond, 0)} pages/s (p99 ${ms(r.service.p99)}) vs bare Koa + pg ` +
          `${fmt(r.bare.pagesPerSecond, 0)} (p99 ${ms(r.bare.p99)}), ${fmt(r.leads, 0)} leads stored, 50 connections.`,
      );
    } else if (record.section === 'evaluation') {
      const r = record.data as EvaluationResult;
      lines.push(
        `- Evaluation (${dateOf(record)}), ${fmt(r.rows, 0)} rows, medians: ${r.variants.map((v) => `${v.name} ${ms(v.medianMs)}`).join('; ')}.`,
      );
    } else if (record.section === 'sources') {
      const shown = (record.data as SourcesResult).sources;
      for (const m of shown) lines.push(sourceSummary(record, m));
      // A source benched only in the quick check so far shows that check.
      const quick = all.find(
        (o) => o.section === 'sources' && o.mode === 'quick' && o.temporal === record.temporal && !o.error && o.data,
      );
      if (record.mode === 'full' && quick)
        for (const m of (quick.data as SourcesResult).sources)
          if (!shown.some((f) => f.source === m.source)) lines.push(sourceSummary(quick, m));
    } else if (record.section === 'scale-data') {
      lines.push(scaleDataSummary(record, record.data as ScaleDataResult));
    } else if (record.section === 'score-costs') {
      lines.push(scoreCostsSummary(record, record.data as ScoreCostsResult));
    } else if (record.section === 'scale-signals') {
      lines.push(scaleSignalsSummary(record, record.data as ScaleSignalsResult));
    } else if (record.section === 'schedule') {
      const r = record.data as ScheduleResult;
      lines.push(
        `- Schedule (${dateOf(record)}), ${fmt(r.signals, 0)} signals every ${fmt(r.intervalMs / 60_000, 0)} min on one worker: ` +
          `lag p50 ≤ ${r.lagP50S} s, p99 ≤ ${r.lagP99S} s over ${fmt(r.evaluations, 0)} scheduled evaluations; worker ${fmt(r.workerMB, 0)} MB (peak ${fmt(r.peakMB, 0)}).`,
      );
    } else {
      const r = record.data as ScaleResult;
      lines.push(
        `- Scale (${dateOf(record)}), ${fmt(r.signals, 0)} signals: worker ${fmt(r.baselineMB, 0)} MB fresh, ${fmt(r.idleMB, 0)} MB idle, ` +
          `${fmt(r.afterMB, 0)} MB after pause + resume all (peak ${fmt(r.peakMB, 0)}); all paused in ${ms(r.pause.allPausedMs)}, all resumed and evaluated in ${ms(r.resume.allEvaluatedMs)}.`,
      );
    }
  }
  lines.push(
    '',
    `The latest full-size record of each section, else its quick check; machine, date, command and every number of each: \`docs/${RESULTS_FILE}\`.`,
  );
  return lines.join('\n');
}

/** One line: evaluation cost at both sizes, the base interval's lag and CPU, what one more signal and event cost. */
function scaleDataSummary(record: SectionRecord, r: ScaleDataResult): string {
  const base = r.intervals[0];
  const p = r.projection;
  const watchlist = r.fullRead.find((f) => f.type === 'account_watchlist');
  return (
    `- Scale data (${dateOf(record)}, load ${record.machine.loadAtStart.split(',')[0]}${r.steadyState ? '' : ', full evaluation'}): ` +
    `${fmt(r.signals, 0)} signals / ${fmt(r.intervalMs / 60_000, 0)} min; one evaluation ` +
    r.probes.map((x) => `${ms(x.sumMs)} at ${events(x.events)}`).join(', ') +
    (base
      ? `; lag p99 ≤ ${base.lagP99S} s, PostgreSQL ${fmt(base.postgresCorePct, 1)} % (ingest ${fmt(base.baselinePostgresCorePct ?? NaN, 1)} %)`
      : '') +
    `; per evaluation ${fmt(p.postgresMsPerEvaluation)} ms PostgreSQL (+${fmt(p.postgresMsPerEvaluationPer100kEventsPerDay)} per 100k events/day), ` +
    `${fmt(p.workerMsPerEvaluation)} ms worker: ~${fmt(p.signalsPer15MinAtQuarterCore, 0)} signals/15 min per quarter PostgreSQL core, ` +
    `~${fmt(p.signalsPer15MinPerWorkerCore, 0)} per worker core` +
    (watchlist ? `; watchlist first full read ${ms(watchlist.medianMs + watchlist.readToEndMedianMs)}` : '') +
    `; ${fmt(r.workerMB, 0)} MB.`
  );
}

/** One line: the whole store's forecast run, then per arrival size what changed and what refreshing it took. */
function scoreCostsSummary(record: SectionRecord, r: ScoreCostsResult): string {
  return (
    `- Scores and forecasts (${dateOf(record)}, load ${record.machine.loadAtStart.split(',')[0]}): forecast run over the whole store ` +
    r.stages.map((s) => `${ms(s.wholeStoreForecast.ms)} at ${events(s.size.events)}`).join(', ') +
    "; one 15-minute interval's arrivals → companies changed: their scores / account_score refresh / forecast pass " +
    r.refreshes
      .map(
        (x) =>
          `${fmt(x.arrivals, 0)} at ${events(x.storeEvents)} → ${fmt(x.companiesWithScoredEvents, 0)}: ` +
          `${ms(x.scoresMs)} / ${ms(x.signalMs)} / ${ms(x.forecast.ms)}`,
      )
      .join('; ') +
    '.'
  );
}

/** One line: latency, idle cost, the higher rate's PostgreSQL and memory, the matched share, Temporal rows. */
function scaleSignalsSummary(record: SectionRecord, r: ScaleSignalsResult): string {
  const higher = r.windows[r.windows.length - 1];
  return (
    `- Scale signals (${dateOf(record)}${record.temporal ? ', cluster' : ''}, load ${record.machine.loadAtStart.split(',')[0]}, interval ${r.evaluationInterval}): ` +
    `${fmt(r.signals, 0)} signals, ${events(r.store.events)} events, matched share mean ${fmt(r.share.mean * 100, 2)} %; ` +
    `ingested → received p50 ${fmt(r.latency.p50S, 1)} s, p99 ${fmt(r.latency.p99S, 1)} s; idle ${fmt(r.idle.servicesCorePct, 1)} % of a core` +
    (higher
      ? `; at ${events(higher.eventsPerDay)}/day PostgreSQL ${fmt(higher.postgresCorePct, 1)} %, worker ${fmt(higher.workerPeakMB, 0)} MB`
      : '') +
    `; idle per signal per day ${fmt(r.idle.temporal.visibilityRowsPerSignalDay)} executions, ${fmt(r.idle.temporal.signalHistoryPerSignalDay)} history events.`
  );
}

/** One line per source: pace and CPU per item at interval 0 (each cycle, e.g. first / steady); the JSON has the rest. */
function sourceSummary(record: SectionRecord, m: SourceMeasurement): string {
  const each = (value: (c: SourceMeasurement['cycles'][number]) => number) =>
    m.cycles.map((c) => fmt(value(c))).join(' / ');
  return (
    `- Sources (${record.mode}, ${(m.measured?.date ?? record.machine.date).slice(0, 10)}, ` +
    `load ${(m.measured?.load ?? record.machine.loadAtStart).split(',')[0]}): ${m.source}, ${fmt(m.items, 0)} ${m.unit}, ` +
    `${each((c) => c.itemsPerSecond)} ${m.unit}/s; CPU per item worker ${each((c) => c.cpuMsPerItem.worker ?? NaN)} ms, ` +
    `PostgreSQL ${each((c) => c.cpuMsPerItem.PostgreSQL ?? NaN)} ms (${m.cycles.map((c) => c.name.split(',')[0]).join(' / ')}); ` +
    `worker ${fmt(m.workerMB, 0)} MB.`
  );
}
