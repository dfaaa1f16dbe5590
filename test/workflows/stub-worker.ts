import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import type { Activities } from '../../activities';
import { replayCheckOptions } from '../../worker/replay-mode';
import { assertReplayed, replayMode, replayTaskQueues } from '../setup/replay-check';
import type { ProductionBatch } from '../../src/services/leads/production';
import type { DeliveryRetrySettings, LeadDelivery, ProducedLead } from '../../src/temporal/contract';

/**
 * A workflow run alone: a worker in the test process, on a task queue of its own on the test
 * run's dev server, whose activities are stubs the test writes and whose calls it reads back.
 * Time is real (the time-skipping test server cannot be installed here: docs/decisions/lead-production.md),
 * so tests shorten the day-long windows through the workflows' own inputs.
 */

export type StubActivities = Partial<Activities>;
export type ProducedBatch = Awaited<ReturnType<Activities['produceLeads']>>;
export type History = temporal.api.history.v1.IHistory;

/** Seconds, not a day: the delivery settings the stubbed production hands to the lead workflows. */
export const SHORT_RETRY: DeliveryRetrySettings = {
  timeoutMs: 1_000,
  initialMs: 200,
  maxIntervalMs: 1_000,
  windowMs: 3_000,
};

export interface StubBed {
  client: Client;
  /** The queue the stub worker polls: start the workflows (and their children) there. */
  taskQueue: string;
  close(): Promise<void>;
}

/**
 * One worker for a test file (creating one loads the workflow bundle: seconds on a busy
 * machine), so its stubs look up each test's script by the ids the test made.
 */
export async function stubBed(activities: StubActivities): Promise<StubBed> {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  const codePath = process.env.TEST_WORKFLOW_BUNDLE;
  if (!address || !codePath) throw new Error('run the tests through jest: its global setup starts the dev server');
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already by an earlier test file in this jest worker.
  }
  const taskQueue = `stub-${randomUUID()}`;
  const workerConnection = await NativeConnection.connect({ address });
  const clientConnection = await Connection.connect({ address });
  const worker = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowBundle: { codePath },
    activities,
    ...replayCheckOptions({
      WORKER_MAX_CACHED_WORKFLOWS: process.env.WORKER_MAX_CACHED_WORKFLOWS
        ? Number(process.env.WORKER_MAX_CACHED_WORKFLOWS)
        : undefined,
      WORKFLOW_FAIL_ON_NONDETERMINISM: true,
    }),
  });
  const running = worker.run();
  return {
    client: new Client({ connection: clientConnection }),
    taskQueue,
    async close() {
      worker.shutdown();
      await running;
      const client = new Client({ connection: clientConnection });
      const notReplayed = replayMode ? await replayTaskQueues(client, [taskQueue]) : [];
      await clientConnection.close();
      await workerConnection.close();
      assertReplayed(notReplayed);
    },
  };
}

/** A promise the test settles: a stub activity blocked on it until the test releases it. */
export class Gate<T> {
  readonly promise: Promise<T>;
  release!: (value: T) => void;
  constructor() {
    this.promise = new Promise<T>((resolve) => (this.release = resolve));
  }
}

/** Polls `probe` until it answers something truthy (real time: workflows run on a real server). */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  what: string,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A produced lead as production would answer it, with a webhook delivery (and any other routes). */
export function producedLead(leadId = randomUUID(), routes: string[] = ['webhook']): ProducedLead {
  const deliveries: LeadDelivery[] = routes.map((route) => ({ deliveryId: randomUUID(), route }));
  return {
    leadId,
    deliveries,
    routes,
    summary: `lead ${leadId.slice(0, 8)} → ${routes.join(', ')}`,
    emailPending: false,
  };
}

/** A production batch answer: active, these leads, `more` as given. */
export function batch(leads: ProducedLead[], more: boolean, extra: Partial<ProductionBatch> = {}): ProducedBatch {
  return { state: 'active', leads, produced: leads.length, more, retry: SHORT_RETRY, ...extra };
}

/** Lead workflows whose every route is delivered at once; the calls are logged. */
export function deliveringLeads(log: { attempted: string[]; handedOff: string[][] }): StubActivities {
  return {
    async attemptDelivery(deliveryId) {
      log.attempted.push(deliveryId);
      return { outcome: 'delivered', statusCode: 200 };
    },
    async recordHandOff(leadIds) {
      log.handedOff.push(leadIds);
    },
  };
}

/**
 * Every run of a workflow, oldest first, with its history: from its first run along each
 * run's continue-as-new event (histories, not visibility, which is eventually consistent).
 */
export async function runsOf(handle: { client: Client; workflowId: string; firstRunId: string }): Promise<History[]> {
  const histories: History[] = [];
  for (let runId: string | undefined = handle.firstRunId; runId;) {
    const history = await handle.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    histories.push(history);
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return histories;
}

/** The ids of the child workflows the histories started. */
export function childrenStarted(histories: History[]): string[] {
  return histories.flatMap((history) =>
    (history.events ?? []).flatMap((event) => {
      const started = event.startChildWorkflowExecutionInitiatedEventAttributes;
      return started?.workflowId ? [started.workflowId] : [];
    }),
  );
}
