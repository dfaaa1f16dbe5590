/**
 * The results: a table on the terminal and `docs/performance.md`. The document keeps what people
 * wrote in it; the bench owns only its marked blocks, one per (mode, section), each carrying its
 * own data, machine and command, so re-running one section replaces that section's block alone
 * and the summary is rebuilt from every block present.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { EvaluationResult } from './evaluation';
import { CONSTANT_EXECUTIONS_PER_LEAD_BEFORE_MEASURING, type PipelineRun } from './pipeline';
import type { ReadsResult } from './reads';
import type { ScaleResult } from './scale';
import { fmt, ms } from './stats';

export const SECTIONS = ['pipeline', 'reads', 'evaluation', 'scale'] as const;
export type Section = (typeof SECTIONS)[number];
export type Mode = 'full' | 'quick';

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

// ------------------------------------------------------------------ pipeline helpers

/** Executions per lead ceiling (b) divided by: measured, or in older records the constant of the time. */
function executionsPerLeadOf(run: PipelineRun): { value: number; measured: boolean } {
  return run.executionsPerLead === undefined
    ? { value: CONSTANT_EXECUTIONS_PER_LEAD_BEFORE_MEASURING, measured: false }
    : { value: run.executionsPerLead, measured: true };
}

/** A small ratio with four significant digits, no exponent: 2.002, 0.001, 0.0031. */
function perLead(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return Number(value.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 8 });
}

/** "41.2 executions/s ÷ 0.003 executions per lead (measured) = 13,733 leads/s" */
function ceilingB(run: PipelineRun): string {
  const epl = executionsPerLeadOf(run);
  return `${fmt(run.temporal.executionsPerSecond)} executions/s ÷ ${perLead(epl.value)} executions per lead${epl.measured ? '' : ' (constant)'} = ${fmt(run.temporal.leadsPerSecond)} leads/s`;
}

/** Executions per lead below this: Temporal is not on the per-lead path (a lead costs no execution of its own). */
const OFF_THE_PER_LEAD_PATH = 0.5;

const offThePerLeadPath = (runs: PipelineRun[]) => runs.some((r) => r.executionsPerLead !== undefined && r.executionsPerLead < OFF_THE_PER_LEAD_PATH);

const CEILING_B_NOTE =
  'Temporal is not on the per-lead path: one activity makes a whole batch\'s first delivery attempts, and only a delivery that ' +
  'attempt did not settle gets a workflow, so the executions per lead are a small fraction and ceiling (b) (Temporal\'s ' +
  'executions/s divided by them) is far above anything that signs and POSTs each lead: half of it is above ceiling (a). ' +
  'Ceiling (a), the direct signed POSTs, is the binding one. Why the (b) target is not pursued: docs/performance.md, ' +
  '"Ceiling (b) and the batched hand-off".';

const LATENCY_DEFINITION =
  '"Request → receipt" is per lead, from the evaluate request (the evaluation that finds all N candidates at once) to the ' +
  'receiver\'s verified arrival; the p99 target is judged on it, the stricter reading. "Evaluated → receipt" is per lead from the ' +
  'start of its own production batch (leads.created_at).';

function pipelineVerdicts(runs: PipelineRun[]): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const run of runs) {
    verdicts.push({
      target: `pipeline ≥ 200 leads/s end to end (N = ${fmt(run.n, 0)})`,
      measured: `${fmt(run.leadsPerSecond)} leads/s${run.complete ? '' : ` (only ${run.received} of ${run.n} received)`}`,
      met: run.complete && run.leadsPerSecond >= 200,
    });
    const ratio = run.leadsPerSecond / run.temporal.leadsPerSecond;
    const halfOfB = run.temporal.leadsPerSecond / 2;
    verdicts.push({
      target: `pipeline ≥ 50 % of the Temporal ceiling (b) (N = ${fmt(run.n, 0)})`,
      measured:
        `${fmt(ratio * 100)} % of ${ceilingB(run)}` +
        (halfOfB > run.direct.leadsPerSecond ? `; 50 % of (b) is above ceiling (a), ${fmt(run.direct.leadsPerSecond)} leads/s` : ''),
      met: run.complete && ratio >= 0.5,
    });
    if (run.n === 1000) {
      verdicts.push({
        target: 'p99 evaluate-to-receipt < 2 s at 1,000 leads',
        measured: `${ms(run.latency.p99)} from the evaluate request` + (run.evaluated ? ` (from each lead's batch: ${ms(run.evaluated.p99)})` : ''),
        met: run.complete && run.latency.p99 < 2000,
      });
    }
  }
  return verdicts;
}

