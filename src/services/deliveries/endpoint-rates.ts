import type { DataSource } from 'typeorm';
import { execute, firstRow, rows } from '../../db/sql';

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
  async claimSlot(
    origin: string,
    maxWaitMs: number,
  ): Promise<{ waitMs: number; paced: boolean } | { deferMs: number }> {
    // greatest() skips nulls. The claimed slot is the new next_send_at minus the spacing.
    // One row always: each column is a scalar subquery, null when it finds nothing.
    const [slot] = await rows<{ wait_ms: number | null; min_interval_ms: number | null; defer_ms: number | null }>(
      this.db,
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
    if (slot.wait_ms !== null) return { waitMs: slot.wait_ms, paced: (slot.min_interval_ms ?? 0) > 0 };
    // No row: an endpoint that never answered 429 sends at once.
    return slot.defer_ms === null ? { waitMs: 0, paced: false } : { deferMs: slot.defer_ms };
  }

  /**
   * A 429: nothing goes to the endpoint before its Retry-After has passed, and its spacing
   * doubles (from 500 ms, capped at a minute). 429s answered while the endpoint is already
   * known to be throttled were sent before we knew (a burst), so they lower the rate once, not
   * once each.
   */
  async recordThrottled(origin: string, retryAfterMs: number): Promise<void> {
    await execute(
      this.db,
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
    await execute(
      this.db,
      `UPDATE webhook_endpoints
       SET min_interval_ms = CASE WHEN floor(min_interval_ms * $2::float8) < $3 THEN 0 ELSE floor(min_interval_ms * $2::float8)::int END,
           updated_at = now()
       WHERE origin = $1 AND min_interval_ms > 0`,
      [origin, SUCCESS_DECAY, FORGET_BELOW_MS],
    );
  }

  async state(origin: string): Promise<EndpointState | null> {
    const row = await firstRow<{
      origin: string;
      throttled_until: Date | null;
      min_interval_ms: number;
      next_send_at: Date | null;
      throttle_count: number;
    }>(
      this.db,
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
