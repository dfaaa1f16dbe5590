import type { DataSource } from 'typeorm';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../providers/outbound-error';
import type { AttemptOutcome, Deliveries } from './deliveries';
import { inTurns } from './in-turns';

/** Spacing between sends after an endpoint's first 429: at most two sends a second. */
export const THROTTLED_START_INTERVAL_MS = 500;
/** The slowest pace a 429 can bring an endpoint to: one send a minute. */
export const THROTTLED_MAX_INTERVAL_MS = 60_000;
/** Each success takes a quarter off the spacing, so ~8 successes undo one 429. */
const SUCCESS_DECAY = 0.75;
/** Below this the spacing is dropped: the endpoint is back to full speed. */
const FORGET_BELOW_MS = 50;

export interface EndpointState {
  origin: string;
  throttledUntil: Date | null;
  minIntervalMs: number;
  nextSendAt: Date | null;
  throttleCount: number;
}

/** `scheme://host:port` of a webhook URL, the unit whose capacity a 429 speaks for; null when unreadable. */
export function endpointOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * The send-rate note of each webhook endpoint (table `webhook_endpoints`), kept in PostgreSQL
 * so that every worker honours it. An endpoint that never answered 429 has no row and costs
 * one primary-key lookup per send.
 */
export class EndpointRates {
  constructor(private readonly db: DataSource) {}

  /**
   * Claims the endpoint's next send slot when it is at most `maxWaitMs` away and answers how
   * long to wait for it (and whether the endpoint is paced at all); when it is further away,
   * claims nothing and answers `deferMs`, so the caller can come back later instead of holding
   * a worker slot. One round trip: the reads below see the row as it was before the claim.
   */
  async claimSlot(origin: string, maxWaitMs: number): Promise<{ waitMs: number; paced: boolean } | { deferMs: number }> {
    // greatest() skips nulls. The claimed slot is the new next_send_at minus the spacing.
    const [slot] = await this.db.query(
      `WITH claimed AS (
         UPDATE webhook_endpoints
         SET next_send_at = greatest(now(), throttled_until, next_send_at) + make_interval(secs => min_interval_ms / 1000.0), updated_at = now()
         WHERE origin = $1 AND greatest(now(), throttled_until, next_send_at) <= now() + make_interval(secs => $2::int / 1000.0)
         RETURNING greatest(0, ceil(extract(epoch FROM next_send_at - make_interval(secs => min_interval_ms / 1000.0) - now()) * 1000))::int AS wait_ms,
           min_interval_ms
       )
       SELECT (SELECT wait_ms FROM claimed) AS wait_ms, (SELECT min_interval_ms FROM claimed) AS min_interval_ms,
         (SELECT greatest(1, ceil(extract(epoch FROM greatest(now(), throttled_until, next_send_at) - now()) * 1000))::int
          FROM webhook_endpoints WHERE origin = $1) AS defer_ms`,
      [origin, maxWaitMs],
    );
    if (slot.wait_ms !== null) return { waitMs: slot.wait_ms, paced: slot.min_interval_ms > 0 };
    // No row: an endpoint that never answered 429 sends at once.
    return slot.defer_ms === null ? { waitMs: 0, paced: false } : { deferMs: slot.defer_ms };
  }

  /** Of these endpoints, those that hold nothing back now: never throttled, or recovered (no spacing, no wait). */
  async unpaced(origins: string[]): Promise<Set<string>> {
    if (origins.length === 0) return new Set();
    const rows: Array<{ origin: string }> = await this.db.query(
      `SELECT o.origin FROM unnest($1::text[]) AS o(origin)
       WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.origin = o.origin
                           AND (w.min_interval_ms > 0 OR greatest(w.throttled_until, w.next_send_at) > now()))`,
      [origins],
    );
    return new Set(rows.map((r) => r.origin));
  }

  /**
   * A 429: nothing goes to the endpoint before its Retry-After has passed, and its spacing
   * doubles (from 500 ms, capped at a minute). 429s answered while the endpoint is already
   * known to be throttled were sent before we knew (a burst), so they lower the rate once, not
   * once each.
   */
  async recordThrottled(origin: string, retryAfterMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_endpoints (origin, throttled_until, min_interval_ms, throttle_count, last_throttled_at)
       VALUES ($1, now() + make_interval(secs => $2::int / 1000.0), $3, 1, now())
       ON CONFLICT (origin) DO UPDATE SET
         min_interval_ms = CASE WHEN webhook_endpoints.throttled_until > now() THEN webhook_endpoints.min_interval_ms
                                ELSE least($4, greatest($3, webhook_endpoints.min_interval_ms * 2)) END,
         throttled_until = greatest(webhook_endpoints.throttled_until, EXCLUDED.throttled_until),
         throttle_count = webhook_endpoints.throttle_count + 1,
         last_throttled_at = now(),
         updated_at = now()`,
      [origin, Math.max(0, Math.round(retryAfterMs)), THROTTLED_START_INTERVAL_MS, THROTTLED_MAX_INTERVAL_MS],
    );
  }

  /** A 2xx: the endpoint coped, so the spacing shrinks until it is gone. */
  async recordSuccess(origin: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_endpoints
       SET min_interval_ms = CASE WHEN floor(min_interval_ms * $2::float8) < $3 THEN 0 ELSE floor(min_interval_ms * $2::float8)::int END,
           updated_at = now()
       WHERE origin = $1 AND min_interval_ms > 0`,
      [origin, SUCCESS_DECAY, FORGET_BELOW_MS],
    );
  }

  async state(origin: string): Promise<EndpointState | null> {
    const [row] = await this.db.query(
      `SELECT origin, throttled_until, min_interval_ms, next_send_at, throttle_count FROM webhook_endpoints WHERE origin = $1`,
      [origin],
    );
    if (!row) return null;
    return {
      origin: row.origin,
      throttledUntil: row.throttled_until,
      minIntervalMs: row.min_interval_ms,
      nextSendAt: row.next_send_at,
      throttleCount: row.throttle_count,
    };
  }
}

