import type { DataSource } from 'typeorm';
import type { ApiKeys } from '../api-keys';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../providers/outbound-error';
import type { SendResult, WebhookSender } from '../../destinations/webhook/webhook-sender';
import { endpointOf } from '../../destinations/webhook/endpoint';
import type { EndpointRates } from './endpoint-rates';
import { webhookBody } from '../../destinations/webhook/webhook-body';
import { WEBHOOK_ROUTE } from '../../destinations/webhook';
import { backoffMs, type Backoff } from './backoff';
import type { DestinationSender, PushResult } from './destination-sender';
import type { Logger } from '../../logger';
import type { ServiceMetrics } from '../../metrics/service-metrics';
import { leadWorkflowId, type RetryWindowTimes } from '../../temporal/contract';
import { changed, execute, firstRow, type Queryable } from '../../db/sql';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type AttemptOutcome =
  /** `statusCode` is null for a sequencer or CRM push, which is several vendor calls. */
  | { outcome: 'delivered'; statusCode: number | null }
  /** Not pending any more (delivered by an earlier attempt, failed, or cancelled with its signal). */
  | { outcome: 'settled'; status: DeliveryStatus }
  /** Try again in `retryInMs`: the receiver's Retry-After, or the back-off. */
  | ({ outcome: 'retry'; statusCode: number | null; retryInMs: number; error: string } & RetryWindowTimes)
  /** Not an attempt: the endpoint asked for a slower pace, and its next slot is `retryInMs` away. */
  | ({ outcome: 'deferred'; retryInMs: number } & RetryWindowTimes)
  | { outcome: 'permanent'; statusCode: number | null; error: string };

/** A pending delivery as its attempt claims it, with the stored payload and the sealed signing secret. */
interface ClaimedDelivery {
  id: string;
  /** A nullable column, set on every delivery attempted here: lead and replay ones (a test send has no lead). */
  lead_id: string;
  signal_id: string;
  account_id: string;
  route: string;
  target: string;
  integration_id: string | null;
  crm_connection_id: string | null;
  attempts: number;
  kind: string;
  /** The stored lead's JSON text; null once the lead is gone. */
  payload: string | null;
  sealed_secret: string | null;
  /** Epoch ms of the first recorded attempt (null before any) and of the claim itself. */
  first_attempt_at: number | null;
  claimed_at: number;
}

export interface AttemptOptions {
  /** The back-off after a failed attempt (429s wait their Retry-After instead). */
  backoff: Backoff;
  /** Longest wait for a throttled endpoint's slot inside this attempt; a longer one is deferred. */
  maxWaitMs: number;
  /** How to wait: the activity's cancellable sleep, so a cancelled delivery stops waiting. */
  wait(ms: number): Promise<void>;
}

/**
 * Deliveries of leads to their routes (the webhook, and each destination: sequencer or CRM).
 * PostgreSQL holds every delivery and attempt; the lead workflow only decides when to try again.
 */
export class Deliveries {
  constructor(
    private readonly db: DataSource,
    private readonly apiKeys: Pick<ApiKeys, 'openWebhookSecret'>,
    private readonly sender: WebhookSender,
    /** Sequencer and CRM routes (`destinations`). */
    private readonly destinations: DestinationSender,
    /** Each webhook endpoint's send pace, taught by its 429s. */
    readonly rates: EndpointRates,
    /** Where each attempt is counted and logged, with the ids that find its lead in the Web UI. */
    private readonly observer: { metrics: ServiceMetrics; logger: Logger },
  ) {}

