import { ApplicationFailure, activityInfo, heartbeat, sleep } from '@temporalio/activity';
import { Services } from '../src/services';
import { deliveryTaskQueue } from '../src/config';
import { DELIVERY_WAIT_IN_PLACE_MS, type DeliveryPlan, type HandOffOutcome } from '../workflows/delivery-messages';
import type { ReplayCursor } from '../workflows/replay-messages';
import { enrichmentActivities } from './enrichment';

/**
 * Activities are thin: each calls one service function. Built with the process's services so
 * that workflow code only ever sees their types.
 */
export function createActivities(services: Services) {
  const deliveryRetryPlan = (): Omit<DeliveryPlan, 'deliveries'> => {
    const { config } = services;
    return {
      taskQueue: deliveryTaskQueue(config),
      retry: {
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        initialMs: config.WEBHOOK_RETRY_INITIAL_MS,
        maxIntervalMs: config.WEBHOOK_RETRY_MAX_INTERVAL_MS,
        windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
      },
    };
  };
  return {
    ...enrichmentActivities(services),
    async recordProbeStep(probeId: string, step: number): Promise<number> {
      return services.workflowProbes.recordStep(probeId, step);
    },
    async produceLeads(signalId: string) {
      return whileHeartbeating(() => services.leadProduction.produceBatch(signalId));
    },
    async markLeadsHandedOff(leadIds: string[]): Promise<void> {
      await services.leadProduction.markHandedOff(leadIds);
    },
    async findLeadEmail(leadId: string) {
      return services.leads.findEmail(leadId);
    },
    /** The lead's deliveries, with the retry settings of this process's configuration (lead workflows of earlier versions). */
    async createLeadDeliveries(leadId: string): Promise<DeliveryPlan> {
      return { deliveries: await services.deliveries.createForLead(leadId), ...deliveryRetryPlan() };
    },
    /** A produced batch's extras, deliveries and first attempts; answers what still needs retrying. */
    async handOffLeads(leadIds: string[]): Promise<HandOffOutcome> {
      const plan = deliveryRetryPlan();
      const result = await whileHeartbeating(() =>
        services.leadHandOff.handOff(leadIds, { retryInitialMs: plan.retry.initialMs, wait: (ms) => sleep(ms) }),
      );
      return { ...result, ...plan };
    },
    /**
     * One attempt of a delivery. Failures become Temporal's retry decisions: 429 waits the
     * receiver's Retry-After, 5xx/time-outs take the policy's back-off, the rest is permanent.
     */
    async attemptDelivery(deliveryId: string, retry: { initialMs: number; maxIntervalMs: number; priorAttempts?: number }) {
      const attempt = activityInfo().attempt + (retry.priorAttempts ?? 0);
      const backoffMs = Math.min(retry.initialMs * 2 ** (attempt - 1), retry.maxIntervalMs);
      // Heartbeating, so a cancellation reaches the attempt (and stops a wait for a throttled endpoint).
      const result = await whileHeartbeating(() =>
        services.deliveryPacing.attempt(deliveryId, { backoffMs, maxWaitMs: DELIVERY_WAIT_IN_PLACE_MS, wait: (ms) => sleep(ms) }),
      );
      if (result.outcome === 'deferred') {
        // Not an attempt: the endpoint asked for a slower pace; come back when its slot is near.
        throw ApplicationFailure.create({ message: `endpoint throttled for ${result.waitMs} ms`, type: 'EndpointThrottled', nextRetryDelay: result.waitMs });
      }
      if (result.outcome === 'permanent') {
        throw ApplicationFailure.create({ message: result.error, type: 'PermanentDeliveryFailure', nonRetryable: true, details: [result.statusCode] });
      }
      if (result.outcome === 'retry' && result.retryAfterMs !== undefined) {
        throw ApplicationFailure.create({ message: result.error, type: 'ReceiverThrottled', nextRetryDelay: result.retryAfterMs });
      }
      if (result.outcome === 'retry') throw ApplicationFailure.create({ message: result.error, type: 'DeliveryAttemptFailed' });
      return result;
    },
    async markDeliveryFailed(deliveryId: string, reason: string): Promise<void> {
      await services.deliveries.markFailed(deliveryId, reason);
    },
    async markDeliveryCancelled(deliveryId: string): Promise<void> {
      await services.deliveries.markCancelled(deliveryId);
    },
    async createReplayPage(replayId: string, signalId: string, after: ReplayCursor | null, limit: number) {
      return services.webhookReplays.createPage(replayId, signalId, after, limit);
    },
    /** One replayed lead: 'sent' or 'failed'; a quick retry is Temporal's, at the delay the service chose. */
    async sendReplayDelivery(deliveryId: string): Promise<'sent' | 'failed'> {
      const result = await whileHeartbeating(() => services.webhookReplays.send(deliveryId, (ms) => sleep(ms)));
      if (result.outcome === 'retry') {
        throw ApplicationFailure.create({ message: result.error, type: 'ReplaySendFailed', nextRetryDelay: result.delayMs });
      }
      return result.outcome;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;

/**
 * Runs the work while telling Temporal every second that this worker is alive, so that the
 * attempt of a worker that died (crash, SIGKILL, lost machine) is retried elsewhere once the
 * short heartbeat timeout passes, instead of after the whole start-to-close timeout.
 */
async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), 1000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
