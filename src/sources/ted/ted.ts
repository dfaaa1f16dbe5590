import type { DataSource } from 'typeorm';
import type { TedConfig as TedSettings } from './settings';
import {
  awardNoticesOfDayQuery,
  TED_MAX_PAGE_SIZE,
  TED_SEARCH_URL,
  tedSearchBody,
  type TedAwardNotice,
} from './search';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { DocumentThreads } from '../kit/document-threads';
import type { IntentSource } from '../kit/intent-source';
import type { PoliteFetch } from '../kit/polite-fetch';
import { AwardWinners } from '../kit/award-winners';
import { ingestAward, type ContractAward } from '../kit/public-tenders';
import { changed, execute, firstRow, rows } from '../../db/sql';

const DAY_ITEM = 'day-';
const DAYS_PER_PAGE = 31;
/** Page-number mode reaches 15,000 notices of one query at most (the API's limit). */
const MAX_NOTICES_PER_QUERY = 15_000;
const DAY_MS = 86_400_000;

type TedConfig = Pick<TedSettings, 'TED_RECENT_DAYS' | 'TED_BACKFILL_DAYS' | 'TED_PAGE_SIZE'>;

/**
 * The `ted` source (docs/sources/ted.md): contract award notices of TED, the EU's public
 * procurement journal, read one publication day at a time through the Search API. Each winner
 * of a notice matched to a company (../kit/award-winners.ts) becomes a `public_tenders` event there
 * (id `ted:<publication number>:<company id>`, so a rerun adds nothing); unmatched winners are
 * dropped and counted. A day is read page by page and remembers the next page, so a run killed
 * mid-way goes on from there; today is read again by every run until it is over.
 */
export class Ted implements IntentSource {
  readonly name = 'ted';
  private readonly winners: AwardWinners;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: TedConfig,
    private readonly documents: DocumentThreads,
  ) {
    this.winners = new AwardWinners(db, 'ted');
  }

  /** The TED_BACKFILL_DAYS days before today, read again (from their first page) by the next run. */
  async backfill(): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO ted_days (day) SELECT unnest($1::date[])
       ON CONFLICT (day) DO UPDATE SET read_at = NULL, next_page = 1, requested_at = now()`,
      [lastDays(this.config.TED_BACKFILL_DAYS, 1)],
    );
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    if (after === null) {
      await execute(this.db, `INSERT INTO ted_days (day) SELECT unnest($1::date[]) ON CONFLICT (day) DO NOTHING`, [
        lastDays(this.config.TED_RECENT_DAYS, 0),
      ]);
    }
    const pending = await rows<{ key: string }>(
      this.db,
      `SELECT $2 || to_char(day, 'YYYY-MM-DD') AS key FROM ted_days
       WHERE read_at IS NULL AND $2 || to_char(day, 'YYYY-MM-DD') > $1 ORDER BY day LIMIT $3`,
      [after ?? '', DAY_ITEM, DAYS_PER_PAGE],
    );
    const items = pending.map((row) => row.key);
    return { items, next: items.length === DAYS_PER_PAGE ? items[items.length - 1]! : null };
  }

  async sync(item: string): Promise<SourceItemResult> {
    if (!item.startsWith(DAY_ITEM)) return { records: 0 };
    const day = item.slice(DAY_ITEM.length);
    const row = await firstRow<{ next_page: number; read: boolean }>(
      this.db,
      `SELECT next_page, read_at IS NOT NULL AS read FROM ted_days WHERE day = $1::date`,
      [day],
    );
    if (!row || row.read) return { records: 0 };
    const size = Math.min(this.config.TED_PAGE_SIZE, TED_MAX_PAGE_SIZE);
    const query = awardNoticesOfDayQuery(day);
    const problems: string[] = [];
    for (let page = row.next_page; ; page++) {
      const where = `TED award notices of ${day} (page ${page})`;
      // A 429 throws: the item is retried after its Retry-After and goes on at this page.
      const answer = await this.fetcher.post(TED_SEARCH_URL, tedSearchBody(query, page, size));
      if (answer.status !== 'ok') {
        const error = answer.status === 'failed' ? answer.error : 'answered 304 to a request that was not conditional';
        return this.settle(day, false, [...problems, `${where}: ${error}`]);
      }
      const parsed = await this.documents.read('tedSearch', answer.body);
      if ('problem' in parsed) return this.settle(day, false, [...problems, `${where}: ${parsed.problem}`]);
      if (parsed.unreadable.length) problems.push(`${where}: unreadable notices ${parsed.unreadable.join(', ')}`);
      let records = 0;
      let dropped = 0;
      for (const notice of parsed.notices) {
        const read = await this.readNotice(notice);
        if ('problem' in read) problems.push(read.problem);
        else {
          records += read.events;
          dropped += read.dropped;
        }
      }
      // The counts wait in the day's row until the item returns, so a retry after a 429 still reports them.
      await execute(
        this.db,
        `UPDATE ted_days SET next_page = $2, unreported_records = unreported_records + $3,
           unreported_dropped = unreported_dropped + $4 WHERE day = $1::date`,
        [day, page + 1, records, dropped],
      );
      if (parsed.listed < size || page * size >= Math.min(parsed.total, MAX_NOTICES_PER_QUERY)) break;
    }
    // Today's notices may still be published: the day is read again, from its first page, by the next run.
    return this.settle(day, day < new Date().toISOString().slice(0, 10), problems);
  }

  /** The day's read ends: done (read to the end and over) or pending, with what it ingested and dropped. */
  private async settle(day: string, done: boolean, problems: string[]): Promise<SourceItemResult> {
    const error = problems.length ? problems.join('; ') : undefined;
    const { rows: counts } = await changed<{ records: number; dropped: number }>(
      this.db,
      `UPDATE ted_days t SET read_at = CASE WHEN $2 THEN now() END,
         next_page = CASE WHEN $2 OR $3::text IS NOT NULL THEN t.next_page ELSE 1 END,
         last_error = $3, unreported_records = 0, unreported_dropped = 0
       FROM ted_days old WHERE t.day = $1::date AND old.day = t.day
       RETURNING old.unreported_records AS records, old.unreported_dropped AS dropped`,
      [day, done, error ?? null],
    );
    const result = { records: counts[0]?.records ?? 0, dropped: counts[0]?.dropped ?? 0 };
    return error ? { ...result, error } : result;
  }

  /** One notice: each winner matched; the matched ones' events ingested. */
  private readNotice(notice: TedAwardNotice): Promise<{ events: number; dropped: number } | { problem: string }> {
    const award: ContractAward = {
      key: `ted:${notice.publicationNumber}`,
      title: notice.title || `Contract award notice ${notice.publicationNumber}`,
      buyer: notice.buyer,
      value: notice.value,
      valueLabel: 'total value',
      awardedOn: notice.publishedOn,
      link: notice.link,
      winners: notice.winners,
    };
    return ingestAward(this.ingestion, this.winners, award, `TED notice ${notice.publicationNumber}`);
  }
}

/** `count` days (UTC, `YYYY-MM-DD`), newest first, the newest `skip` days before today. */
function lastDays(count: number, skip: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.now() - (i + skip) * DAY_MS).toISOString().slice(0, 10));
}
