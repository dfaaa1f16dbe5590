/**
 * End to end: N job changes ingested for an active job-changes signal whose webhook is a
 * verifying receiver on 127.0.0.1, then one evaluate request; every lead must arrive. Beside
 * it, in the same run, the two ceilings: (a) the same payloads signed and POSTed straight to
 * the same receiver, (b) Temporal running the pipeline's workflow shape with nothing in it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { Client as PgClient } from 'pg';
import { signalWorkflowId, stateQuery, type SignalWorkflowState } from '../../workflows/signal-messages';
import { call, createAccount, expectStatus } from './http';
import type { BenchReceiver } from './receiver';
import type { BenchStack } from './stack';
import { cpuReading } from './cpu';
import { percentile } from './stats';

/**
 * Workflow executions the pipeline spends per lead of a webhook-only signal, counted from the
 * code: one `leadWorkflow` (signal.ts starts one per lead), one `deliveryWorkflow` per route
 * (lead.ts; the webhook is the only route here), and the signal workflow's share: one run
 * hands off at most CHILDREN_PER_RUN = 500 leads before it continues as new.
 */
export const EXECUTIONS_PER_LEAD = 1 + 1 + 1 / 500;
/** The signal workflow's hand-off: leads produced per batch (produceBatch's default size). */
const HAND_OFF_BATCH = 100;
const CHILDREN_PER_RUN = 500;
/** The deliveries worker's activity slots (the SDK default, 100): the direct sender's concurrency. */
const DIRECT_SEND_CONCURRENCY = 100;
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
  /** Per lead, from the database: evaluate request → its production batch began (leads.created_at). */
  produced: Distribution;
  /** Evaluate request → its lead workflow was started and the lead marked handed off. */
  handedOff: Distribution;
  /** CPU seconds per process (and the whole machine) from the evaluate request to the last lead. */
  cpu: Record<string, number>;
  direct: { elapsedMs: number; leadsPerSecond: number; failed: number };
  temporal: TemporalCeiling;
}

export interface TemporalCeiling {
  elapsedMs: number;
  executionsPerSecond: number;
  leadsPerSecond: number;
  complete: boolean;
  cpu: Record<string, number>;
}

function distribution(values: number[]): Distribution {
  return { p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), max: percentile(values, 100) };
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
    if (body.rejected > 0) throw new Error(`ingest rejected ${body.rejected} records: ${JSON.stringify(body.errors.slice(0, 3))}`);
    accepted += body.accepted;
  }
  return accepted;
}