function readsVerdicts(r: ReadsResult): Verdict[] {
  return [
    {
      target: `leads page ≥ 1.0× the bare handler (${fmt(r.leads, 0)} leads stored)`,
      measured: `${fmt(r.ratio)}× (${fmt(r.service.pagesPerSecond)} vs ${fmt(r.bare.pagesPerSecond)} pages/s)`,
      met: r.ratio >= 1 && r.service.non2xx === 0 && r.service.errors === 0,
    },
  ];
}

function evaluationVerdicts(r: EvaluationResult): Verdict[] {
  return [
    {
      target: `one evaluation over ${fmt(r.rows, 0)} people and events < 500 ms`,
      measured: `${ms(r.worstMedianMs)} (slowest variant, median)`,
      met: r.worstMedianMs < 500,
    },
  ];
}

function scaleVerdicts(r: ScaleResult): Verdict[] {
  return [
    {
      target: `${fmt(r.signals, 0)} idle signals < 500 MB of worker memory`,
      measured: `${fmt(r.idleMB, 0)} MB resident`,
      met: r.idleMB < 500,
    },
  ];
}

function verdictsOf(record: SectionRecord): Verdict[] {
  if (record.error || !record.data) {
    return [{ target: `${record.section}`, measured: `failed: ${record.error ?? 'no data'}`, met: false }];
  }
  switch (record.section) {
    case 'pipeline':
      return pipelineVerdicts((record.data as { runs: PipelineRun[] }).runs);
    case 'reads':
      return readsVerdicts(record.data as ReadsResult);
    case 'evaluation':
      return evaluationVerdicts(record.data as EvaluationResult);
    case 'scale':
      return scaleVerdicts(record.data as ScaleResult);
  }
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
      for (const run of (record.data as { runs: PipelineRun[] }).runs) {
        const n = `N=${fmt(run.n, 0)}`;
        rows.push(['pipeline', `${n} end to end`, `${fmt(run.leadsPerSecond)} leads/s${run.complete ? '' : ' (INCOMPLETE)'}`, '']);
        if (run.evaluated) {
          rows.push(['', `${n} evaluated→receipt p50/p95/p99`, `${ms(run.evaluated.p50)} / ${ms(run.evaluated.p95)} / ${ms(run.evaluated.p99)}`, 'per lead, from its batch']);
        }
        rows.push(['', `${n} request→receipt p50/p95/p99`, `${ms(run.latency.p50)} / ${ms(run.latency.p95)} / ${ms(run.latency.p99)}`, 'per lead, from the request']);
        if (run.executions) {
          const x = run.executions;
          rows.push([
            '',
            `${n} workflow executions spent`,
            x.error ? `not counted: ${x.error}` : `${x.total} = ${perLead(run.executionsPerLead ?? NaN)} per lead`,
            `signal runs ${x.signal}, delivery ${x.delivery}, lead ${x.lead}${x.stable ? '' : ' (visibility still moving)'}`,
          ]);
        }
        rows.push(['', `${n} ceiling (a) direct signed POSTs`, `${fmt(run.direct.leadsPerSecond)} leads/s`, `ratio ${fmt(run.leadsPerSecond / run.direct.leadsPerSecond, 3)}`]);
        rows.push(['', `${n} ceiling (b) Temporal`, ceilingB(run), `ratio ${fmt(run.leadsPerSecond / run.temporal.leadsPerSecond, 3)}`]);
      }
    } else if (record.section === 'reads') {
      const r = record.data as ReadsResult;
      rows.push(['reads', `leads page, ${fmt(r.leads, 0)} leads stored`, `${fmt(r.service.pagesPerSecond)} pages/s, p99 ${ms(r.service.p99)}`, '']);
      rows.push(['', 'bare Koa + pg handler', `${fmt(r.bare.pagesPerSecond)} pages/s, p99 ${ms(r.bare.p99)}`, `ratio ${fmt(r.ratio, 3)}`]);
    } else if (record.section === 'evaluation') {
      const r = record.data as EvaluationResult;
      for (const v of r.variants) rows.push(['evaluation', `${fmt(r.rows, 0)} rows: ${v.name}`, `median ${ms(v.medianMs)}, max ${ms(v.maxMs)}`, `${v.candidates} candidates`]);
    } else {
      const r = record.data as ScaleResult;
      rows.push(['scale', `worker memory, ${fmt(r.signals, 0)} idle signals`, `${fmt(r.idleMB, 0)} MB`, `fresh worker ${fmt(r.baselineMB, 0)} MB`]);
      rows.push(['', 'pause all / resume all', `${ms(r.pause.allPausedMs)} / ${ms(r.resume.allEvaluatedMs)}`, 'until every workflow took it']);
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
  for (const record of records) for (const v of verdictsOf(record)) print(`  ${v.met ? 'met   ' : 'MISSED'}  ${v.target}: ${v.measured}`);
  print('');
}

