import { ActivityFailure, ApplicationFailure, CancellationScope, TimeoutFailure, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DELIVERY_WAIT_IN_PLACE_MS, type DeliveryWorkflowInput, type DeliveryWorkflowResult } from './delivery-messages';

const { markDeliveryFailed, markDeliveryCancelled } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One per (lead, route) delivery whose first attempt (made by the hand-off of its batch) did not
 * settle it, on the deliveries task queue. Temporal's activity retries are
 * the back-off: 5xx and time-outs follow the policy, a 429 overrides the wait with the
 * receiver's Retry-After (`nextRetryDelay`), a permanent failure stops at once, and the
 * schedule-to-close time-out is the contract's total window. Whatever ends it, the delivery row
 * is settled, so the list of deliveries tells the same story as the workflow.
 */
export async function deliveryWorkflow(input: DeliveryWorkflowInput): Promise<DeliveryWorkflowResult> {
  const { retry, firstAttempt } = input;
  // After a first attempt made by the hand-off, the back-off goes on from its second step.
  const priorAttempts = firstAttempt ? 1 : 0;
  const windowEndsAt = firstAttempt ? firstAttempt.at + retry.windowMs : undefined;
  try {
    if (firstAttempt) {
      if (windowEndsAt !== undefined && Date.now() + firstAttempt.retryInMs >= windowEndsAt) {
        return await failed(`retry window of ${retry.windowMs} ms exhausted`);
      }
      await sleep(firstAttempt.retryInMs);
    }
    const { attemptDelivery } = proxyActivities<Activities>({
      // The HTTP time-out, a short wait for a throttled endpoint, and room for the database work.
      startToCloseTimeout: retry.timeoutMs + DELIVERY_WAIT_IN_PLACE_MS + 30_000,
      // The attempt heartbeats: a cancellation (signal deleted) reaches it, and a dead worker's
      // attempt is retried within seconds rather than after the start-to-close time-out.
      heartbeatTimeout: '5 seconds',
      // The contract's total window, counted from the first attempt.
      scheduleToCloseTimeout: Math.max(1, (windowEndsAt ?? Date.now() + retry.windowMs) - Date.now()),
      retry: {
        initialInterval: Math.min(retry.initialMs * 2 ** priorAttempts, retry.maxIntervalMs),
        backoffCoefficient: 2,
        maximumInterval: retry.maxIntervalMs,
        nonRetryableErrorTypes: ['PermanentDeliveryFailure'],
      },
    });
    const result = await attemptDelivery(input.deliveryId, { initialMs: retry.initialMs, maxIntervalMs: retry.maxIntervalMs, priorAttempts });
    if (result.outcome === 'delivered') return { status: 'delivered', statusCode: result.statusCode };
    return { status: 'settled' };
  } catch (err) {
    if (isCancellation(err)) {
      // Deleting the signal cancels this workflow, even mid back-off: nothing more is sent, and
      // the row says cancelled (non-cancellable, or the cancellation would stop this write too).
      await CancellationScope.nonCancellable(() => markDeliveryCancelled(input.deliveryId));
      return { status: 'cancelled' };
    }
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause;
    const reason =
      cause instanceof ApplicationFailure && cause.type === 'PermanentDeliveryFailure'
        ? cause.message
        : cause instanceof TimeoutFailure
          ? `retry window of ${retry.windowMs} ms exhausted`
          : `retries exhausted: ${cause?.message ?? err.message}`;
    return failed(reason);
  }

  async function failed(reason: string): Promise<DeliveryWorkflowResult> {
    await markDeliveryFailed(input.deliveryId, reason);
    return { status: 'failed' };
  }
}
