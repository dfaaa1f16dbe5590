/**
 * End to end: N job changes ingested for an active job-changes signal whose webhook is a
 * verifying receiver on 127.0.0.1, then one evaluate request; every lead must arrive. Beside
 * it, in the same run, the two ceilings: (a) the same payloads signed and POSTed straight to
 * the same receiver, (c) the same Temporal server running the pipeline's shape with nothing
 * inside it (ceiling.ts), with the service worker's tuning.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as PgClient } from 'pg';
import {
  signalWorkflowId,
  signalWorkflowStateQuery as stateQuery,
  type SignalWorkflowState,
} from '../../src/temporal/contract';
import type { CeilingRun, CeilingWorker } from './ceiling';
import { waitForQuiet } from './ceiling';
import { call, createAccount, expectStatus } from './http';
import type { BenchReceiver } from './receiver';
import type { BenchStack } from './stack';
import { cpuReading } from './cpu';
import { percentile } from './stats';
import { workerTuning } from '../../worker/tuning';

/** Visibility may lag the workflows a little: the count is read until it holds still this long. */
const EXECUTION_COUNT_STABLE_MS = 2_000;
const EXECUTION_COUNT_TIMEOUT_MS = 30_000;
/** How long the run's workflows may take to close after the last lead arrived, before ceiling (c) starts beside them. */
const SETTLE_TIMEOUT_MS = 60_000;
/** The lead workflows' routes run as local activities: the direct sender sends as many at once as a worker runs. */
const DIRECT_SEND_CONCURRENCY = workerTuning.maxConcurrentLocalActivityExecutions;
const INGEST_CHUNK_LINES = 5_000;
const DRAIN_TIMEOUT_MS = 600_000;

/** Titles and the persona each maps to; each run of the section uses its own, so no signal sees another run's people. */
const PERSONAS = [
  { title: 'CTO', persona: 'Chief Technology Officer' },
  { title: 'CFO', persona: 'Chief Financial Officer' },
  { title: 'CMO', persona: 'Chief Marketing Officer' },
  { title: 'COO', persona: 'Chief Operating Officer' },
];

export interface Distribution {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface PipelineRun {
  n: number;
  ingestMs: number;
  received: number;
  complete: boolean;
  refused: number;
  duplicates: number;
  /** Evaluate request → last lead received. */
  elapsedMs: number;
  leadsPerSecond: number;
  /** Per lead: evaluate request → the receiver has it. */
  latency: Distribution;
  /** Per lead: its production batch began (leads.created_at) → the receiver has it. */
  evaluated: Distribution;
  /** Per lead, from the database: evaluate request → its production batch began (leads.created_at). */
  produced: Distribution;
  /** Workflow executions the run spent, from Temporal's visibility (information, not a ceiling). */
  executions: ExecutionCount;
  /** executions.total ÷ the leads the signal produced. */
  executionsPerLead: number;
  /** CPU seconds per process (and the whole machine) from the evaluate request to the last lead. */
  cpu: Record<string, number>;
  /** Ceiling (a): the same payloads signed and POSTed straight to the receiver. */
  direct: { elapsedMs: number; leadsPerSecond: number; failed: number };
  /** Ceiling (c), measured right after the run with N children. */
  ceiling: CeilingRun;
  /** leadsPerSecond ÷ ceiling.childrenPerSecond (target ≥ 0.7). */
  shareOfCeiling: number;
}

export interface ExecutionCount {
  /** Every execution (each run of a continued-as-new workflow counts) with SignalId = the run's signal. */
  total: number;
  /** The same executions by workflow type. */
  byType: Record<string, number>;
  /** False when visibility had not held still by the time-out: the count may be low. */
  stable: boolean;
  /** Why visibility could not be read (the counts are then NaN). */
  error?: string;
}

function distribution(values: number[]): Distribution {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: percentile(values, 100),
  };
}