// ------------------------------------------------------------------ document

const BEGIN = (mode: Mode, section: Section) => `<!-- bench:${mode}:${section}:begin -->`;
const END = (mode: Mode, section: Section) => `<!-- bench:${mode}:${section}:end -->`;
const SUMMARY_BEGIN = '<!-- bench:summary:begin -->';
const SUMMARY_END = '<!-- bench:summary:end -->';

function machineLine(m: Machine): string {
  const memory = /Mem:\s+(\S+)/.exec(m.memory)?.[1] ?? 'n/a';
  return `${m.date.slice(0, 16).replace('T', ' ')} UTC · ${m.cpus} × ${m.cpuModel} · ${memory} RAM · Node ${m.node} · ${m.kernel} · load average at start ${m.loadAtStart}${m.loadAtEnd ? `, at end ${m.loadAtEnd}` : ''}`;
}

function sectionBody(record: SectionRecord): string {
  const title = { pipeline: 'Pipeline, end to end', reads: 'API reads', evaluation: 'Evaluation', scale: 'Scale check' }[record.section];
  const lines = [`### ${title} (${record.mode} run)`, '', `Measured ${machineLine(record.machine)}.`, '', `Command: \`${record.command}\` (section took ${fmt(record.elapsedMs / 1000, 0)} s)`, ''];
  if (record.error || !record.data) {
    lines.push(`**The section failed:** ${record.error ?? 'no data'}`, '');
    return lines.join('\n');
  }
  if (record.section === 'pipeline') {
    const runs = (record.data as { runs: PipelineRun[] }).runs;
    const evaluated = (r: PipelineRun, p: 'p50' | 'p95' | 'p99' | 'max') => ms(r.evaluated?.[p] ?? NaN);
    lines.push(
      '| N | received | leads/s | evaluated → receipt p50 / p95 / p99 / max | request → receipt p50 / p95 / p99 / max | ceiling (a) direct | pipeline / (a) | ceiling (b) Temporal | pipeline / (b) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of runs) {
      lines.push(
        `| ${fmt(r.n, 0)} | ${fmt(r.received, 0)}${r.complete ? '' : ' (incomplete)'} | ${fmt(r.leadsPerSecond)} | ` +
          `${evaluated(r, 'p50')} / ${evaluated(r, 'p95')} / ${evaluated(r, 'p99')} / ${evaluated(r, 'max')} | ` +
          `${ms(r.latency.p50)} / ${ms(r.latency.p95)} / ${ms(r.latency.p99)} / ${ms(r.latency.max)} | ` +
          `${fmt(r.direct.leadsPerSecond)} leads/s | ${fmt(r.leadsPerSecond / r.direct.leadsPerSecond, 3)} | ` +
          `${ceilingB(r)}${r.temporal.complete ? '' : ' (incomplete)'} | ${fmt(r.leadsPerSecond / r.temporal.leadsPerSecond, 3)} |`,
      );
    }
    lines.push('', LATENCY_DEFINITION, '');
    lines.push(
      'Ceiling (b) is the rate at which the same Temporal server and a worker run a minimal parent → child workflow → one activity ' +
        '(executions/s: the children plus the parent\'s runs), divided by the workflow executions the pipeline spent per lead, ' +
        'counted in Temporal\'s visibility after the run (every execution with the signal\'s `SignalId`, each continued-as-new run counted) ' +
        'and divided by the leads the signal produced.' +
        (runs.some((r) => r.executionsPerLead === undefined)
          ? ` Runs marked "(constant)" predate the count and used ${perLead(CONSTANT_EXECUTIONS_PER_LEAD_BEFORE_MEASURING)}, derived from the code of the time.`
          : ''),
      '',
    );
    if (offThePerLeadPath(runs)) lines.push(CEILING_B_NOTE, '');
    lines.push('| N | workflow executions | signal workflow runs | delivery workflows | lead workflows | per lead |', '|---:|---:|---:|---:|---:|---:|');
    for (const r of runs) {
      const x = r.executions;
      lines.push(
        x?.error
          ? `| ${fmt(r.n, 0)} | not counted: ${x.error.replace(/\|/g, '/')} | | | | n/a |`
          : x
          ? `| ${fmt(r.n, 0)} | ${fmt(x.total, 0)}${x.stable ? '' : ' (visibility still moving)'} | ${fmt(x.signal, 0)} | ${fmt(x.delivery, 0)} | ${fmt(x.lead, 0)} | ${perLead(r.executionsPerLead ?? NaN)} |`
          : `| ${fmt(r.n, 0)} | not counted | | | | ${perLead(CONSTANT_EXECUTIONS_PER_LEAD_BEFORE_MEASURING)} (constant) |`,
      );
    }
    lines.push('', 'Where each lead was, from the evaluate request (per lead; from the database and the receiver):', '');
    lines.push('| N | production batch began p50 / p99 | handed off (first attempts made) p50 / p99 | received p50 / p99 | ingest (not in the latency) |', '|---:|---:|---:|---:|---:|');
    for (const r of runs) {
      lines.push(
        `| ${fmt(r.n, 0)} | ${ms(r.produced.p50)} / ${ms(r.produced.p99)} | ${ms(r.handedOff.p50)} / ${ms(r.handedOff.p99)} | ${ms(r.latency.p50)} / ${ms(r.latency.p99)} | ${ms(r.ingestMs)} |`,
      );
    }
    lines.push(
      '',
      `CPU per lead, by process (ms of CPU time; the ceiling (b) column is the ceiling's CPU per execution times the run's executions per lead, as above). "machine" is every process on the ${record.machine.cpus} cores, ours and other people's:`,
      '',
    );
    const names = [...new Set(runs.flatMap((r) => [...Object.keys(r.cpu), ...Object.keys(r.temporal.cpu)]))];
    lines.push(
      `| process | ${runs.map((r) => `pipeline, N = ${fmt(r.n, 0)} | ceiling (b), N = ${fmt(r.n, 0)}`).join(' | ')} |`,
      `|---|${runs.map(() => '---:|---:').join('|')}|`,
    );
    for (const name of names) {
      const cells = runs.map((r) => {
        const executions = r.temporal.executions ?? r.n + Math.ceil(r.n / 500);
        const pipeline = r.cpu[name] === undefined ? '' : fmt((r.cpu[name]! * 1000) / r.received);
        const ceiling = r.temporal.cpu[name] === undefined ? '' : fmt(((r.temporal.cpu[name]! * 1000) / executions) * executionsPerLeadOf(r).value);
        return `${pipeline} | ${ceiling}`;
      });
      lines.push(`| ${name} | ${cells.join(' | ')} |`);
    }
    lines.push(
      `| machine busy, % of all cores | ${runs
        .map((r) => `${fmt(((r.cpu.machine ?? NaN) * 100000) / (r.elapsedMs * record.machine.cpus), 0)} % | ${fmt(((r.temporal.cpu.machine ?? NaN) * 100000) / (r.temporal.elapsedMs * record.machine.cpus), 0)} %`)
        .join(' | ')} |`,
    );
    const refused = runs.reduce((sum, r) => sum + r.refused, 0);
    const duplicates = runs.reduce((sum, r) => sum + r.duplicates, 0);
    lines.push('', `Signatures refused by the receiver: ${refused}; leads received twice: ${duplicates}.`, '');
  } else if (record.section === 'reads') {
    const r = record.data as ReadsResult;
    lines.push(
      `${fmt(r.leads, 0)} leads of one signal stored (loaded in ${fmt(r.loadMs / 1000, 0)} s with SQL, then \`VACUUM ANALYZE\`); the first page, ${r.pageLeads} leads, ${fmt(r.pageBytes, 0)} bytes; autocannon, 50 connections, ${r.service.rounds.length} alternating rounds of ${r.durationSeconds} s each after a warm-up.`,
      '',
      '| handler | pages/s (mean of rounds) | rounds | p50 | p99 | non-2xx | errors |',
      '|---|---:|---|---:|---:|---:|---:|',
      `| \`GET /api/v1/signals/{id}/leads\` | ${fmt(r.service.pagesPerSecond)} | ${r.service.rounds.map((x) => fmt(x, 0)).join(', ')} | ${ms(r.service.p50)} | ${ms(r.service.p99)} | ${r.service.non2xx} | ${r.service.errors} |`,
      `| bare Koa + pg | ${fmt(r.bare.pagesPerSecond)} | ${r.bare.rounds.map((x) => fmt(x, 0)).join(', ')} | ${ms(r.bare.p50)} | ${ms(r.bare.p99)} | ${r.bare.non2xx} | ${r.bare.errors} |`,
      '',
      `Ratio service / bare: **${fmt(r.ratio, 3)}×**.`,
      '',
      'CPU per page, by process (ms of CPU time over all rounds; "machine" counts every process on the machine, other people\'s too):',
      '',
      '| process | service rounds | bare rounds |',
      '|---|---:|---:|',
      ...[...new Set([...Object.keys(r.service.cpuMsPerPage ?? {}), ...Object.keys(r.bare.cpuMsPerPage ?? {})])].map(
        (name) => `| ${name} | ${fmt(r.service.cpuMsPerPage?.[name] ?? NaN, 3)} | ${fmt(r.bare.cpuMsPerPage?.[name] ?? NaN, 3)} |`,
      ),
      '',
    );
  } else if (record.section === 'evaluation') {
    const r = record.data as EvaluationResult;
    lines.push(
      `${fmt(r.rows, 0)} people and ${fmt(r.rows, 0)} job-change events over ${fmt(r.companies, 0)} companies (loaded in ${fmt(r.loadMs / 1000, 0)} s with SQL), events spread over a year (about half inside the 180-day window). Each variant: one warm-up, then 5 timed calls of \`findCandidates\` (batch 100, as \`produceBatch\` asks).`,
      '',
      '| signal config | candidates | median | max | runs |',
      '|---|---:|---:|---:|---|',
    );
    for (const v of r.variants) {
      lines.push(`| ${v.name}: \`${JSON.stringify(v.config)}\` | ${v.candidates} | ${ms(v.medianMs)} | ${ms(v.maxMs)} | ${v.runsMs.map((x) => fmt(x, 0)).join(', ')} |`);
    }
    lines.push('');
    for (const v of r.variants) {
      lines.push(`<details><summary>EXPLAIN ANALYZE: ${v.name}</summary>`, '', '```', v.plan, '```', '', '</details>', '');
    }
  } else {
    const r = record.data as ScaleResult;
    lines.push(
      '| measurement | value |',
      '|---|---:|',
      `| fresh worker, before the signals | ${fmt(r.baselineMB, 0)} MB resident |`,
      `| worker with ${fmt(r.signals, 0)} active signals, all idle | **${fmt(r.idleMB, 0)} MB** resident (${fmt(r.perSignalKB, 0)} kB per signal over the fresh worker) |`,
      `| worker after pause all + resume all | ${fmt(r.afterMB, 0)} MB resident, peak ${fmt(r.peakMB, 0)} MB |`,
      `| activate all (API calls, 20 at a time) | ${ms(r.activateMs)}; all evaluated once and idle after ${ms(r.activateIdleMs)} |`,
      `| pause all | API calls ${ms(r.pause.apiMs)}; every workflow paused after ${ms(r.pause.allPausedMs)} |`,
      `| resume all | API calls ${ms(r.resume.apiMs)}; every workflow's resume evaluation done after ${ms(r.resume.allEvaluatedMs)} |`,
      '',
    );
  }
  return lines.join('\n');
}

