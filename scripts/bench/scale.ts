/**
 * Scale check: `signals` active job-changes signals idle on one worker. The worker is restarted
 * first, so its memory is that of these signals and not what earlier sections left in its heap.
 * Then: resident memory once they are all idle, and the time to pause all and resume all
 * through the API, each until every workflow says it took the change.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  signalWorkflowId,
  signalWorkflowStateQuery as stateQuery,
  type SignalWorkflowState,
} from '../../src/temporal/contract';
import { call, createAccount, eachWithin, expectStatus } from './http';
import { residentMB, type BenchStack } from './stack';

/** API calls in flight at once, as a dashboard or script pausing many signals would make them. */
const CONCURRENCY = 20;
/** How long the worker is left idle before its memory is read: V8 gives memory back some time after the work stops. */
const SETTLE_MS = 30_000;
const SAMPLE_EVERY_MS = 5_000;

export interface ScaleResult {
  signals: number;
  baselineMB: number;
  idleMB: number;
  /** The idle readings, every 5 s over the settle time. */
  idleSamplesMB: number[];
  peakMB: number;
  perSignalKB: number;
  activateMs: number;
  activateIdleMs: number;
  pause: { apiMs: number; allPausedMs: number };
  resume: { apiMs: number; allEvaluatedMs: number };
  afterMB: number;
}

/** Polls every workflow until `done` holds for its state; answers the time it took. */
async function untilAll(
  stack: BenchStack,
  ids: string[],
  done: (state: SignalWorkflowState) => boolean,
  timeoutMs: number,
): Promise<void> {
  let pending = [...ids];
  const deadline = Date.now() + timeoutMs;
  while (pending.length > 0) {
    const still: string[] = [];
    await eachWithin(pending, CONCURRENCY, async (id) => {
      try {
        const state = await stack
          .temporal!.workflow.getHandle(signalWorkflowId(id))
          .query<SignalWorkflowState>(stateQuery);
        if (!done(state)) still.push(id);
      } catch {
        still.push(id);
      }
    });
    pending = still;
    if (pending.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${pending.length} of ${ids.length} signal workflows did not get there within ${timeoutMs / 1000}s`,
      );
    await sleep(200);
  }
}

/** Waits `SETTLE_MS`, reading the worker's memory every few seconds; the last reading is the idle one. */
async function settle(pid: number): Promise<{ rss: number; peak: number; samples: number[] }> {
  const samples: number[] = [];
  for (let waited = 0; waited < SETTLE_MS; waited += SAMPLE_EVERY_MS) {
    await sleep(SAMPLE_EVERY_MS);
    samples.push(memoryOf(pid).rss);
  }
  return { ...memoryOf(pid), samples };
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const reading = residentMB(pid);
  if (!reading) throw new Error(`cannot read the memory of pid ${pid} (no /proc?)`);
  return reading;
}

export async function runScale(
  stack: BenchStack,
  options: { signals: number },
  log: (line: string) => void,
): Promise<ScaleResult> {
  const worker = await stack.restartWorker();
  const baselineMB = (await settle(worker.pid)).rss;
  log(`  fresh worker (pid ${worker.pid}): ${baselineMB.toFixed(0)} MB resident`);

  const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench scale', 10 * options.signals);
  const ids: string[] = new Array(options.signals);
  let started = performance.now();
  await eachWithin(
    Array.from({ length: options.signals }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      const signal = await expectStatus<{ id: string }>(
        'create signal',
        201,
        call(`${stack.apiUrl}/api/v1/signals/job-changes`, {
          token: account.apiKey,
          body: { name: `Bench scale ${i}`, config: { jobTitles: ['General Counsel'] }, status: 'active' },
        }),
      );
      ids[i] = signal.id;
    },
  );
  const activateMs = performance.now() - started;
  await untilAll(stack, ids, (s) => s.evaluations >= 1 && !s.evaluating, 600_000);
  const activateIdleMs = performance.now() - started;
  log(
    `  ${options.signals} signals active in ${(activateMs / 1000).toFixed(1)} s, all evaluated once and idle after ${(activateIdleMs / 1000).toFixed(1)} s`,
  );

  const idle = await settle(worker.pid);
  log(
    `  worker with ${options.signals} idle signals: ${idle.rss.toFixed(0)} MB resident (peak ${idle.peak.toFixed(0)} MB; every 5 s: ${idle.samples.map((m) => m.toFixed(0)).join(', ')})`,
  );

  const signalCall = (action: 'pause' | 'resume') => (id: string) =>
    expectStatus(
      action,
      200,
      call(`${stack.apiUrl}/api/v1/signals/${id}/${action}`, { token: account.apiKey, method: 'POST' }),
    ).then(() => undefined);

  started = performance.now();
  await eachWithin(ids, CONCURRENCY, signalCall('pause'));
  const pauseApiMs = performance.now() - started;
  await untilAll(stack, ids, (s) => s.status === 'paused', 600_000);
  const allPausedMs = performance.now() - started;
  log(
    `  paused all: API ${(pauseApiMs / 1000).toFixed(1)} s, every workflow paused after ${(allPausedMs / 1000).toFixed(1)} s`,
  );

  started = performance.now();
  await eachWithin(ids, CONCURRENCY, signalCall('resume'));
  const resumeApiMs = performance.now() - started;
  // A resume wakes the workflow for an evaluation: done when that evaluation is over.
  await untilAll(stack, ids, (s) => s.status !== 'paused' && s.evaluations >= 2 && !s.evaluating, 600_000);
  const allEvaluatedMs = performance.now() - started;
  log(
    `  resumed all: API ${(resumeApiMs / 1000).toFixed(1)} s, every workflow evaluated after ${(allEvaluatedMs / 1000).toFixed(1)} s`,
  );

  const after = await settle(worker.pid);
  return {
    signals: options.signals,
    baselineMB,
    idleMB: idle.rss,
    idleSamplesMB: idle.samples,
    peakMB: after.peak,
    perSignalKB: ((idle.rss - baselineMB) * 1000) / options.signals,
    activateMs,
    activateIdleMs,
    pause: { apiMs: pauseApiMs, allPausedMs },
    resume: { apiMs: resumeApiMs, allEvaluatedMs },
    afterMB: after.rss,
  };
}
