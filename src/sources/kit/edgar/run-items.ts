import type { DataSource } from 'typeorm';
import { rows } from '../../../db/sql';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../../temporal/contract';

/** Items listed per page of a run. */
const ITEMS_PER_PAGE = 25;
/** A run's items, in this order: the current feed, the daily indexes a backfill asked for, then each listed filing. */
const FEED_ITEM = '1-feed';
const INDEX_ITEM = '2-index-';
const FILING_ITEM = '3-filing-';

/** What one EDGAR source reads for each kind of item. */
export interface EdgarReading {
  currentFeed(): Promise<SourceItemResult>;
  dailyIndex(day: string): Promise<SourceItemResult>;
  filing(accession: string): Promise<SourceItemResult>;
}

/**
 * The run of an EDGAR source (sec-form-d, sec-filings): its current feed first, then each daily
 * index not read yet and each filing listed and not read yet, from its own two tables
 * (`<days table>(day, read_at)`, `<filings table>(accession, status)`), in key order so a run
 * killed mid-way goes on from its cursor.
 */
export class EdgarRunItems {
  constructor(
    private readonly db: DataSource,
    private readonly tables: { indexDays: string; filings: string },
  ) {}

  async page(after: SourceCursor): Promise<SourceItemsPage> {
    if (after === null) return { items: [FEED_ITEM], next: FEED_ITEM };
    const listed = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM (
         SELECT $2 || to_char(day, 'YYYY-MM-DD') AS key FROM ${this.tables.indexDays} WHERE read_at IS NULL
         UNION ALL
         SELECT $3 || accession FROM ${this.tables.filings} WHERE status = 'pending'
       ) k WHERE key COLLATE "C" > $1 ORDER BY key COLLATE "C" LIMIT $4`,
      [after, INDEX_ITEM, FILING_ITEM, ITEMS_PER_PAGE],
    );
    const items = listed.map((row) => row.key);
    // A daily index lists filings as it is read: the run asks again after it, to read them too.
    const more = items.length === ITEMS_PER_PAGE || items.some((item) => item.startsWith(INDEX_ITEM));
    return { items, next: more ? items[items.length - 1]! : null };
  }

  sync(item: string, reading: EdgarReading): Promise<SourceItemResult> {
    if (item === FEED_ITEM) return reading.currentFeed();
    if (item.startsWith(INDEX_ITEM)) return reading.dailyIndex(item.slice(INDEX_ITEM.length));
    if (item.startsWith(FILING_ITEM)) return reading.filing(item.slice(FILING_ITEM.length));
    return Promise.resolve({ records: 0 });
  }
}