function block(record: SectionRecord): string {
  const data = Buffer.from(JSON.stringify(record)).toString('base64');
  return [BEGIN(record.mode, record.section), `<!-- bench:data ${data} -->`, sectionBody(record), END(record.mode, record.section)].join('\n');
}

const INTRO = `# Performance

How fast the service is on one small machine, measured by \`npm run bench\` (see \`scripts/bench.ts\`). The bench
starts its own throw-away stack, as \`npm start\` does, in a temp dir on free ports: embedded PostgreSQL (durable
settings, as \`npm start\`), a Temporal dev server (SQLite file, headless), the worker and the API from \`dist/\`
(\`LOG_LEVEL=warn\`, \`DEMO_DATA=false\`, \`SIGNAL_EVALUATION_INTERVAL=1h\`, \`RATE_LIMIT_PER_SECOND=1000000\` so the
limiter runs but never refuses). The load generators, receiver and reference handlers run on the same machine.

The blocks between \`bench:\` markers are rewritten by the bench; the rest of this file is written by people.

${SUMMARY_BEGIN}
${SUMMARY_END}

## Results
`;

function recordsIn(doc: string): SectionRecord[] {
  const found: SectionRecord[] = [];
  for (const match of doc.matchAll(/<!-- bench:data ([A-Za-z0-9+/=]+) -->/g)) {
    try {
      found.push(JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as SectionRecord);
    } catch {
      // A damaged block is rewritten on the next run of its section.
    }
  }
  return found;
}