/** The provider records of one run: a company per ten people, one job change per person. */
function records(tag: string, n: number, title: string): string[] {
  const companies: string[] = [];
  const people: string[] = [];
  const events: string[] = [];
  const now = Date.now();
  for (let c = 0; c < Math.ceil(n / 10); c++) {
    companies.push(
      JSON.stringify({
        kind: 'company',
        id: `bench-${tag}-co-${c}`,
        name: `Bench ${tag} Company ${c}`,
        domain: `bench${tag}c${c}.com`,
        linkedinUrl: `https://www.linkedin.com/company/bench-${tag}-${c}`,
        industry: 'Software Development',
        employeeCount: 120,
        hqCountryCode: 'US',
        hqCity: 'Austin',
        description: 'Builds developer tools for mid-size retailers.',
        companyType: 'Privately Held',
        foundedYear: 2015,
        techStack: ['React', 'PostgreSQL'],
      }),
    );
  }
  for (let i = 0; i < n; i++) {
    const companyId = `bench-${tag}-co-${Math.floor(i / 10)}`;
    const personId = `bench-${tag}-pe-${i}`;
    people.push(
      JSON.stringify({
        kind: 'person',
        id: personId,
        firstName: 'Ada',
        lastName: `Bench${i}`,
        title,
        companyId,
        linkedinUrl: `https://www.linkedin.com/in/bench-${tag}-${i}`,
        email: null,
        phone: '+1 512 555 0100',
        city: 'Austin',
        countryCode: 'US',
        startedOn: '2026-01',
      }),
    );
    events.push(
      JSON.stringify({
        kind: 'event',
        id: `bench-${tag}-ev-${i}`,
        type: 'job_change',
        // Inside the 180-day window, spread so that the oldest-first order means something.
        occurredAt: new Date(now - (1 + (i % 90)) * 86_400_000 - i * 1000).toISOString(),
        companyId,
        personId,
        data: {
          previous_title: 'VP Engineering',
          previous_company: 'Globex',
          new_title: title,
          new_company: `Bench ${tag} Company ${Math.floor(i / 10)}`,
          new_job_started_on: '01/2026',
          new_job_start_month: '2026-01',
          change_type: 'company',
        },
      }),
    );
  }
  return [...companies, ...people, ...events];
}

async function ingest(stack: BenchStack, lines: string[]): Promise<number> {
  let accepted = 0;
  for (let i = 0; i < lines.length; i += INGEST_CHUNK_LINES) {
    const body = await expectStatus<{ accepted: number; rejected: number; errors: unknown[] }>(
      'ingest',
      200,
      call(`${stack.apiUrl}/admin/v1/ingest`, {
        token: stack.adminToken,
        rawBody: lines.slice(i, i + INGEST_CHUNK_LINES).join('\n'),
        contentType: 'application/x-ndjson',
      }),
    );
    if (body.rejected > 0)
      throw new Error(`ingest rejected ${body.rejected} records: ${JSON.stringify(body.errors.slice(0, 3))}`);
    accepted += body.accepted;
  }
  return accepted;
}

/** Waits until the signal's workflow has finished at least `evaluations` evaluations and is not evaluating. */
async function waitForIdleSignal(
  stack: BenchStack,
  signalId: string,
  evaluations: number,
  timeoutMs = 60_000,
): Promise<void> {
  const handle = stack.temporal!.workflow.getHandle(signalWorkflowId(signalId));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const state = await handle.query<SignalWorkflowState>(stateQuery);
      if (state.evaluations >= evaluations && !state.evaluating) return;
    } catch {
      // Not started yet.
    }
    if (Date.now() > deadline) throw new Error(`signal ${signalId} did not become idle within ${timeoutMs / 1000}s`);
    await sleep(200);
  }
}

export interface PipelineContext {
  stack: BenchStack;
  receiver: BenchReceiver;
  db: PgClient;
  log(line: string): void;
}

