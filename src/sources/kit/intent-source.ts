import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';

/**
 * A source of intent events: the items it visits (boards, sites, feeds) in a stable order a
 * cursor can resume from, and how one item is synced. Each source is one file of this shape.
 */
export interface IntentSource {
  readonly name: string;
  items(after: SourceCursor): Promise<SourceItemsPage>;
  /** `progress` reports how far a long item has got (the activity's heartbeat). */
  sync(item: string, progress?: (detail: unknown) => void): Promise<SourceItemResult>;
  /** Why the source cannot run as configured (a missing key), else null: its runs then do nothing. */
  off?(): string | null;
  /** A source whose items are due at their own times (job boards): the operator's run now makes every item due. */
  dueNow?(): Promise<void>;
  /** What the operator's backfill adds to the next run beyond its first item (e.g. older listings to read). */
  backfill?(): Promise<void>;
  /** A line the source's status adds: off and why, what its last run cost. */
  detail?(): Promise<string | null>;
}
