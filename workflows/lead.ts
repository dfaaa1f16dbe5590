import {
  CancellationScope,
  isCancellation,
  proxyLocalActivities,
  setCurrentDetails,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { LeadWorkflowInput, LeadWorkflowResult, RouteOutcome } from '../src/temporal/contract';
import { RouteBoard } from './route-board';

// Local activities: a lead whose routes all answer at once finishes in a single workflow task.
// Failures of our own (database down) retry here; what a receiver answers comes back as a value.
const localRetry = { initialInterval: '1 second', maximumInterval: '30 seconds' } as const;
const { findEmail, markDeliveryFailed, markDeliveryCancelled } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: localRetry,
});

/**
 * `lead:{leadId}`, one per produced lead, started by its signal's workflow. The lead's credits
 * were charged and its delivery rows made with its row; this workflow owns the rest of its
 * per-lead work: the email extra, then every route (webhook, sequencers, CRMs) side by side. An answer that asks to wait (5xx,
 * time-out, 429) waits here on a durable timer for the delay the delivery service chose, until
 * the retry window counted from the route's first attempt runs out. PostgreSQL records every
 * attempt; the current details say where each route stands.
 */
export async function leadWorkflow(input: LeadWorkflowInput): Promise<LeadWorkflowResult> {
  const { attemptDelivery } = proxyLocalActivities<Activities>({
    // The receiver's time-out, a short wait for a throttled endpoint's slot, and the bookkeeping.
    startToCloseTimeout: input.retry.timeoutMs + 30_000,
    retry: localRetry,
  });
  const backoff = { initialMs: input.retry.initialMs, maxIntervalMs: input.retry.maxIntervalMs };
  const { deliveries } = input;
  const email = input.emailPending ? await findEmail(input.leadId) : 'not_requested';
  const board = new RouteBoard(deliveries);
  setCurrentDetails(board.describe());

  const routes: Record<string, RouteOutcome> = {};
  try {
    await Promise.all(
      deliveries.map(async (delivery) => (routes[delivery.route] = await deliver(delivery.deliveryId))),
    );
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // The signal was deleted: nothing more is sent, and the rows say cancelled (non-cancellable,
    // or the cancellation would stop these writes too).
    await CancellationScope.nonCancellable(async () => {
      for (const delivery of board.unsettled()) {
        await markDeliveryCancelled(delivery.deliveryId);
        routes[delivery.route] = board.settle(delivery.deliveryId, 'cancelled', 'signal deleted');
      }
    });
    setCurrentDetails(board.describe());
  }
  return { email, routes };

  async function deliver(deliveryId: string): Promise<RouteOutcome> {
    for (;;) {
      const outcome = await attemptDelivery(deliveryId, backoff);
      switch (outcome.outcome) {
        case 'delivered':
          // The status already says "delivered": the detail adds only what the receiver answered.
          return settled('delivered', outcome.statusCode === null ? '' : `HTTP ${outcome.statusCode}`);
        case 'settled':
          return settled(outcome.status === 'pending' ? 'failed' : outcome.status, `already ${outcome.status}`);
        case 'permanent':
          return settled('failed', outcome.error);
        case 'retry':
        case 'deferred': {
          const why = outcome.outcome === 'deferred' ? 'the endpoint asked us to slow down' : outcome.error;
          // The window is counted with the times the attempt recorded, which replay the same;
          // the workflow's clock after a local activity does not (docs/decisions/delivery.md).
          const { firstAttemptAt, attemptedAt } = outcome;
          const nextAttemptAt = attemptedAt + outcome.retryInMs;
          if (nextAttemptAt >= firstAttemptAt + input.retry.windowMs) {
            const reason = `retry window of ${input.retry.windowMs} ms exhausted (last: ${why})`;
            await markDeliveryFailed(deliveryId, reason);
            return settled('failed', reason);
          }
          board.retrying(deliveryId, nextAttemptAt, why);
          setCurrentDetails(board.describe());
          await sleep(outcome.retryInMs);
        }
      }
    }

    function settled(status: RouteOutcome, detail: string): RouteOutcome {
      board.settle(deliveryId, status, detail);
      setCurrentDetails(board.describe());
      return status;
    }
  }
}