/** One end-to-end run for `n` leads, then its two ceilings. */
export async function runPipeline(
  ctx: PipelineContext,
  n: number,
  runIndex: number,
  ceilingWorker: CeilingWorker,
): Promise<PipelineRun> {
  const { stack, receiver, db, log } = ctx;
  const { title, persona } = PERSONAS[runIndex % PERSONAS.length]!;
  const tag = `${runIndex}${randomBytes(3).toString('hex')}`;
  const account = await createAccount(stack.apiUrl, stack.adminToken, `Bench pipeline ${n}`, 2 * n + 100);
  receiver.setSecret(account.webhookSecret);
  receiver.reset();
  const signal = await expectStatus<{ id: string }>(
    'create signal',
    201,
    call(`${stack.apiUrl}/api/v1/signals/job-changes`, {
      token: account.apiKey,
      body: {
        name: `Bench pipeline ${n} leads`,
        config: { jobTitles: [persona] },
        webhookUrl: receiver.url,
        dailyLeadLimit: 999_999,
        status: 'active',
      },
    }),
  );
  // Activation evaluates once (nothing to find yet); the measured evaluation is the next one.
  await waitForIdleSignal(stack, signal.id, 1);

  const lines = records(tag, n, title);
  const started = performance.now();
  const accepted = await ingest(stack, lines);
  const ingestMs = performance.now() - started;
  log(`  ingested ${accepted} records (${n} job changes) in ${(ingestMs / 1000).toFixed(1)} s`);

  const cpu = cpuReading(stack.cpuMeters());
  const t0 = performance.now();
  const t0Wall = Date.now();
  await expectStatus(
    'evaluate',
    202,
    call(`${stack.apiUrl}/admin/v1/signals/${signal.id}/evaluate`, { token: stack.adminToken, method: 'POST' }),
  );
  // At least ~7 leads/s, else the run is reported as incomplete.
  const timeoutMs = 120_000 + n * 150;
  let complete = false;
  let lastReport = Date.now();
  while (!(complete = receiver.arrivals.size >= n)) {
    if (performance.now() - t0 > timeoutMs || stack.isClosing) break;
    await sleep(50);
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      log(`  ${receiver.arrivals.size}/${n} leads received after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  const cpuUsed = cpu.since();
  // What arrived by now is the run's; the drain below may add leads that are not in its numbers.
  const arrived = new Map(receiver.arrivals);
  const latencies = [...arrived.values()].map((at) => at - t0);
  const elapsedMs = latencies.length ? Math.max(...latencies) : NaN;
  const received = arrived.size;
  log(
    `  ${received}/${n} leads received, last after ${(elapsedMs / 1000).toFixed(1)} s${complete ? '' : ' (INCOMPLETE)'}`,
  );

  // Nothing of this run may still be in flight while the ceilings are measured: production
  // stops (pause), every lead produced so far is waited for, then every workflow of the signal
  // but its own closes.
  await call(`${stack.apiUrl}/api/v1/signals/${signal.id}/pause`, { token: account.apiKey, method: 'POST' });
  if (!complete) await drain(ctx, signal.id, DRAIN_TIMEOUT_MS);
  await waitForIdleSignal(stack, signal.id, 2, 30_000).catch((err: Error) => log(`  WARNING: ${err.message}`));
  const settled = await waitForQuiet(stack, `SignalId = '${signal.id}'`, 1, SETTLE_TIMEOUT_MS).catch(() => false);
  if (!settled)
    log(
      `  WARNING: the signal's workflows were still running after ${SETTLE_TIMEOUT_MS / 1000}s; the ceilings share the server with them`,
    );
  const executions = await countExecutions(stack, signal.id).catch((err: Error): ExecutionCount => {
    log(`  WARNING: could not count the workflow executions in Temporal's visibility: ${err.message}`);
    return { total: NaN, byType: {}, stable: false, error: err.message };
  });

  const stages = await db.query<{ id: string; produced: number }>(
    `SELECT id, extract(epoch FROM created_at) * 1000 - $2 AS produced FROM leads WHERE signal_id = $1`,
    [signal.id, t0Wall],
  );
  const produced = stages.rows.map((r) => Number(r.produced));
  // Per lead, by the lead id the receiver read from the verified body: batch began → received.
  const evaluated = stages.rows
    .filter((r) => arrived.has(r.id))
    .map((r) => arrived.get(r.id)! - t0 - Number(r.produced));
  const executionsPerLead = stages.rows.length > 0 ? executions.total / stages.rows.length : NaN;
  const types = Object.entries(executions.byType)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  log(
    `  workflow executions: ${executions.total} (${types || 'none listed'}${executions.stable ? '' : '; visibility still moving'})` +
      ` for ${stages.rows.length} leads = ${executionsPerLead.toPrecision(4)} per lead`,
  );
  if (evaluated.length < received)
    log(`  WARNING: only ${evaluated.length} of ${received} arrivals matched a lead of the signal by contact.lead_id`);

  // Ceiling (a): the very payloads the receiver just got, straight from the database.
  const payloads = await db.query<{ payload: string }>(
    `SELECT payload::text AS payload FROM leads WHERE signal_id = $1`,
    [signal.id],
  );
  const direct = await directSend(
    ctx,
    payloads.rows.map((r) => r.payload),
    account.webhookSecret,
  );
  log(`  ceiling (a) direct: ${payloads.rows.length} signed POSTs in ${(direct.elapsedMs / 1000).toFixed(2)} s`);

  // Ceiling (c): the pipeline's shape with nothing inside, as many children as leads.
  const ceiling = await ceilingWorker.run(n, timeoutMs);
  log(
    `  ceiling (c) Temporal: ${n} children in ${(ceiling.elapsedMs / 1000).toFixed(1)} s = ${ceiling.childrenPerSecond.toFixed(1)} leads/s` +
      `${ceiling.complete ? '' : ' (INCOMPLETE)'}`,
  );
  const leadsPerSecond = (received / elapsedMs) * 1000;

  return {
    n,
    ingestMs,
    received,
    complete,
    refused: receiver.counts.refused,
    duplicates: receiver.counts.duplicates,
    elapsedMs,
    leadsPerSecond,
    latency: distribution(latencies),
    evaluated: distribution(evaluated),
    produced: distribution(produced),
    executions,
    executionsPerLead,
    cpu: cpuUsed,
    direct: { ...direct, leadsPerSecond: (direct.sent / direct.elapsedMs) * 1000 },
    ceiling,
    shareOfCeiling: leadsPerSecond / ceiling.childrenPerSecond,
  };
}

/**
 * The workflow executions of the signal, from Temporal's visibility: counted every second until
 * two readings EXECUTION_COUNT_STABLE_MS apart agree (the dev server's visibility may lag a
 * second), then listed once to tell them apart by workflow type.
 */
async function countExecutions(stack: BenchStack, signalId: string): Promise<ExecutionCount> {
  const client = stack.temporal!;
  const query = `SignalId = '${signalId}'`;
  const started = Date.now();
  let total = (await client.workflow.count(query)).count;
  let lastChanged = started;
  let stable = false;
  for (;;) {
    await sleep(1000);
    const next = (await client.workflow.count(query)).count;
    if (next !== total) lastChanged = Date.now();
    total = next;
    // The signal's own workflow is always there; a count without it has not caught up yet.
    stable = total > 0 && Date.now() - lastChanged >= EXECUTION_COUNT_STABLE_MS;
    if (stable || Date.now() - started > EXECUTION_COUNT_TIMEOUT_MS) break;
  }
  const byType: Record<string, number> = {};
  for await (const execution of client.workflow.list({ query, pageSize: 1000 }))
    byType[execution.type] = (byType[execution.type] ?? 0) + 1;
  return { total, byType, stable };
}
/** Waits until every lead the signal produced has reached the receiver (or the time is up, which is logged). */
async function drain(ctx: PipelineContext, signalId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ count }] = (
      await ctx.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM leads WHERE signal_id = $1`, [signalId])
    ).rows;
    if (ctx.receiver.arrivals.size >= count!) {
      ctx.log(`  drained: all ${count} leads produced before the pause were received`);
      return;
    }
    if (Date.now() > deadline) {
      ctx.log(
        `  WARNING: ${count! - ctx.receiver.arrivals.size} leads still in flight after ${timeoutMs / 1000}s; the ceilings below share the machine with them`,
      );
      return;
    }
    await sleep(1000);
  }
}

async function directSend(ctx: PipelineContext, payloads: string[], secret: string) {
  const file = path.join(ctx.stack.tmpDir, `payloads-${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(payloads));
  ctx.receiver.reset();
  const helper = ctx.stack.forkHelper('direct sender', path.join(__dirname, 'direct-sender.js'));
  try {
    const answer = await new Promise<{ sent: number; failed: number; elapsedMs: number }>((resolve, reject) => {
      helper.child.once('message', (message) =>
        resolve(message as { sent: number; failed: number; elapsedMs: number }),
      );
      helper.child.once('exit', (code) => reject(new Error(`the direct sender exited (code ${code})`)));
      helper.child.send({ url: ctx.receiver.url, secret, payloadsFile: file, concurrency: DIRECT_SEND_CONCURRENCY });
    });
    if (ctx.receiver.counts.refused > 0)
      throw new Error(`the receiver refused ${ctx.receiver.counts.refused} direct sends`);
    return answer;
  } finally {
    await helper.stop();
  }
}
