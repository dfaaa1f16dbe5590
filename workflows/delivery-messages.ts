// Imported by activities and the API too: types and pure helpers only.

/** Retry settings read from the configuration once, by an activity, and carried in workflow input. */
export interface DeliveryRetrySettings {
  /** One attempt's HTTP time-out (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  initialMs: number;
  maxIntervalMs: number;
  /** Total time after which a delivery is failed (WEBHOOK_RETRY_WINDOW_MS). */
  windowMs: number;
}

export interface PlannedDeliveryRef {
  deliveryId: string;
  signalId: string;
  leadId: string;
  route: string;
  target: string;
}

export interface DeliveryPlan {
  deliveries: PlannedDeliveryRef[];
  /** The deliveries' own queue, so slow receivers never hold up lead production. */
  taskQueue: string;
  retry: DeliveryRetrySettings;
}

/** What the hand-off of a batch of leads left to do: the deliveries its first attempts did not settle. */
export interface HandOffOutcome {
  settled: number;
  unsettled: Array<PlannedDeliveryRef & { retryInMs: number }>;
  taskQueue: string;
  retry: DeliveryRetrySettings;
}

export interface DeliveryWorkflowInput {
  deliveryId: string;
  retry: DeliveryRetrySettings;
  /**
   * Set when the hand-off made the first attempt: when (epoch ms; the retry window counts from
   * it) and how long to wait before the next one. Absent, the workflow makes the first attempt.
   */
  firstAttempt?: { at: number; retryInMs: number };
}

export type DeliveryWorkflowResult = { status: 'delivered' | 'failed' | 'cancelled' | 'settled'; statusCode?: number | null };

export const deliveryWorkflowId = (deliveryId: string) => `delivery:${deliveryId}`;

/**
 * Longest wait for a throttled webhook endpoint's next send slot inside one attempt; a longer
 * one ends the attempt and comes back when the slot is near (`nextRetryDelay`).
 */
export const DELIVERY_WAIT_IN_PLACE_MS = 5_000;
