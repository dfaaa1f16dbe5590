import type { DataSource } from 'typeorm';
import { execute, rows } from '../../../db/sql';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../../temporal/contract';
import type { FetchAnswer } from '../polite-fetch';
import { dailyFormIndexUrl, type ListedFiling } from './filings';

/** What the ledger keeps of a listed filing. */
type Listing = Pick<ListedFiling, 'accession' | 'cik' | 'form' | 'filedOn'>;

const DAY_MS = 86_400_000;

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
 * The run of an EDGAR source (sec-form-d, sec-filings) and what it has listed: its current feed
 * first, then each daily index not read yet and each filing listed and not read yet, from its own
 * two tables (`<days table>(day, read_at, requested_at)`, `<filings table>(accession, cik, form,
 * filed_on, status)`), in key order so a run killed mid-way goes on from its cursor.
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

  /** The daily indexes of the last `days` days (UTC) before today, read by the next run. */
  async backfill(days: number): Promise<void> {
    const listed = Array.from({ length: days }, (_, i) =>
      new Date(Date.now() - (i + 1) * DAY_MS).toISOString().slice(0, 10),
    );
    await execute(
      this.db,
      `INSERT INTO ${this.tables.indexDays} (day) SELECT unnest($1::date[])
       ON CONFLICT (day) DO UPDATE SET read_at = NULL, requested_at = now()`,
      [listed],
    );
  }

  /** True when a feed's page reached a filing listed before (the feed is read back to there). */
  async anyListed(filings: readonly Listing[]): Promise<boolean> {
    const known = await rows<{ accession: string }>(
      this.db,
      `SELECT accession FROM ${this.tables.filings} WHERE accession = ANY($1::text[]) LIMIT 1`,
      [[...new Set(filings.map((filing) => filing.accession))]],
    );
    return known.length > 0;
  }

  /**
   * One day's form index, its filings listed with `parse`. No index (a weekend, a holiday: 404)
   * lists nothing; either way the day is read.
   */
  async readDailyIndex<F extends Listing>(
    day: string,
    get: (url: string, accept: string) => Promise<FetchAnswer>,
    parse: (text: string) => { filings: F[] } | { problem: string },
    prefer?: (candidate: F, kept: F) => boolean,
  ): Promise<SourceItemResult> {
    const answer = await get(dailyFormIndexUrl(day), 'text/plain');
    const where = `daily form index of ${day}`;
    if (answer.status === 'failed' && answer.statusCode !== 404)
      return { records: 0, error: `${where}: ${answer.error}` };
    let error: string | undefined;
    if (answer.status === 'ok') {
      const index = parse(answer.body);
      if ('problem' in index) error = `${where}: ${index.problem}`;
      else await this.list(index.filings, prefer);
    }
    await execute(this.db, `UPDATE ${this.tables.indexDays} SET read_at = now() WHERE day = $1::date`, [day]);
    return error ? { records: 0, error } : { records: 0 };
  }

  /**
   * Filings not listed before, to be read one item each. A filing of several parties is listed
   * once per party: kept under its first listing (every party's folder holds the filing) unless
   * `prefer` picks a later one.
   */
  async list<F extends Listing>(filings: readonly F[], prefer?: (candidate: F, kept: F) => boolean): Promise<void> {
    const byAccession = new Map<string, F>();
    for (const filing of filings) {
      const kept = byAccession.get(filing.accession);
      if (!kept || prefer?.(filing, kept)) byAccession.set(filing.accession, filing);
    }
    const unique = [...byAccession.values()];
    if (unique.length === 0) return;
    await execute(
      this.db,
      `INSERT INTO ${this.tables.filings} (accession, cik, form, filed_on)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::date[])
       ON CONFLICT (accession) DO NOTHING`,
      [
        unique.map((f) => f.accession),
        unique.map((f) => f.cik),
        unique.map((f) => f.form),
        unique.map((f) => f.filedOn),
      ],
    );
  }
}
