import type { DataSource } from 'typeorm';
import type { Leads } from '../leads/leads';
import type { LeadProduction } from '../leads/production';
import type { Deliveries, PlannedDelivery } from './deliveries';
import type { DeliveryPacing, PacedOutcome } from './endpoint-rates';

/**
 * First attempts in flight at once in one hand-off: enough to keep a receiver ~20 ms away busy
 * at a few hundred leads a second, few enough not to flood one receiver with a batch at once.
 */
const FIRST_ATTEMPTS_AT_ONCE = 16;
/**
 * Longest wait for a throttled endpoint's slot inside a hand-off. A longer one is left to the
 * delivery's own workflow, so one throttled receiver never holds up a whole batch.
 */
const HAND_OFF_WAIT_IN_PLACE_MS = 1_000;

/** A delivery whose first attempt did not settle it: it needs its own retrying workflow. */
export interface UnsettledDelivery extends PlannedDelivery {
  /** When the next attempt is due: the receiver's Retry-After, the endpoint's pace, or the back-off. */
  retryInMs: number;
}

export interface HandOffResult {
  /** Deliveries the first attempt settled: delivered, failed for good, or already settled. */
  settled: number;
  unsettled: UnsettledDelivery[];
}

export interface HandOffOptions {
  /** The first back-off (WEBHOOK_RETRY_INITIAL_MS): the wait after a failed first attempt. */
  retryInitialMs: number;
  /** The activity's cancellable sleep, for a short wait on a throttled endpoint. */
  wait(ms: number): Promise<void>;
}

/**
 * Hands a batch of produced leads to their routes in one go: the per-lead extras (the email,
 * billed only when found), a delivery row per route, and each delivery's first attempt. Most
 * deliveries end here, so a lead costs a few queries and one HTTP request, not two workflow
 * executions; only a delivery whose first attempt did not settle it gets a workflow of its
 * own to retry it (PostgreSQL holds every attempt either way). Idempotent: run again after a
 * crash, it finds the emails charged, the rows made and the settled deliveries settled, and
 * sends again (same X-Webhook-Id) only what had not been recorded as delivered.
 */
export class LeadHandOff {
  constructor(
    private readonly db: DataSource,
    private readonly leads: Leads,
    private readonly deliveries: Deliveries,
    private readonly pacing: DeliveryPacing,
    private readonly production: LeadProduction,
  ) {}

  async handOff(leadIds: string[], options: HandOffOptions): Promise<HandOffResult> {
    const result: HandOffResult = { settled: 0, unsettled: [] };
    if (leadIds.length === 0) return result;
    const awaitingEmail: { id: string }[] = await this.db.query(
      `SELECT id FROM leads WHERE id = ANY($1::uuid[]) AND email_status = 'pending'`,
      [leadIds],
    );
    for (const lead of awaitingEmail) await this.leads.findEmail(lead.id);

    const planned = await this.deliveries.createForLeads(leadIds);
    const outcomes = await this.pacing.attemptMany(planned, {
      backoffMs: options.retryInitialMs,
      maxWaitMs: HAND_OFF_WAIT_IN_PLACE_MS,
      wait: options.wait,
      atOnce: FIRST_ATTEMPTS_AT_ONCE,
    });
    planned.forEach((delivery, i) => {
      const retryInMs = retryDelayOf(outcomes[i]!, options.retryInitialMs);
      if (retryInMs === null) result.settled++;
      else result.unsettled.push({ ...delivery, retryInMs });
    });
    await this.production.markHandedOff(leadIds);
    return result;
  }
}

/** The wait before a delivery's next attempt, or null when the attempt settled it. */
function retryDelayOf(outcome: PacedOutcome, retryInitialMs: number): number | null {
  if (outcome.outcome === 'deferred') return outcome.waitMs;
  if (outcome.outcome === 'retry') return outcome.retryAfterMs ?? retryInitialMs;
  return null;
}
