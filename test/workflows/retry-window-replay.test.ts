import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { leadWorkflow } from '../../workflows/lead';
import { leadWorkflowId, leadWorkflowType, type LeadWorkflowInput } from '../../src/temporal/contract';
import { stubBed, type StubActivities, type StubBed } from './stub-worker';

/**
 * The replay fault of issue 32: a query against a finished lead workflow failed with
 * `TMPRL1100 Nondeterminism error: No command scheduled for event … TimerStarted`. The lead
 * workflow counted its retry window with its own clock read after a local activity resolved;
 * that clock reads the start of the workflow task the resolution lands in, and when local
 * activities run side by side and outlive a task, the task differs on replay (measured here: a
 * second attempt read 1.1 s later on replay than when it ran), so the replay took the other
 * branch. The window is now counted with the times the attempts recorded (PostgreSQL's), which
 * are in the history and replay the same.
 */

/** Short tasks, heartbeated at 80 % of this while a local activity runs. */
const WORKFLOW_TASK_TIMEOUT_MS = 2_000;

/** Per delivery: how long each attempt lasts, the last one repeating, and how it answers. */
interface Script {
  lastsMs: number[];
  /** Delivered at this attempt (1-based); retried before it. */
  deliveredAt?: number;
  /** How far ahead of this worker's clock the recorded times run (the database's clock). */
  recordedAheadMs?: (attempt: number) => number;
}
const scripts = new Map<string, Script>();
const attempts = new Map<string, number[]>();
const failed: string[] = [];

const activities: StubActivities = {
  async attemptDelivery(deliveryId) {
    const script = scripts.get(deliveryId)!;
    const made = attempts.get(deliveryId) ?? [];
    attempts.set(deliveryId, made);
    await new Promise((resolve) =>
      setTimeout(resolve, script.lastsMs[Math.min(made.length, script.lastsMs.length - 1)]),
    );
    // As PostgreSQL records them: this attempt's time, and the first one's.
    const at = Date.now() + (script.recordedAheadMs?.(made.length + 1) ?? 0);
    made.push(at);
    if (made.length === script.deliveredAt) return { outcome: 'delivered', statusCode: null };
    return {
      outcome: 'retry',
      statusCode: 503,
      retryInMs: 300,
      error: 'HTTP 503 Service Unavailable',
      firstAttemptAt: made[0]!,
      attemptedAt: at,
    };
  },
  async markDeliveryFailed(deliveryId) {
    failed.push(deliveryId);
  },
};

let bed: StubBed;
beforeAll(async () => {
  bed = await stubBed(activities);
});
afterAll(async () => {
  await bed?.close();
});

function startLead(scripted: Record<string, Script>, windowMs: number) {
  const deliveries = Object.entries(scripted).map(([route, script]) => {
    const deliveryId = randomUUID();
    scripts.set(deliveryId, script);
    return { deliveryId, route };
  });
  const input: LeadWorkflowInput = {
    leadId: randomUUID(),
    signalId: randomUUID(),
    emailPending: false,
    deliveries,
    retry: { timeoutMs: 10_000, initialMs: 300, maxIntervalMs: 300, windowMs },
  };
  const handle = bed.client.workflow.start<typeof leadWorkflow>(leadWorkflowType, {
    workflowId: leadWorkflowId(input.leadId),
    taskQueue: bed.taskQueue,
    args: [input],
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT_MS,
  });
  const idOf = (route: string) => deliveries.find((d) => d.route === route)!.deliveryId;
  return { handle, idOf };
}

/** A query on a finished workflow replays its whole history on a worker, and so does the replayer. */
async function expectReplays(handle: Awaited<ReturnType<typeof startLead>['handle']>, detail: string) {
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  expect(metadata.currentDetails).toContain(detail);
  const history = await handle.fetchHistory();
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history),
  ).resolves.toBeUndefined();
}

test("the retry window is counted with the times the attempts recorded, not the workflow's clock", async () => {
  // The second attempt is recorded 5 s after the first though the worker saw about half a
  // second pass: the window (3 s) is over by the recorded times, not by the workflow's clock.
  const { handle, idOf } = startLead(
    { webhook: { lastsMs: [10], deliveredAt: 3, recordedAheadMs: (attempt) => (attempt >= 2 ? 5_000 : 0) } },
    3_000,
  );
  const lead = await handle;
  expect(await lead.result()).toEqual({ email: 'not_requested', routes: { webhook: 'failed' } });
  expect(attempts.get(idOf('webhook'))).toHaveLength(2);
  expect(failed).toContain(idOf('webhook'));
  await expectReplays(lead, '**webhook**: failed — retry window of 3000 ms exhausted');
});

test('a lead whose routes retried side by side across workflow tasks replays: queried after it finished, and replayed from its history', async () => {
  // The webhook's first attempt outlives the first task, its second lands in the task where
  // the CRM's long attempt ends: the shape whose replay read another clock.
  const { handle, idOf } = startLead(
    { webhook: { lastsMs: [2_000, 10], deliveredAt: 3 }, hubspot: { lastsMs: [5_600], deliveredAt: 1 } },
    3_000,
  );
  const lead = await handle;
  const result = await lead.result();
  expect(result.routes.hubspot).toBe('delivered');
  // Delivered at its third attempt, or failed at the window's end when the second came late:
  // either way, what the attempts recorded.
  const webhookAttempts = attempts.get(idOf('webhook'))!;
  expect(result.routes.webhook).toBe(webhookAttempts.length === 3 ? 'delivered' : 'failed');
  expect(failed.includes(idOf('webhook'))).toBe(result.routes.webhook === 'failed');
  expect(webhookAttempts.length).toBeGreaterThanOrEqual(2);
  const tasks = (await lead.fetchHistory()).events!.filter((event) => event.workflowTaskCompletedEventAttributes);
  expect(tasks.length).toBeGreaterThanOrEqual(4);
  await expectReplays(lead, `**webhook**: ${result.routes.webhook}`);
});