  /**
   * One attempt of a pending delivery, the only one there is (lead routes and replays alike):
   * keeps to a webhook endpoint's pace (waits for its slot, or defers without attempting), sends
   * the stored payload text as is, signed with the current secret of the signal's key (a
   * regenerated secret signs the very next attempt), records the attempt, and tells the
   * endpoint's note what the receiver said. Classified as contract section 6 says.
   */
  async attempt(deliveryId: string, options: AttemptOptions): Promise<AttemptOutcome> {
    // One round trip: the attempt is counted, and the route, the stored payload and the signing
    // secret (the linked key's, while not revoked) come back with it.
    const claimed = await changed<ClaimedDelivery>(
      this.db,
      `UPDATE deliveries d SET attempts = attempts + 1, updated_at = now() WHERE d.id = $1 AND d.status = 'pending'
       RETURNING d.id, d.lead_id, d.signal_id, d.account_id, d.route, d.target, d.integration_id, d.crm_connection_id, d.attempts, d.kind,
         (SELECT l.payload::text FROM leads l WHERE l.id = d.lead_id) AS payload,
         (SELECT k.webhook_secret_encrypted FROM signals s JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
          WHERE s.id = d.signal_id) AS sealed_secret,
         (SELECT extract(epoch FROM min(a.at)) * 1000 FROM delivery_attempts a WHERE a.delivery_id = d.id)::float8 AS first_attempt_at,
         (extract(epoch FROM now()) * 1000)::float8 AS claimed_at`,
      [deliveryId],
    );
    const [delivery] = claimed.rows;
    if (!delivery) {
      const row = await firstRow<{ status: DeliveryStatus }>(this.db, `SELECT status FROM deliveries WHERE id = $1`, [
        deliveryId,
      ]);
      return { outcome: 'settled', status: row?.status ?? 'cancelled' };
    }
    // The endpoint's slot is claimed last, right before the send, so a 429 noted meanwhile by
    // another attempt holds this one back.
    const origin =
      delivery.route === WEBHOOK_ROUTE
        ? endpointOf(delivery.target)
        : this.destinations.paceKeyOf(delivery.route, delivery.target);
    let paced = false;
    if (origin) {
      const slot = await this.rates.claimSlot(origin, options.maxWaitMs);
      if ('deferMs' in slot) {
        // Not an attempt after all: uncounted, and due when the slot is near.
        await execute(
          this.db,
          `UPDATE deliveries SET attempts = attempts - 1, updated_at = now(),
             next_attempt_at = now() + make_interval(secs => $2::int / 1000.0)
           WHERE id = $1 AND status = 'pending'`,
          [deliveryId, slot.deferMs],
        );
        return {
          outcome: 'deferred',
          retryInMs: slot.deferMs,
          firstAttemptAt: delivery.first_attempt_at ?? delivery.claimed_at,
          attemptedAt: delivery.claimed_at,
        };
      }
      paced = slot.paced;
      if (slot.waitMs > 0) await options.wait(slot.waitMs);
    }
    if (delivery.payload === null) {
      await settleDelivery(this.db, deliveryId, 'failed', null, 'lead no longer exists');
      return { outcome: 'permanent', statusCode: null, error: 'lead no longer exists' };
    }
    const source = {
      payload: delivery.payload,
      secret: this.apiKeys.openWebhookSecret(delivery.sealed_secret),
    };
    const sent =
      delivery.route === WEBHOOK_ROUTE
        ? await this.sendWebhook(delivery, source)
        : await this.push(delivery, source.payload);
    const classified = outcomeOf(sent, backoffMs(delivery.attempts, options.backoff));
    // The attempt row and the delivery's new state in one statement; the row's time comes back.
    const recorded = await firstRow<{ at: number }>(
      this.db,
      `WITH attempt AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)
         RETURNING at
       ), settled AS (
         UPDATE deliveries SET status = $6, last_status_code = $3, last_error = $5, updated_at = now(),
           next_attempt_at = CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int / 1000.0) END
         WHERE id = $1 AND status = 'pending'
       )
       SELECT (extract(epoch FROM at) * 1000)::float8 AS at FROM attempt`,
      [
        deliveryId,
        delivery.attempts,
        sent.statusCode,
        sent.durationMs,
        sent.outcome === 'ok' ? null : sent.error,
        classified.outcome === 'delivered' ? 'delivered' : classified.outcome === 'permanent' ? 'failed' : 'pending',
        classified.outcome === 'retry' ? classified.retryInMs : null,
      ],
    );
    const attemptedAt = recorded!.at;
    const outcome: AttemptOutcome =
      classified.outcome === 'retry'
        ? { ...classified, firstAttemptAt: delivery.first_attempt_at ?? attemptedAt, attemptedAt }
        : classified;
    // Only a paced endpoint has a spacing for a success to shrink.
    if (origin && paced && outcome.outcome === 'delivered') await this.rates.recordSuccess(origin);
    if (origin && sent.outcome === 'retry' && sent.statusCode === 429) {
      await this.rates.recordThrottled(origin, sent.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000);
    }
    this.observer.metrics.deliveryAttempted(delivery.route, outcome.outcome);
    this.observer.logger.info(
      {
        signalId: delivery.signal_id,
        leadId: delivery.lead_id,
        workflowId: leadWorkflowId(delivery.lead_id),
        deliveryId,
        route: delivery.route,
        attempt: delivery.attempts,
        outcome: outcome.outcome,
        statusCode: sent.statusCode,
        ...(sent.outcome === 'ok' ? {} : { error: sent.error }),
      },
      'delivery attempt',
    );
    return outcome;
  }