export type PacedOutcome = AttemptOutcome | { outcome: 'deferred'; waitMs: number };

export interface PacingOptions {
  /** The caller's expected back-off before the next try (shown as `nextAttemptAt`). */
  backoffMs?: number;
  /** Longest wait for the endpoint's slot inside this attempt; a longer one is deferred. */
  maxWaitMs: number;
  /** How to wait: the activity's cancellable sleep, so a cancelled delivery stops waiting. */
  wait(ms: number): Promise<void>;
}

/**
 * One delivery attempt that keeps to its webhook endpoint's pace: waits for (or defers to) the
 * endpoint's next send slot, then attempts, then tells the endpoint's note what the receiver
 * said. Other routes (sequencers, CRMs) pass straight through. A deferral is not an attempt:
 * nothing is sent and `attempts` does not move.
 */
export class DeliveryPacing {
  constructor(
    private readonly db: DataSource,
    private readonly deliveries: Deliveries,
    readonly rates: EndpointRates,
  ) {}

  /**
   * One attempt of each of a batch's deliveries, keeping to each endpoint's pace. Webhooks to
   * an endpoint that holds nothing back go out together, bookkept in a few statements for the
   * batch (`Deliveries.attemptWebhooks`); a 429 among them teaches the endpoint's note as it
   * would one at a time, and what the batch then held back waits for its slot like the rest.
   * The rest (paced endpoints, sequencers, CRMs) go one by one through `attempt`. Answers the
   * outcomes in the order of `planned`.
   */
  async attemptMany(
    planned: Array<{ deliveryId: string; route: string; target: string }>,
    options: PacingOptions & { backoffMs: number; atOnce: number },
  ): Promise<PacedOutcome[]> {
    const origins = planned.map((d) => (d.route === 'webhook' ? endpointOf(d.target) : null));
    const free = await this.rates.unpaced([...new Set(origins.filter((o): o is string => o !== null))]);
    const indexes = planned.map((_, i) => i);
    const goesTogether = (i: number) => origins[i] !== null && free.has(origins[i]!);
    const together = indexes.filter(goesTogether);
    const outcomes = new Array<PacedOutcome>(planned.length);
    const sentTogether = await this.deliveries.attemptWebhooks(
      together.map((i) => planned[i]!.deliveryId),
      { backoffMs: options.backoffMs, atOnce: options.atOnce },
    );
    // Not sent because their endpoint answered 429 meanwhile: paced below, after the note is written.
    const unsent: number[] = [];
    for (const [k, i] of together.entries()) {
      const result = sentTogether[k]!;
      if (result.outcome === 'unsent') unsent.push(i);
      else outcomes[i] = result;
      if (result.outcome === 'retry' && result.statusCode === 429) {
        await this.rates.recordThrottled(origins[i]!, result.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000);
      }
    }
    const oneByOne = [...indexes.filter((i) => !goesTogether(i)), ...unsent];
    const sentOneByOne = await inTurns(oneByOne, options.atOnce, (i) => this.attempt(planned[i]!.deliveryId, options, planned[i]));
    oneByOne.forEach((i, k) => (outcomes[i] = sentOneByOne[k]!));
    return outcomes;
  }

  /** `known`: the delivery's route and target when the caller has them (a batch), saving a read. */
  async attempt(deliveryId: string, options: PacingOptions, known?: { route: string; target: string }): Promise<PacedOutcome> {
    const row = known ?? (await this.db.query(`SELECT route, target FROM deliveries WHERE id = $1 AND status = 'pending'`, [deliveryId]))[0];
    const origin = row?.route === 'webhook' ? endpointOf(row.target) : null;
    let paced = false;
    if (origin) {
      const slot = await this.rates.claimSlot(origin, options.maxWaitMs);
      if ('deferMs' in slot) {
        await this.db.query(
          `UPDATE deliveries SET next_attempt_at = now() + make_interval(secs => $2::int / 1000.0), updated_at = now()
           WHERE id = $1 AND status = 'pending'`,
          [deliveryId, slot.deferMs],
        );
        return { outcome: 'deferred', waitMs: slot.deferMs };
      }
      paced = slot.paced;
      if (slot.waitMs > 0) await options.wait(slot.waitMs);
    }
    const result = await this.deliveries.attempt(deliveryId, options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {});
    // Only a paced endpoint has a spacing for a success to shrink.
    if (origin && paced && result.outcome === 'delivered') await this.rates.recordSuccess(origin);
    if (origin && result.outcome === 'retry' && result.statusCode === 429) {
      await this.rates.recordThrottled(origin, result.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000);
    }
    return result;
  }
}
