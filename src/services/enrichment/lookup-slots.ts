import { createHash, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { execute, rows } from '../../db/sql';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';

/**
 * How long past the expected latency a lookup may run before it is cut short: covers a slow
 * database under load without letting one stuck call hold a slot for long.
 */
const OVERRUN_MS = 20_000;
/** Between the lookup's cut-off and the row's expiry, so a slot never expires under a running lookup. */
const EXPIRY_MARGIN_MS = 10_000;

export const tooManyConcurrentRequests = (retryAfterSeconds: number, cap: number, what = 'slow enrichment lookups') =>
  new AppError(
    429,
    'TOO_MANY_CONCURRENT_REQUESTS',
    `This API key already has ${cap} ${what} in flight; wait Retry-After seconds and resend`,
    { limit: cap },
    { 'Retry-After': String(retryAfterSeconds) },
  );

/**
 * The per-key cap of slow lookups (live contact, firmographic), counted in PostgreSQL so that
 * every API process shares it. A slot is a row; taking one is a single conditional insert
 * under a per-key advisory lock, so two processes can never both take the last slot. Rows
 * carry an expiry and expired rows do not count, so a process that dies mid-lookup frees its
 * slots within seconds instead of leaking them. Over the cap the caller is refused at once:
 * queueing would hold the client's connection for the very latency the cap exists to bound.
 */
export class LookupSlots {
  constructor(
    private readonly db: DataSource,
    private readonly settings: {
      capPerKey: number;
      lookupMs: number;
      /**
       * What the slots are for, when not the enrichment lookups (`cost previews`): such slots
       * are counted apart, under a key id derived from the purpose, so one cap never spends
       * the other's room.
       */
      purpose?: string;
    },
    private readonly logger?: Logger,
  ) {}

  /** The id the key's slots are counted under: the key's own for enrichment, a derived one for another purpose. */
  private slotKeyOf(keyId: string): string {
    const { purpose } = this.settings;
    if (!purpose) return keyId;
    const hex = createHash('sha256').update(`${purpose}\u0000${keyId}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  /** The longest a lookup may run while holding its slot. */
  get holdLimitMs(): number {
    return this.settings.lookupMs + OVERRUN_MS;
  }

  /**
   * Runs `work` holding one of the key's slots, released however it ends. `work` is given a
   * signal that aborts when `caller` aborts (client gone) or the hold limit passes.
   */
  async hold<T>(keyId: string, work: (signal: AbortSignal) => Promise<T>, caller?: AbortSignal): Promise<T> {
    caller?.throwIfAborted();
    const slotId = await this.acquire(keyId);
    const limit = AbortSignal.timeout(this.holdLimitMs);
    const signal = caller ? AbortSignal.any([caller, limit]) : limit;
    try {
      return await work(signal);
    } catch (err) {
      if (signal.aborted) throw abortedLookup(signal.reason);
      throw err;
    } finally {
      await this.release(slotId);
    }
  }

  /** The slot's id, or TOO_MANY_CONCURRENT_REQUESTS when the key's live slots are all taken. */
  async acquire(callerKeyId: string): Promise<string> {
    const slotId = randomUUID();
    const keyId = this.slotKeyOf(callerKeyId);
    const { capPerKey, lookupMs, purpose } = this.settings;
    const expiresInMs = this.holdLimitMs + EXPIRY_MARGIN_MS;
    return this.db.transaction(async (tx) => {
      // Serialises the count and the insert per key; other keys never wait on it.
      await execute(tx, `SELECT pg_advisory_xact_lock(hashtext('lookup_slots'), hashtext($1))`, [keyId]);
      // One round trip under the lock: purge the key's expired rows, insert only while the live
      // count is under the cap, and say when the oldest lookup in flight (the first expected to
      // finish) should free its slot, for Retry-After.
      // One row: `live` is an aggregate; no lookup in flight leaves `retry_after` null.
      const [{ taken, retry_after }] = await rows<{ taken: boolean; retry_after: number | null }>(
        tx,
        `WITH expired AS (DELETE FROM lookup_slots WHERE key_id = $2 AND expires_at <= clock_timestamp()),
              live AS (SELECT count(*) AS held, min(acquired_at) AS oldest
                       FROM lookup_slots WHERE key_id = $2 AND expires_at > clock_timestamp()),
              inserted AS (
                INSERT INTO lookup_slots (slot_id, key_id, acquired_at, expires_at)
                SELECT $1, $2, clock_timestamp(), clock_timestamp() + make_interval(secs => $3::double precision / 1000)
                WHERE (SELECT count(*) FROM lookup_slots WHERE key_id = $2 AND expires_at > clock_timestamp()) < $4
                RETURNING slot_id)
         SELECT EXISTS (SELECT 1 FROM inserted) AS taken,
                greatest(1, ceil(extract(epoch FROM
                  live.oldest + make_interval(secs => $5::double precision / 1000) - clock_timestamp())))::int AS retry_after
         FROM live`,
        [slotId, keyId, expiresInMs, capPerKey, lookupMs],
      );
      if (taken) return slotId;
      throw tooManyConcurrentRequests(retry_after ?? 1, capPerKey, purpose);
    });
  }

  async release(slotId: string): Promise<void> {
    try {
      await execute(this.db, `DELETE FROM lookup_slots WHERE slot_id = $1`, [slotId]);
    } catch (err) {
      // The row expires on its own; a failed release only holds the slot a little longer.
      this.logger?.warn({ err, slotId }, 'could not release a lookup slot; it expires by itself');
    }
  }

  /** Slots the key holds right now (for tests and the operator). */
  async inFlight(keyId: string): Promise<number> {
    const [{ count }] = await rows<{ count: number }>(
      this.db,
      `SELECT count(*)::int AS count FROM lookup_slots WHERE key_id = $1 AND expires_at > clock_timestamp()`,
      [this.slotKeyOf(keyId)],
    );
    return count;
  }
}

/** A lookup cut short: the client went away (nobody reads the answer) or it ran past its limit. */
function abortedLookup(reason: unknown): AppError {
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new AppError(504, 'LOOKUP_TIMEOUT', 'The lookup took too long and was stopped; resend the request');
  }
  return new AppError(499, 'CLIENT_CLOSED_REQUEST', 'The client closed the request before the lookup finished');
}
