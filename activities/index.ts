import { ApplicationFailure, Context, heartbeat, sleep } from '@temporalio/activity';
import { Services } from '../src/services';
import type { DeliveryRetrySettings, RecordHandOff, ReplayCursor } from '../src/temporal/contract';
import type { Backoff } from '../src/services/deliveries/backoff';
import { crmSyncActivities } from './crm-sync';
import { enrichmentActivities } from './enrichment';
import { signalReconciliationActivities } from './signal-reconciliation';
import { sourceActivities } from './sources';
import { recordLeadProduction } from '../src/telemetry/lead-trace';

/**
 * Longest wait for a throttled webhook endpoint's next send slot inside one attempt (a local
 * activity, so kept short); a longer one ends the attempt as deferred and the lead workflow
 * sleeps until the slot is near.
 */
const ATTEMPT_WAIT_IN_PLACE_MS = 1_000;

/**
 * Activities are thin: each calls the service functions of one step. Built with the process's
 * services so that workflow code only ever sees their types.
 */
export function createActivities(services: Services) {
  const { config } = services;
  return {
    ...crmSyncActivities(services),
    ...enrichmentActivities(services),
    ...signalReconciliationActivities(services),
    ...sourceActivities(services),
    /**
     * One production batch of the signal (a PostgreSQL transaction: leads, their charges,
     * counters), with the delivery settings of this process for the lead workflows it starts.
     * `evaluationDueAt`: set on the first batch of an evaluation its schedule began (how late it began).
     */
    async produceLeads(signalId: string, evaluationDueAt: number | null) {
      if (evaluationDueAt !== null) services.metrics.evaluationStarted(Date.now() - evaluationDueAt);
      const startedAt = new Date();
      const batch = await whileHeartbeating(() => services.leadProduction.produceBatch(signalId));
      // While tracing is on, each lead begins its own trace here (its id in the lead's memo).
      const leads = recordLeadProduction(batch.leads, { signalId, startedAt });
      services.metrics.leadsProduced(batch.produced);
      if (batch.produced > 0) {
        services.logger.info(
          { signalId, workflowId: Context.current().info.workflowExecution?.workflowId, produced: batch.produced },
          'leads produced',
        );
      }
      const retry: DeliveryRetrySettings = {
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        initialMs: config.WEBHOOK_RETRY_INITIAL_MS,
        maxIntervalMs: config.WEBHOOK_RETRY_MAX_INTERVAL_MS,
        windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
      };
      return { ...batch, leads, retry };
    },
    /** The hand-off of a batch whose lead workflows the signal workflow started (at least once: see the contract). */
    recordHandOff: (async (leadIds) => services.leadProduction.recordHandOff(leadIds)) satisfies RecordHandOff,
    /** The lead's paid extra: its email, charged where its type prices it (once, idempotent). */
    async findEmail(leadId: string) {
      return services.leads.findEmail(leadId);
    },
    /** One attempt of a delivery, classified: the lead workflow decides what waits and how long. */
    async attemptDelivery(deliveryId: string, backoff: Backoff) {
      return services.deliveries.attempt(deliveryId, {
        backoff,
        maxWaitMs: ATTEMPT_WAIT_IN_PLACE_MS,
        wait: (ms) => sleep(ms),
      });
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
        throw ApplicationFailure.create({
          message: result.error,
          type: 'ReplaySendFailed',
          nextRetryDelay: result.delayMs,
        });
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
