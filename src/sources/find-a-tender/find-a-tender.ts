import type { DataSource } from 'typeorm';
import type { Ingestion } from '../../services/ingestion/ingestion';
import { AwardFeed, AwardFeedSource, type AwardPage, type AwardWindow } from '../kit/award-feed';
import { AwardWinners } from '../kit/award-winners';
import type { DocumentThreads } from '../kit/document-threads';
import type { PoliteFetch } from '../kit/polite-fetch';
import { findATenderPageUrl } from './releases';
import type { FindATenderConfig } from './settings';

/** Notices are updated after their first publication; an hour of overlap catches one published late in a window. */
const OVERLAP_MS = 3_600_000;
const MAX_PAGES_PER_RUN = 500;

/**
 * The `find-a-tender` source (docs/sources/find-a-tender.md): the UK's contract awards above the
 * procurement thresholds, read from Find a Tender's OCDS release packages (award stage) updated
 * since the last read. Each supplier matched to a company (../kit/award-winners.ts, by its
 * `GB-COH` number first) becomes a `public_tenders` event there, id `fts:<ocid>:<award id>:<company>`.
 */
export class FindATender extends AwardFeedSource {
  readonly name = 'find-a-tender';
  readonly label = 'Find a Tender awards';
  protected readonly feed: AwardFeed;

  constructor(
    db: DataSource,
    ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: Pick<FindATenderConfig, 'FIND_A_TENDER_BACKFILL_DAYS' | 'FIND_A_TENDER_PAGE_SIZE'>,
    private readonly documents: DocumentThreads,
  ) {
    super();
    this.feed = new AwardFeed(db, ingestion, new AwardWinners(db, 'fts'), this.name, {
      backfillDays: config.FIND_A_TENDER_BACKFILL_DAYS,
      overlapMs: OVERLAP_MS,
      maxPagesPerRun: MAX_PAGES_PER_RUN,
    });
  }

  async page(window: AwardWindow, cursor: string | null): Promise<AwardPage | { problem: string }> {
    // A 429 (plain text, Retry-After in seconds) throws: the item is retried then, at this cursor.
    const answer = await this.fetcher.get(findATenderPageUrl(window, this.config.FIND_A_TENDER_PAGE_SIZE, cursor));
    if (answer.status === 'not-modified') return { problem: 'answered 304 to a request that was not conditional' };
    if (answer.status === 'failed') return { problem: answer.error };
    return this.documents.read('findATenderPackage', answer.body);
  }
}
