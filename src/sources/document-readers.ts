import { documentOf, JOB_BOARD_PLATFORMS, type BoardDocument, type JobPosting } from './job-boards/platforms';
import { readArticlePage } from './news/article-page';
import { parseFeed } from './news/feeds';
import { parseGdeltArtlist } from './news/gdelt';
import { parseCurrentFeed, parseFormD } from './sec-form-d/edgar';
import { readSitePage } from './kit/site-page';
import { parseEdgarFeed } from './kit/edgar/filings';
import { currentReportText } from './sec-filings/current-report';
import { parseFilingHeader } from './sec-filings/filing-header';
import { parseOwnerFilings, parseOwnershipReport } from './sec-filings/ownership';
import { parseTedSearch } from './ted/search';
import { parseFindATenderPackage } from './find-a-tender/releases';
import { parseContractsFinderPackage } from './contracts-finder/releases';
import { parseUsaspendingPage } from './usaspending/awards';

/**
 * The readers of fetched documents that run in a document thread (document-threads.ts): plain
 * functions of the body, whose arguments and answers are plain data a thread can pass back.
 */
export const DOCUMENT_READERS = {
  sitePage: readSitePage,
  articlePage: readArticlePage,
  feed: parseFeed,
  secCurrentFeed: parseCurrentFeed,
  secFormD: parseFormD,
  /** EDGAR's current filings of the given form types. */
  edgarFeed: (text: string, forms: string[]) => parseEdgarFeed(text, new Set(forms)),
  secOwnership: parseOwnershipReport,
  secOwnerFilings: parseOwnerFilings,
  secFilingHeader: parseFilingHeader,
  secCurrentReport: (text: string) => ({ text: currentReportText(text) }),
  tedSearch: parseTedSearch,
  findATenderPackage: parseFindATenderPackage,
  contractsFinderPackage: parseContractsFinderPackage,
  usaspendingAwards: parseUsaspendingPage,
  gdeltArtlist: parseGdeltArtlist,
  /** One page of a board, read by its platform. */
  board(ats: string, token: string, body: string): BoardDocument {
    const platform = JOB_BOARD_PLATFORMS.get(ats);
    if (!platform) return { problem: `no platform ${ats}` };
    const decoded = documentOf(body, platform.format);
    return 'problem' in decoded ? decoded : platform.parse(decoded.document, token);
  },
  /** A posting's own document, completing what its board's list gave. */
  boardPosting(ats: string, posting: JobPosting, body: string): JobPosting | { problem: string } {
    const detail = JOB_BOARD_PLATFORMS.get(ats)?.detail;
    if (!detail) return { problem: `no posting documents on ${ats}` };
    const decoded = documentOf(body, JOB_BOARD_PLATFORMS.get(ats)!.format);
    return 'problem' in decoded ? decoded : detail.parse(decoded.document, posting);
  },
};

export type DocumentReaders = typeof DOCUMENT_READERS;
export type DocumentKind = keyof DocumentReaders;
