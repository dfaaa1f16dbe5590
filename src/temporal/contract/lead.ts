export const leadWorkflowType = 'leadWorkflow';
export const leadWorkflowId = (leadId: string) => `lead:${leadId}`;
/** The lead of a `lead:{leadId}` workflow id; undefined for any other workflow. */
export const leadIdOfWorkflowId = (workflowId: string): string | undefined =>
  workflowId.startsWith('lead:') ? workflowId.slice('lead:'.length) : undefined;

/** The delivery back-off and window, read from the configuration by the producing activity. */
export interface DeliveryRetrySettings {
  /** One attempt's HTTP time-out (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  initialMs: number;
  maxIntervalMs: number;
  /** Total time after which a delivery is failed (WEBHOOK_RETRY_WINDOW_MS), from its first attempt. */
  windowMs: number;
}

/**
 * What a delivery's retry window is counted with, in PostgreSQL's clock (epoch ms): returned
 * with an attempt's outcome, so that the lead workflow decides from recorded values that replay
 * the same, never from its own clock after a local activity (docs/decisions/delivery.md).
 */
export interface RetryWindowTimes {
  /** The delivery's first recorded attempt; this one when none was recorded before. */
  firstAttemptAt: number;
  /** When this attempt's outcome was recorded (a deferred one: when it was claimed). */
  attemptedAt: number;
}

/** A route of a lead and its delivery row, made with the lead in its production transaction. */
export interface LeadDelivery {
  deliveryId: string;
  /** `webhook`, a sequencer's or a CRM's name. */
  route: string;
}

export interface LeadWorkflowInput {
  leadId: string;
  signalId: string;
  /** Whether the signal asked for an email this lead may get (`getEmails` on a person-level lead). */
  emailPending: boolean;
  deliveries: LeadDelivery[];
  retry: DeliveryRetrySettings;
}

/** A produced lead as the signal workflow starts its workflow: ids, the routes and a line a person can read. */
export interface ProducedLead {
  leadId: string;
  /** One per route (`webhook` first), in the order the lead workflow shows them. */
  deliveries: LeadDelivery[];
  /** `webhook`, sequencer and CRM names, for the Routes search attribute. */
  routes: string[];
  /** "Jane Doe, CTO at Acme: job change → webhook, hubspot" (at most 200 bytes). */
  summary: string;
  emailPending: boolean;
  /** The lead's trace id while tracing is on (src/telemetry/lead-trace.ts), kept in its workflow's memo. */
  traceId?: string;
}

export type RouteOutcome = 'delivered' | 'failed' | 'cancelled';

export interface LeadWorkflowResult {
  /** The email extra: found (and charged on job-change leads), not found, not asked for, unpaid. */
  email: string;
  routes: Record<string, RouteOutcome>;
}
