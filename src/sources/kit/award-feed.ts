import type { DataSource } from 'typeorm';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import { changed, execute, firstRow } from '../../db/sql';
import type { AwardWinners } from './award-winners';
import { ingestAward, type ContractAward } from './public-tenders';
import type { IntentSource } from './intent-source';

/** The span of time one read of a publisher's awards asks for (updated, published or awarded in it). */
export interface AwardWindow {
  from: Date;
  to: Date;
}

/** One page of a publisher's awards: the awards read, the next page's token (none on the last). */
export interface AwardPage {
  awards: ContractAward[];
  next: string | null;
  /** Records of the page left out because they cannot be read (no id, no date). */
  unreadable: string[];
}

/** How one publisher's pages are asked for and read (find-a-tender, contracts-finder, usaspending). */
export interface AwardPages {
  /** `Find a Tender awards`: names the pages in the status's errors. */
  readonly label: string;
  /** The page of `window` after `token` (null: its first); a 429 throws (SourceThrottled). */
  page(window: AwardWindow, token: string | null): Promise<AwardPage | { problem: string }>;
}

export interface AwardFeedConfig {
  /** The days before now a first run, and a backfill, read. */
  backfillDays: number;
  /** How far each window reaches back before the last one's end: late publications are caught again. */
  overlapMs: number;
  /** Pages one item reads at most; the rest waits for the next run, at the page it stopped at. */
  maxPagesPerRun: number;
}

const ITEM = 'awards';
const DAY_MS = 86_400_000;

/**
 * A publisher's contract awards read window after window (docs/decisions/award-winners.md): each
 * run asks for what changed from the end of the last read window (less an overlap) until now,
 * page by page, and keeps the next page's token in `award_feeds`, so a run killed mid-way or a
 * 429 (retried after its Retry-After) goes on at that page. The window's end is fixed when it
 * starts, so its pages stay one query; it is read through once its last page is read. Each
 * award's winners become `public_tenders` events (public-tenders.ts); a rerun adds nothing.
 */