/** Waits until the signal's workflow has finished at least `evaluations` evaluations and is not evaluating. */
async function waitForIdleSignal(stack: BenchStack, signalId: string, evaluations: number, timeoutMs = 60_000): Promise<void> {
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
export async function runPipeline(ctx: PipelineContext, n: number, runIndex: number, ceilingWorker: CeilingWorker): Promise<PipelineRun> {
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
  let started = performance.now();
  const accepted = await ingest(stack, lines);
  const ingestMs = performance.now() - started;
  log(`  ingested ${accepted} records (${n} job changes) in ${(ingestMs / 1000).toFixed(1)} s`);

  const cpu = cpuReading(stack.cpuMeters());
  const t0 = performance.now();
  const t0Wall = Date.now();
  await expectStatus('evaluate', 202, call(`${stack.apiUrl}/admin/v1/signals/${signal.id}/evaluate`, { token: stack.adminToken, method: 'POST' }));
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
  const latencies = [...receiver.arrivals.values()].map((at) => at - t0);
  const elapsedMs = latencies.length ? Math.max(...latencies) : NaN;
  const received = receiver.arrivals.size;
  log(`  ${received}/${n} leads received, last after ${(elapsedMs / 1000).toFixed(1)} s${complete ? '' : ' (INCOMPLETE)'}`);

  // Nothing of this run may still be in flight while the ceilings are measured: production
  // stops (pause) and every lead produced so far is waited for.
  await call(`${stack.apiUrl}/api/v1/signals/${signal.id}/pause`, { token: account.apiKey, method: 'POST' });
  if (!complete) await drain(ctx, signal.id, DRAIN_TIMEOUT_MS);

  const stages = await db.query<{ produced: number; handed_off: number | null }>(
    `SELECT extract(epoch FROM created_at) * 1000 - $2 AS produced, extract(epoch FROM handed_off_at) * 1000 - $2 AS handed_off
     FROM leads WHERE signal_id = $1`,
    [signal.id, t0Wall],
  );
  const produced = stages.rows.map((r) => Number(r.produced));
  const handedOff = stages.rows.filter((r) => r.handed_off !== null).map((r) => Number(r.handed_off));

  // Ceiling (a): the very payloads the receiver just got, straight from the database.
  const payloads = await db.query<{ payload: string }>(`SELECT payload::text AS payload FROM leads WHERE signal_id = $1`, [signal.id]);
  const direct = await directSend(ctx, payloads.rows.map((r) => r.payload), account.webhookSecret);
  log(`  ceiling (a) direct: ${payloads.rows.length} signed POSTs in ${(direct.elapsedMs / 1000).toFixed(2)} s`);

  // Ceiling (b): Temporal with the same number of children.
  const temporal = await ceilingWorker.run(n, timeoutMs);
  log(`  ceiling (b) Temporal: ${n} children in ${(temporal.elapsedMs / 1000).toFixed(1)} s`);

  return {
    n,
    ingestMs,
    received,
    complete,
    refused: receiver.counts.refused,
    duplicates: receiver.counts.duplicates,
    elapsedMs,
    leadsPerSecond: (received / elapsedMs) * 1000,
    latency: distribution(latencies),
    produced: distribution(produced),
    handedOff: distribution(handedOff),
    cpu: cpuUsed,
    direct: { ...direct, leadsPerSecond: (direct.sent / direct.elapsedMs) * 1000 },
    temporal,
  };
}

/** Waits until every lead the signal produced has reached the receiver (or the time is up, which is logged). */
async function drain(ctx: PipelineContext, signalId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ count }] = (await ctx.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM leads WHERE signal_id = $1`, [signalId])).rows;
    if (ctx.receiver.arrivals.size >= count!) {
      ctx.log(`  drained: all ${count} leads produced before the pause were received`);
      return;
    }
    if (Date.now() > deadline) {
      ctx.log(`  WARNING: ${count! - ctx.receiver.arrivals.size} leads still in flight after ${timeoutMs / 1000}s; the ceilings below share the machine with them`);
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
      helper.child.once('message', (message) => resolve(message as { sent: number; failed: number; elapsedMs: number }));
      helper.child.once('exit', (code) => reject(new Error(`the direct sender exited (code ${code})`)));
      helper.child.send({ url: ctx.receiver.url, secret, payloadsFile: file, concurrency: DIRECT_SEND_CONCURRENCY });
    });
    if (ctx.receiver.counts.refused > 0) throw new Error(`the receiver refused ${ctx.receiver.counts.refused} direct sends`);
    return answer;
  } finally {
    await helper.stop();
  }
}

/** Ceiling (b)'s worker process and how to time one run of the minimal workflows. */
export interface CeilingWorker {
  run(children: number, timeoutMs: number): Promise<TemporalCeiling>;
  stop(): Promise<void>;
}

export async function startCeilingWorker(stack: BenchStack): Promise<CeilingWorker> {
  const taskQueue = 'bench-ceiling';
  const helper = stack.forkHelper('ceiling worker', path.join(__dirname, 'ceiling-worker.js'), {
    TEMPORAL_ADDRESS: stack.temporalAddress,
    CEILING_TASK_QUEUE: taskQueue,
  });
  const child: ChildProcess = helper.child;
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the ceiling worker exited (code ${code})`)));
  });
  // Its pollers start right after it reports ready.
  await sleep(1000);
  return {
    async run(children, timeoutMs) {
      const runId = randomBytes(4).toString('hex');
      const finished = new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        const onMessage = (message: { runId?: string; lastAt?: number }) => {
          if (message.runId !== runId) return;
          child.off('message', onMessage);
          clearTimeout(timer);
          resolve(message.lastAt);
        };
        child.on('message', onMessage);
      });
      child.send({ expect: { runId, count: children } });
      const cpu = cpuReading(stack.cpuMeters({ 'ceiling worker': child.pid }));
      const started = Date.now();
      await stack.temporal!.workflow.start('ceilingParent', {
        taskQueue,
        workflowId: `ceiling-parent:${runId}`,
        args: [{ runId, total: children, batch: HAND_OFF_BATCH, perRun: CHILDREN_PER_RUN }],
      });
      const lastAt = await finished;
      const cpuUsed = cpu.since();
      const elapsedMs = (lastAt ?? Date.now()) - started;
      // Children plus the parent's runs (one per 500 children), as the pipeline's count has the signal's share.
      const executionsPerSecond = ((children + Math.ceil(children / CHILDREN_PER_RUN)) / elapsedMs) * 1000;
      return { elapsedMs, executionsPerSecond, leadsPerSecond: executionsPerSecond / EXECUTIONS_PER_LEAD, complete: lastAt !== undefined, cpu: cpuUsed };
    },
    stop: helper.stop,
  };
}
