import type { DataSource } from 'typeorm';
import type { Ingestion } from '../../services/ingestion/ingestion';
import { AwardFeed, AwardFeedSource, type AwardPage, type AwardWindow } from '../kit/award-feed';
import { AwardWinners } from '../kit/award-winners';
import type { DocumentThreads } from '../kit/document-threads';
import type { PoliteFetch } from '../kit/polite-fetch';
import { contractsFinderPageUrl } from './releases';
import type { ContractsFinderConfig } from './settings';

/** An hour of overlap catches a notice whose publication time is set a little before it shows in the search. */
const OVERLAP_MS = 3_600_000;
const MAX_PAGES_PER_RUN = 500;

/**
 * The `contracts-finder` source (docs/sources/contracts-finder.md): the UK's contract awards of
 * lower value (from £12,000 for central government), read from Contracts Finder's OCDS search
 * (award stage) published since the last read. Each supplier matched to a company
 * (../kit/award-winners.ts, by its `GB-COH` number first) becomes a `public_tenders` event
 * there, id `cf:<ocid>:<award id>:<company>`.
 */
export class ContractsFinder extends AwardFeedSource {
  readonly name = 'contracts-finder';
  readonly label = 'Contracts Finder awards';
  protected readonly feed: AwardFeed;

  constructor(
    db: DataSource,
    ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: Pick<
      ContractsFinderConfig,
      'CONTRACTS_FINDER_BACKFILL_DAYS' | 'CONTRACTS_FINDER_PAGE_SIZE' | 'CONTRACTS_FINDER_REFUSED_WAIT'
    >,
    private readonly documents: DocumentThreads,
  ) {
    super();
    this.feed = new AwardFeed(db, ingestion, new AwardWinners(db, 'cf'), this.name, {
      backfillDays: config.CONTRACTS_FINDER_BACKFILL_DAYS,
      overlapMs: OVERLAP_MS,
      maxPagesPerRun: MAX_PAGES_PER_RUN,
    });
  }

  async page(window: AwardWindow, cursor: string | null): Promise<AwardPage | { problem: string }> {
    const url = contractsFinderPageUrl(window, this.config.CONTRACTS_FINDER_PAGE_SIZE, cursor);
    // A 429 throws, and so does its 403 for too many requests: the item is retried after the wait, at this cursor.
    const answer = await this.fetcher.get(url);
    if (answer.status === 'not-modified') return { problem: 'answered 304 to a request that was not conditional' };
    if (answer.status === 'failed' && answer.statusCode === 403)
      throw await this.fetcher.refused(url, 403, this.config.CONTRACTS_FINDER_REFUSED_WAIT);
    if (answer.status === 'failed') return { problem: answer.error };
    return this.documents.read('contractsFinderPackage', answer.body);
  }
}