  /** The end of a delivery whose retries ran out (or that failed permanently); idempotent. */
  async markFailed(deliveryId: string, reason: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, $2), updated_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId, reason],
    );
  }

  /** A delivery whose workflow was cancelled (its signal deleted); idempotent. */
  async markCancelled(deliveryId: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  private async sendWebhook(
    delivery: { id: string; target: string; attempts: number; kind: string },
    source: { payload: string; secret: string | null },
  ) {
    const body = webhookBody(delivery.kind, source.payload);
    return this.sender.sendUnrecorded({
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      url: delivery.target,
      body,
      secret: source.secret,
    });
  }

  /** A sequencer or CRM route: the same stored payload, mapped for the tool and pushed through its adapter. */
  private async push(delivery: ClaimedDelivery, payload: string) {
    return this.destinations.send({
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      accountId: delivery.account_id,
      leadId: delivery.lead_id,
      signalId: delivery.signal_id,
      route: delivery.route,
      target: delivery.target,
      integrationId: delivery.integration_id ?? delivery.crm_connection_id ?? null,
      payload,
    });
  }
}

/** A delivery's last state, when its only (test) or last attempt is done; a settled row stays as it is. */
export async function settleDelivery(
  db: Queryable,
  deliveryId: string,
  status: DeliveryStatus,
  statusCode: number | null,
  error: string | null,
): Promise<void> {
  await execute(
    db,
    `UPDATE deliveries SET status = $2, last_status_code = $3, last_error = $4, next_attempt_at = NULL, updated_at = now()
     WHERE id = $1 AND status = 'pending'`,
    [deliveryId, status, statusCode, error],
  );
}

/** What one send (a webhook, or a sequencer or CRM push) means for its delivery; `backoff` is the wait after a failure without Retry-After. */
function outcomeOf(
  result: SendResult | PushResult,
  backoff: number,
):
  | Exclude<AttemptOutcome, { outcome: 'retry' | 'deferred' }>
  | Omit<Extract<AttemptOutcome, { outcome: 'retry' }>, keyof RetryWindowTimes> {
  if (result.outcome === 'ok') return { outcome: 'delivered', statusCode: result.statusCode };
  if (result.outcome === 'permanent')
    return { outcome: 'permanent', statusCode: result.statusCode, error: result.error };
  return {
    outcome: 'retry',
    statusCode: result.statusCode,
    error: result.error,
    retryInMs: result.retryAfterMs ?? backoff,
  };
}