function summary(records: SectionRecord[]): string {
  const order = (r: SectionRecord) => (r.mode === 'full' ? 0 : 1) * 10 + SECTIONS.indexOf(r.section);
  const lines = ['## Summary against the targets', '', '| run | target | measured | |', '|---|---|---|---|'];
  for (const record of [...records].sort((a, b) => order(a) - order(b))) {
    for (const v of verdictsOf(record)) lines.push(`| ${record.mode}, ${record.machine.date.slice(0, 10)} | ${v.target} | ${v.measured} | ${mark(v.met)} |`);
  }
  const pipelineRuns = records.filter((r) => r.section === 'pipeline' && !r.error && r.data).flatMap((r) => (r.data as { runs: PipelineRun[] }).runs);
  if (pipelineRuns.length) {
    lines.push('', `${LATENCY_DEFINITION} Ceiling (b) is Temporal's executions/s for a minimal parent → child → activity divided by the workflow executions the pipeline was counted to spend per lead.`);
    if (offThePerLeadPath(pipelineRuns)) lines.push('', CEILING_B_NOTE);
  }
  lines.push('', 'Quick runs (`--quick`) use N = 1,000 only, 100,000 stored leads, 100,000 rows and 100 signals: a sanity check, not the targets\' scale.');
  return lines.join('\n');
}

/** Writes the records' blocks into the document (creating it if need be) and rebuilds the summary. */
export function writeDocument(file: string, records: SectionRecord[]): void {
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : INTRO;
  if (!doc.includes(SUMMARY_BEGIN)) doc = doc.replace(/\n*$/, `\n\n${SUMMARY_BEGIN}\n${SUMMARY_END}\n`);
  for (const record of records) {
    const begin = BEGIN(record.mode, record.section);
    const end = END(record.mode, record.section);
    const start = doc.indexOf(begin);
    const stop = doc.indexOf(end);
    if (start >= 0 && stop > start) doc = doc.slice(0, start) + block(record) + doc.slice(stop + end.length);
    else doc = doc.replace(/\n*$/, `\n\n${block(record)}\n`);
  }
  const all = recordsIn(doc);
  const s = doc.indexOf(SUMMARY_BEGIN);
  const e = doc.indexOf(SUMMARY_END);
  doc = doc.slice(0, s + SUMMARY_BEGIN.length) + '\n' + summary(all) + '\n' + doc.slice(e);
  writeFileSync(file, doc);
}
