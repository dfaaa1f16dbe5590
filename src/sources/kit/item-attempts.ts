import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows } from '../../db/sql';

/**
 * An attempt that started and never finished was lost with its worker (killed, out of memory):
 * an item whose next attempt finds this many such is parked rather than tried into the same
 * crash again (docs/decisions/sources.md, "Parked items").
 */
export const LOST_ATTEMPTS_TO_PARK = 2;

/** The item's attempt was cancelled (its activity timed out or was cancelled): nothing of it is written. */
export class AttemptCancelled extends Error {
  constructor(reason?: unknown) {
    super(`the attempt was cancelled${reason instanceof Error && reason.message ? ` (${reason.message})` : ''}`);
  }
}

const currentAttempt = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs one item's sync with `signal` as its attempt's cancellation: every request PoliteFetch
 * makes inside it is aborted with it, however deep in a source it is made.
 */
export function withinAttempt<T>(signal: AbortSignal | undefined, sync: () => Promise<T>): Promise<T> {
  return signal ? currentAttempt.run(signal, sync) : sync();
}

/** The cancellation of the item attempt under way, if the call runs inside one. */
export function attemptSignal(): AbortSignal | undefined {
  return currentAttempt.getStore();
}

/** A parked item as the operator sees it. */
export interface ParkedItem {
  item: string;
  reason: string;
  parkedAt: string;
}

/**
 * Which attempts of a source's items started and did not finish (table `source_item_attempts`),
 * and the items parked for it. An attempt is counted before the sync and cleared after it,
 * whatever its outcome, so only an attempt whose process died stays counted.
 */
export class ItemAttempts {
  constructor(private readonly db: DataSource) {}

  /**
   * Counts an attempt of `item` as started. Answers why the item is parked (then nothing is
   * to be synced): parked before, or parked now because the attempts before it were lost.
   */
  async start(source: string, item: string): Promise<{ parked: string | null }> {
    const row = await firstRow<{ unfinished: number; parked_reason: string | null; started: Date[] }>(
      this.db,
      `INSERT INTO source_item_attempts AS a (source, item, unfinished, started_at)
       VALUES ($1, $2, 1, ARRAY[now()])
       ON CONFLICT (source, item) DO UPDATE SET
         unfinished = CASE WHEN a.parked_at IS NULL THEN a.unfinished + 1 ELSE a.unfinished END,
         started_at = CASE WHEN a.parked_at IS NULL THEN (a.started_at || now())[greatest(1, cardinality(a.started_at) - 1):]
                           ELSE a.started_at END
       RETURNING unfinished, parked_reason, started_at AS started`,
      [source, item],
    );
    if (row!.parked_reason) return { parked: row!.parked_reason };
    if (row!.unfinished <= LOST_ATTEMPTS_TO_PARK) return { parked: null };
    const lost = row!.started.slice(0, -1).map((at) => at.toISOString());
    const reason = `parked: its last ${LOST_ATTEMPTS_TO_PARK} attempts never finished, the worker died during them (started ${lost.join(', ')})`;
    await execute(
      this.db,
      `UPDATE source_item_attempts SET parked_at = now(), parked_reason = $3, unfinished = 0
       WHERE source = $1 AND item = $2`,
      [source, item, reason],
    );
    return { parked: reason };
  }

  /** The attempt ended in this process (a result, an error or a cancellation): it was not lost. */
  async finish(source: string, item: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE source_item_attempts SET unfinished = 0, started_at = '{}' WHERE source = $1 AND item = $2 AND parked_at IS NULL`,
      [source, item],
    );
  }

  /** Which of `items` are parked. */
  async parkedAmong(source: string, items: readonly string[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const parked = await rows<{ item: string }>(
      this.db,
      `SELECT item FROM source_item_attempts WHERE source = $1 AND item = ANY($2::text[]) AND parked_at IS NOT NULL`,
      [source, items],
    );
    return new Set(parked.map((row) => row.item));
  }

  async parked(source: string): Promise<ParkedItem[]> {
    const parked = await rows<{ item: string; parked_reason: string; parked_at: Date }>(
      this.db,
      `SELECT item, parked_reason, parked_at FROM source_item_attempts
       WHERE source = $1 AND parked_at IS NOT NULL ORDER BY parked_at, item`,
      [source],
    );
    return parked.map((row) => ({ item: row.item, reason: row.parked_reason, parkedAt: row.parked_at.toISOString() }));
  }

  /** Unparks one item, or every item of the source: the next run tries it again. Answers how many were parked. */
  async unpark(source: string, item?: string): Promise<number> {
    const cleared = await changed(
      this.db,
      `DELETE FROM source_item_attempts WHERE source = $1 AND ($2::text IS NULL OR item = $2) AND parked_at IS NOT NULL`,
      [source, item ?? null],
    );
    return cleared.count;
  }
}
