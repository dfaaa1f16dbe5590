import { LEADS_PER_BATCH, LEADS_PER_SIGNAL_RUN } from '../../src/temporal/contract';
/**
 * Ceiling (c): how fast the bench's Temporal dev server and a worker with the service's
 * `workerTuning` run the pipeline's shape with nothing inside it (ceiling-workflows.ts): a
 * signal-like parent starting children in batches, each child one local activity that does
 * nothing. Its children/s is the most leads/s a pipeline of one lead workflow per lead can reach
 * on this server; the pipeline is reported as a share of it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { WORKER_NODE_FLAGS } from '../../worker/node-flags';
import { workerTuning } from '../../worker/tuning';
import { cpuReading } from './cpu';
import type { BenchStack } from './stack';

/** The shape of the parent: the signal workflow's production batch and its children per run. */
export interface CeilingShape {
  /** Children started per workflow task (the signal workflow's production batch: 100). */
  batch: number;
  /** Children per run before continue-as-new (the signal workflow's bound). */
  perRun: number;
}

export const DEFAULT_CEILING_SHAPE: CeilingShape = { batch: LEADS_PER_BATCH, perRun: LEADS_PER_SIGNAL_RUN };

export interface CeilingRun extends CeilingShape {
  children: number;
  /** Parent start → the last child's local activity ran (the moment the receiver would have the last lead). */
  elapsedMs: number;
  /** children ÷ elapsed: the leads/s ceiling. */
  childrenPerSecond: number;
  /** The parent's runs (one per `perRun` children). */
  parentRuns: number;
  complete: boolean;
  /** CPU seconds per process (and the whole machine) during the run. */
  cpu: Record<string, number>;
  /** The Worker options the ceiling worker ran with (`workerTuning`). */
  tuning: Record<string, unknown>;
}

export interface CeilingWorker {
  /** Times `children` minimal children in the pipeline's shape. */
  run(children: number, timeoutMs: number): Promise<CeilingRun>;
  stop(): Promise<void>;
}

export async function startCeilingWorker(stack: BenchStack, shape: CeilingShape): Promise<CeilingWorker> {
  const taskQueue = 'bench-ceiling';
  const helper = stack.forkHelper(
    'ceiling worker',
    path.join(__dirname, 'ceiling-worker.js'),
    { TEMPORAL_ADDRESS: stack.temporalAddress, CEILING_TASK_QUEUE: taskQueue, LOG_LEVEL: 'warn' },
    [...WORKER_NODE_FLAGS],
  );
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
        args: [{ runId, total: children, batch: shape.batch, perRun: shape.perRun }],
      });
      const lastAt = await finished;
      const cpuUsed = cpu.since();
      const elapsedMs = (lastAt ?? Date.now()) - started;
      return {
        ...shape,
        children,
        elapsedMs,
        childrenPerSecond: lastAt === undefined ? NaN : (children / elapsedMs) * 1000,
        parentRuns: Math.max(1, Math.ceil(children / shape.perRun)),
        complete: lastAt !== undefined,
        cpu: cpuUsed,
        tuning: { ...workerTuning },
      };
    },
    stop: helper.stop,
  };
}

/** Waits until no execution matching `query` is running any more (the previous measurement's tail). */
export async function waitForQuiet(
  stack: BenchStack,
  query: string,
  atMost: number,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { count } = await stack.temporal!.workflow.count(`${query} AND ExecutionStatus = 'Running'`);
    if (count <= atMost) return true;
    if (Date.now() > deadline) return false;
    await sleep(500);
  }
}
