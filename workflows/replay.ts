import { continueAsNew, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { REPLAY_MAX_WAIT_MS, type ReplayResult, type ReplayWorkflowInput } from '../src/temporal/contract';

/** Leads read and replay deliveries made per activity. */
const PAGE_SIZE = 200;
/**
 * Sends per run before the history is handed to a fresh run: each send is a few events, so a
 * run stays well under the 10,240-event warning and the ~1,000-children guidance alike.
 */
const SENDS_PER_RUN = 1000;
/** Sends in flight at once: a receiver sees at most this many replayed leads concurrently. */
const CONCURRENCY = 10;

const { createReplayPage, markDeliveryFailed } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * `replay:{signalId}:{n}`, on the deliveries queue: resends every lead of the signal to its
 * webhook, each as a new `replay` delivery (a new X-Webhook-Id) carrying `signal.is_replay`.
 * Pages of lead ids keep payloads small; each send is one activity whose quick retries (two
 * at most, counted on the delivery row) end well before the API stops waiting. Answers the
 * specification's `{total, sent, failed}` once every send has settled.
 */
export async function replayWorkflow(input: ReplayWorkflowInput): Promise<ReplayResult> {
  const { sendReplayDelivery } = proxyActivities<Activities>({
    // The HTTP time-out, a wait for a throttled endpoint, and room for the database work.
    startToCloseTimeout: input.timeoutMs + REPLAY_MAX_WAIT_MS + 30_000,
    // The send heartbeats: a dead worker's send is taken over within seconds.
    heartbeatTimeout: '5 seconds',
    scheduleToCloseTimeout: '10 minutes',
    // The activity sets its own quick delay (`nextRetryDelay`); this covers crashes.
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
  });
  const pageSize = input.pageSize ?? PAGE_SIZE;
  const sendsPerRun = input.sendsPerRun ?? SENDS_PER_RUN;
  // The workflow id survives continue-as-new, so retried pages find the deliveries they made.
  const replayId = workflowInfo().workflowId;
  const totals: ReplayResult = { ...(input.carried ?? { total: 0, sent: 0, failed: 0 }) };
  let cursor = input.cursor ?? null;
  let sendsThisRun = 0;

  for (;;) {
    const page = await createReplayPage(replayId, input.signalId, cursor, pageSize);
    totals.total += page.deliveryIds.length;
    await eachWithin(page.deliveryIds, CONCURRENCY, async (deliveryId) => {
      if (await sendOne(deliveryId)) totals.sent++;
      else totals.failed++;
    });
    sendsThisRun += page.deliveryIds.length;
    if (!page.next) return totals;
    cursor = page.next;
    if (sendsThisRun >= sendsPerRun || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof replayWorkflow>({ ...input, cursor, carried: totals });
    }
  }

  async function sendOne(deliveryId: string): Promise<boolean> {
    try {
      return (await sendReplayDelivery(deliveryId)) === 'sent';
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Out of time (a receiver that hangs every time): the row says so and the count goes on.
      await markDeliveryFailed(deliveryId, `replay send gave up: ${reasonOf(err)}`);
      return false;
    }
  }
}

/** The activity failure's own message (its cause), not Temporal's wrapper text. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? err.cause.message : err.message;
}

/** Runs `work` over `items` with at most `limit` in flight; deterministic, so fit for workflow code. */
async function eachWithin<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
