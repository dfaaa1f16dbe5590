import { randomUUID } from 'node:crypto';
import type { leadWorkflow } from '../../workflows/lead';
import {
  leadWorkflowId,
  leadWorkflowType,
  type DeliveryRetrySettings,
  type LeadWorkflowInput,
  type RetryWindowTimes,
} from '../../src/temporal/contract';
import { eventually, stubBed, type StubActivities, type StubBed } from './stub-worker';

/**
 * The lead workflow alone: a worker in this process with stub activities, started by the test
 * as its signal's workflow would start it. The day-long retry window is seconds long here
 * through the workflow's own input (`retry`), in real time.
 */

type Attempt = { deliveryId: string; at: number };
type Outcome = Awaited<ReturnType<NonNullable<StubActivities['attemptDelivery']>>>;
/** What a scripted receiver answers; the stub adds the times PostgreSQL records (RetryWindowTimes). */
type Answer = Outcome extends infer O ? (O extends unknown ? Omit<O, keyof RetryWindowTimes> : never) : never;

/** Receivers scripted per delivery id: each attempt takes the next answer, the last one repeats. */
const script = new Map<string, Answer[]>();
const log = {
  attempts: [] as Attempt[],
  failed: new Map<string, { reason: string; at: number }>(),
  cancelled: [] as string[],
  emails: [] as string[],
};
const activities: StubActivities = {
  async attemptDelivery(deliveryId) {
    const answers = script.get(deliveryId)!;
    const made = attemptsOf(deliveryId).length;
    const at = Date.now();
    log.attempts.push({ deliveryId, at });
    const answer = answers[Math.min(made, answers.length - 1)]!;
    if (answer.outcome !== 'retry' && answer.outcome !== 'deferred') return answer;
    return { ...answer, firstAttemptAt: attemptsOf(deliveryId)[0]!.at, attemptedAt: at };
  },
  async markDeliveryFailed(deliveryId, reason) {
    log.failed.set(deliveryId, { reason, at: Date.now() });
  },
  async markDeliveryCancelled(deliveryId) {
    log.cancelled.push(deliveryId);
  },
  async findEmail(leadId) {
    log.emails.push(leadId);
    return 'found';
  },
};
const attemptsOf = (deliveryId: string) => log.attempts.filter((a) => a.deliveryId === deliveryId);

/** A delivery id whose attempts answer `answers`. */
function scripted(...answers: Answer[]): string {
  const deliveryId = randomUUID();
  script.set(deliveryId, answers);
  return deliveryId;
}

let bed: StubBed;
beforeAll(async () => {
  bed = await stubBed(activities);
});
afterAll(async () => {
  await bed?.close();
});

function startLead(input: LeadWorkflowInput) {
  return bed.client.workflow.start<typeof leadWorkflow>(leadWorkflowType, {
    workflowId: leadWorkflowId(input.leadId),
    taskQueue: bed.taskQueue,
    args: [input],
  });
}

async function currentDetails(handle: { query: (name: string) => Promise<unknown> }): Promise<string> {
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  return metadata.currentDetails ?? '';
}

const unavailable = {
  outcome: 'retry',
  statusCode: 503,
  retryInMs: 400,
  error: 'HTTP 503 Service Unavailable',
} satisfies Answer;

const dayLong: DeliveryRetrySettings = { timeoutMs: 1_000, initialMs: 200, maxIntervalMs: 1_000, windowMs: 86_400_000 };

