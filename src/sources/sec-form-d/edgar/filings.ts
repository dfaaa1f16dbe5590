import {
  CURRENT_FEED_PAGE_SIZE,
  dailyFormIndexUrl,
  filingFolderUrl,
  parseEdgarDailyIndex,
  parseEdgarFeed,
  type ListedFiling as EdgarListedFiling,
} from '../../kit/edgar/filings';

export { CURRENT_FEED_PAGE_SIZE, dailyFormIndexUrl };

/** One Form D filing listed by EDGAR (the current-filings feed or a daily index). */
export type ListedFiling = Omit<EdgarListedFiling, 'form' | 'role'> & { form: 'D' | 'D/A' };

export const FORM_D_TYPES: ReadonlySet<string> = new Set(['D', 'D/A']);

/** EDGAR's latest filings of form type D (and D/A), newest first, as Atom: one page from `start`. */
export function currentFormDFeedUrl(start: number): string {
  return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=D&company=&dateb=&owner=include&start=${start}&count=${CURRENT_FEED_PAGE_SIZE}&output=atom`;
}

/** A filing's Form D document: under the filer's CIK (no leading zeros) and the accession without dashes. */
export function primaryDocUrl(cik: string, accession: string): string {
  return `${filingFolderUrl(cik, accession)}/primary_doc.xml`;
}

const formD = (filing: EdgarListedFiling): ListedFiling => ({
  accession: filing.accession,
  cik: filing.cik,
  form: filing.form as ListedFiling['form'],
  companyName: filing.companyName,
  filedOn: filing.filedOn,
});

/** The current-filings feed's D and D/A filings (src/sources/kit/edgar/filings.ts reads the feed). */
export function parseCurrentFeed(text: string): { entries: ListedFiling[]; listed: number } | { problem: string } {
  const feed = parseEdgarFeed(text, FORM_D_TYPES);
  return 'problem' in feed ? feed : { entries: feed.entries.map(formD), listed: feed.listed };
}

/** A daily form index's D and D/A filings. */
export function parseDailyFormIndex(text: string): { filings: ListedFiling[] } | { problem: string } {
  const index = parseEdgarDailyIndex(text, FORM_D_TYPES);
  return 'problem' in index ? index : { filings: index.filings.map(formD) };
}
