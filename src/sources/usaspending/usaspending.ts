import type { DataSource } from 'typeorm';
import type { Ingestion } from '../../services/ingestion/ingestion';
import { AwardFeed, AwardFeedSource, type AwardPage, type AwardWindow } from '../kit/award-feed';
import { AwardWinners } from '../kit/award-winners';
import type { DocumentThreads } from '../kit/document-threads';
import type { PoliteFetch } from '../kit/polite-fetch';
import { USASPENDING_SEARCH_URL, usaspendingSearchBody } from './awards';
import type { UsaspendingConfig } from './settings';

const DAY_MS = 86_400_000;
const MAX_PAGES_PER_RUN = 500;

/**
 * The `usaspending` source (docs/sources/usaspending.md): US federal contract awards (types
 * A–D) new in the days since the last read, from USAspending.gov's award search. Each
 * recipient matched to a company by name (../kit/award-winners.ts) becomes a `public_tenders`
 * event there, id `usaspending:<generated award id>:<company>`.
 */
export class Usaspending extends AwardFeedSource {
  readonly name = 'usaspending';
  readonly label = 'USAspending contract awards';
  protected readonly feed: AwardFeed;

  constructor(
    db: DataSource,
    ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: Pick<
      UsaspendingConfig,
      'USASPENDING_BACKFILL_DAYS' | 'USASPENDING_LATE_DAYS' | 'USASPENDING_PAGE_SIZE'
    >,
    private readonly documents: DocumentThreads,
  ) {
    super();
    this.feed = new AwardFeed(db, ingestion, new AwardWinners(db, 'usa'), this.name, {
      backfillDays: config.USASPENDING_BACKFILL_DAYS,
      overlapMs: config.USASPENDING_LATE_DAYS * DAY_MS,
      maxPagesPerRun: MAX_PAGES_PER_RUN,
    });
  }

  async page(window: AwardWindow, token: string | null): Promise<AwardPage | { problem: string }> {
    const page = token === null ? 1 : Number(token);
    if (!Number.isInteger(page) || page < 1) return { problem: `no page ${token}` };
    const limit = this.config.USASPENDING_PAGE_SIZE;
    // A 429 throws: the item is retried after its Retry-After, at this page.
    const answer = await this.fetcher.post(USASPENDING_SEARCH_URL, usaspendingSearchBody(window, page, limit));
    if (answer.status === 'not-modified') return { problem: 'answered 304 to a request that was not conditional' };
    if (answer.status === 'failed') return { problem: answer.error };
    return this.documents.read('usaspendingAwards', answer.body, page, limit);
  }
}