test('a delivery that keeps failing is retried on durable timers until its retry window runs out, then recorded failed', async () => {
  const webhook = scripted(unavailable);
  // Throttled once (not an attempt), then delivered: inside the window.
  const hubspot = scripted({ outcome: 'deferred', retryInMs: 300 }, { outcome: 'delivered', statusCode: null });
  const retry: DeliveryRetrySettings = { ...dayLong, windowMs: 3_000 };
  const handle = await startLead({
    leadId: randomUUID(),
    signalId: randomUUID(),
    emailPending: false,
    deliveries: [
      { deliveryId: webhook, route: 'webhook' },
      { deliveryId: hubspot, route: 'hubspot' },
    ],
    retry,
  });
  // While it waits, its current details say so, with the receiver's error.
  const waiting = await eventually(async () => {
    const details = await currentDetails(handle);
    return details.includes('**webhook**: retrying') && details;
  }, 'the webhook route shown retrying');
  expect(waiting).toContain('HTTP 503 Service Unavailable');

  expect(await handle.result()).toEqual({
    email: 'not_requested',
    routes: { webhook: 'failed', hubspot: 'delivered' },
  });
  const reason = 'retry window of 3000 ms exhausted (last: HTTP 503 Service Unavailable)';
  const failed = log.failed.get(webhook)!;
  expect(failed.reason).toBe(reason);
  expect(log.failed.has(hubspot)).toBe(false);

  // Retried while the next try still fitted the window (counted from the first attempt's recorded
  // time), never after: how many depends on the machine's pace.
  const tries = attemptsOf(webhook);
  expect(tries.length).toBeGreaterThanOrEqual(2);
  expect(failed.at - tries[0]!.at).toBeGreaterThanOrEqual(retry.windowMs - unavailable.retryInMs - 1_000);
  expect(tries.every((a) => a.at <= failed.at)).toBe(true);
  expect(attemptsOf(hubspot)).toHaveLength(2);

  // Each wait was a durable timer of the delay the delivery service chose, not a sleep in an activity.
  const timers = (await handle.fetchHistory()).events!.flatMap((event) => {
    const timeout = event.timerStartedEventAttributes?.startToFireTimeout;
    return timeout ? [Number(timeout.seconds ?? 0) * 1000 + Number(timeout.nanos ?? 0) / 1e6] : [];
  });
  expect(timers.sort()).toEqual([300, ...new Array<number>(tries.length - 1).fill(400)].sort());
});

test('cancelled with its signal while retrying: the unsettled route is recorded cancelled, the delivered one stays delivered', async () => {
  const webhook = scripted(unavailable);
  const pipedrive = scripted({ outcome: 'delivered', statusCode: null });
  const leadId = randomUUID();
  const handle = await startLead({
    leadId,
    signalId: randomUUID(),
    emailPending: true,
    deliveries: [
      { deliveryId: webhook, route: 'webhook' },
      { deliveryId: pipedrive, route: 'pipedrive' },
    ],
    // A day-long window: only the cancellation ends the retries.
    retry: dayLong,
  });
  await eventually(() => attemptsOf(webhook).length >= 2, 'a retried attempt');
  await handle.cancel();

  expect(await handle.result()).toEqual({ email: 'found', routes: { webhook: 'cancelled', pipedrive: 'delivered' } });
  expect(log.emails).toContain(leadId);
  expect(log.cancelled).toContain(webhook);
  expect(log.cancelled).not.toContain(pipedrive);
  expect(log.failed.has(webhook)).toBe(false);
  expect(await currentDetails(handle)).toContain('**webhook**: cancelled — signal deleted');
});

test("the receiver's final answers settle routes at once: a permanent error fails it, an earlier delivery stands", async () => {
  const webhook = scripted({ outcome: 'permanent', statusCode: 410, error: 'HTTP 410 Gone' });
  const salesforce = scripted({ outcome: 'settled', status: 'delivered' });
  const handle = await startLead({
    leadId: randomUUID(),
    signalId: randomUUID(),
    emailPending: false,
    deliveries: [
      { deliveryId: webhook, route: 'webhook' },
      { deliveryId: salesforce, route: 'salesforce' },
    ],
    retry: dayLong,
  });
  expect(await handle.result()).toEqual({
    email: 'not_requested',
    routes: { webhook: 'failed', salesforce: 'delivered' },
  });
  // The delivery service records a permanent failure itself; the workflow adds nothing.
  expect(log.failed.has(webhook)).toBe(false);
  expect(attemptsOf(webhook)).toHaveLength(1);
  expect(attemptsOf(salesforce)).toHaveLength(1);
  expect(await currentDetails(handle)).toContain('**webhook**: failed — HTTP 410 Gone');
});