export class AwardFeed {
  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly winners: AwardWinners,
    /** The source's name: its row in `award_feeds`. */
    private readonly name: string,
    private readonly config: AwardFeedConfig,
  ) {}

  /** One item per run: the feed, read from where it stopped. */
  items(after: SourceCursor): Promise<SourceItemsPage> {
    return Promise.resolve({ items: after === null ? [ITEM] : [], next: null });
  }

  /** The next run reads the `backfillDays` before now again (a window under way starts over). */
  async backfill(): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO award_feeds (name, read_through) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET read_through = $2, window_from = NULL, window_to = NULL, next_page = NULL`,
      [this.name, new Date(Date.now() - this.config.backfillDays * DAY_MS)],
    );
  }

  /** The status's line: how far the awards are read, and the window under way with its page. */
  async detail(): Promise<string | null> {
    const row = await firstRow<{ read_through: Date; window_from: Date | null; next_page: string | null }>(
      this.db,
      `SELECT read_through, window_from, next_page FROM award_feeds WHERE name = $1`,
      [this.name],
    );
    if (!row) return `nothing read yet: the first run reads the ${this.config.backfillDays} days before it`;
    const through = `awards read through ${row.read_through.toISOString()}`;
    if (!row.window_from) return through;
    return `${through}; the window from ${row.window_from.toISOString()} is under way${row.next_page ? ', at a later page' : ''}`;
  }

  async sync(item: string, pages: AwardPages, progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    if (item !== ITEM) return { records: 0 };
    const window = await this.windowUnderWay();
    let token = window.next;
    const problems: string[] = [];
    for (let n = 0; n < this.config.maxPagesPerRun; n++) {
      const where = `${pages.label} ${window.from.toISOString()} to ${window.to.toISOString()}${token ? ` (page ${token.slice(0, 40)})` : ''}`;
      const page = await pages.page(window, token);
      if ('problem' in page) return this.settle(false, [...problems, `${where}: ${page.problem}`]);
      if (page.next !== null && page.next === token)
        return this.settle(false, [...problems, `${where}: the next page is this page`]);
      if (page.unreadable.length) problems.push(`${where}: unreadable records ${page.unreadable.join(', ')}`);
      let records = 0;
      let dropped = 0;
      for (const award of page.awards) {
        const read = await ingestAward(this.ingestion, this.winners, award, award.key);
        if ('problem' in read) problems.push(read.problem);
        else {
          records += read.events;
          dropped += read.dropped;
        }
      }
      // The counts wait in the feed's row until the item returns, so a retry after a 429 still reports them.
      await execute(
        this.db,
        `UPDATE award_feeds SET next_page = $2, unreported_records = unreported_records + $3,
           unreported_dropped = unreported_dropped + $4 WHERE name = $1`,
        [this.name, page.next, records, dropped],
      );
      progress?.({ page: n + 1 });
      if (page.next === null) return this.settle(true, problems);
      token = page.next;
    }
    return this.settle(false, problems);
  }

  /** The window being read (started now when none is), and its next page. */
  private async windowUnderWay(): Promise<AwardWindow & { next: string | null }> {
    const first = new Date(Date.now() - this.config.backfillDays * DAY_MS);
    await execute(
      this.db,
      `INSERT INTO award_feeds (name, read_through) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [this.name, first],
    );
    await execute(
      this.db,
      `UPDATE award_feeds SET window_from = read_through - make_interval(secs => $2::double precision / 1000),
         window_to = now(), next_page = NULL
       WHERE name = $1 AND window_to IS NULL`,
      [this.name, this.config.overlapMs],
    );
    const row = await firstRow<{ window_from: Date; window_to: Date; next_page: string | null }>(
      this.db,
      `SELECT window_from, window_to, next_page FROM award_feeds WHERE name = $1`,
      [this.name],
    );
    return { from: row!.window_from, to: row!.window_to, next: row!.next_page };
  }

  /** The item ends: the window read through (the next starts at its end) or still under way, with its counts. */
  private async settle(done: boolean, problems: string[]): Promise<SourceItemResult> {
    const error = problems.length ? problems.join('; ') : undefined;
    const { rows: counts } = await changed<{ records: number; dropped: number }>(
      this.db,
      `UPDATE award_feeds f SET
         read_through = CASE WHEN $2 THEN f.window_to ELSE f.read_through END,
         window_from = CASE WHEN $2 THEN NULL ELSE f.window_from END,
         window_to = CASE WHEN $2 THEN NULL ELSE f.window_to END,
         next_page = CASE WHEN $2 THEN NULL ELSE f.next_page END,
         read_at = CASE WHEN $2 THEN now() ELSE f.read_at END,
         last_error = $3, unreported_records = 0, unreported_dropped = 0
       FROM award_feeds old WHERE f.name = $1 AND old.name = f.name
       RETURNING old.unreported_records AS records, old.unreported_dropped AS dropped`,
      [this.name, done, error ?? null],
    );
    const result = { records: counts[0]?.records ?? 0, dropped: counts[0]?.dropped ?? 0 };
    return error ? { ...result, error } : result;
  }
}

/**
 * A publisher of awards as an intent source (find-a-tender, contracts-finder, usaspending): its
 * run is its feed's; the source says only how one page is asked for and read.
 */
export abstract class AwardFeedSource implements IntentSource, AwardPages {
  abstract readonly name: string;
  abstract readonly label: string;
  protected abstract readonly feed: AwardFeed;

  abstract page(window: AwardWindow, token: string | null): Promise<AwardPage | { problem: string }>;

  items(after: SourceCursor): Promise<SourceItemsPage> {
    return this.feed.items(after);
  }

  sync(item: string, progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    return this.feed.sync(item, this, progress);
  }

  backfill(): Promise<void> {
    return this.feed.backfill();
  }

  detail(): Promise<string | null> {
    return this.feed.detail();
  }
}
