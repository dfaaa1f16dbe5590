import { child, listAt, readXml, textAt } from './xml';

/** One Form D filing listed by EDGAR (the current-filings feed or a daily index). */
export interface ListedFiling {
  /** `0001234567-24-000123`. */
  accession: string;
  /** The filer's CIK, ten digits. */
  cik: string;
  form: 'D' | 'D/A';
  companyName: string;
  /** The filing date `YYYY-MM-DD` (EDGAR's, Eastern time). */
  filedOn: string;
}

export const FORM_D_TYPES: ReadonlySet<string> = new Set(['D', 'D/A']);
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

/** Filings an EDGAR page gives per request (`count`, at most 100). */
export const CURRENT_FEED_PAGE_SIZE = 100;

/** EDGAR's latest filings of form type D (and D/A), newest first, as Atom: one page from `start`. */
export function currentFormDFeedUrl(start: number): string {
  return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=D&company=&dateb=&owner=include&start=${start}&count=${CURRENT_FEED_PAGE_SIZE}&output=atom`;
}

/** EDGAR's daily index by form type of one day (published after the day's dissemination ends). */
export function dailyFormIndexUrl(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return `https://www.sec.gov/Archives/edgar/daily-index/${year}/QTR${Math.ceil(month / 3)}/form.${day.replace(/-/g, '')}.idx`;
}

/** A filing's Form D document: under the filer's CIK (no leading zeros) and the accession without dashes. */
export function primaryDocUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/primary_doc.xml`;
}

/**
 * The current-filings Atom feed: each `entry` has a title `D - <Company> (<CIK>) (Filer)`, a
 * link to the filing index under `/Archives/edgar/data/<cik>/`, an id
 * `urn:tag:sec.gov,2008:accession-number=<accession>`, a summary `Filed: <YYYY-MM-DD> AccNo: ...`
 * and the form type as a category `term`. `type=D` also lists forms that only start with D
 * (DEF 14A, ...): those are left out. A filing of several issuers is listed once per issuer.
 */
export function parseCurrentFeed(text: string): { entries: ListedFiling[]; listed: number } | { problem: string } {
  const xml = readXml(text);
  if ('problem' in xml) return xml;
  if (!xml.root.feed || typeof xml.root.feed !== 'object') return { problem: 'not an Atom feed: no feed element' };
  const entries = listAt(xml.root, 'feed', 'entry');
  const filings: ListedFiling[] = [];
  for (const entry of entries) {
    const id = textAt(entry, 'id') ?? '';
    const accession = /accession-number=(\d{10}-\d{2}-\d{6})/.exec(id)?.[1];
    const title = textAt(entry, 'title') ?? '';
    const titled = /^(\S+)\s+-\s+(.*?)\s+\((\d{1,10})\)\s*(\([^)]*\))?$/.exec(title);
    const term = child(entry, 'category')?.['@term'] ?? titled?.[1];
    if (!accession || !titled || typeof term !== 'string' || !FORM_D_TYPES.has(term)) continue;
    const summary = textAt(entry, 'summary') ?? '';
    const filedOn =
      /Filed:\s*(?:<\/b>)?\s*(\d{4}-\d{2}-\d{2})/.exec(summary)?.[1] ?? textAt(entry, 'updated')?.slice(0, 10);
    if (!filedOn || !/^\d{4}-\d{2}-\d{2}$/.test(filedOn)) continue;
    filings.push({
      accession,
      cik: titled[3]!.padStart(10, '0'),
      form: term as ListedFiling['form'],
      companyName: titled[2]!,
      filedOn,
    });
  }
  return { entries: filings, listed: entries.length };
}

/**
 * A daily `form.<YYYYMMDD>.idx`: a few header lines, a row of dashes, then one fixed-width row
 * per filing: Form Type, Company Name, CIK, Date Filed (`YYYYMMDD`), File Name
 * (`edgar/data/<cik>/<accession>.txt`). Columns are read from the right, where they never hold
 * spaces; the form type is the text before the first run of two spaces. Only D and D/A are kept.
 */
export function parseDailyFormIndex(text: string): { filings: ListedFiling[] } | { problem: string } {
  const lines = text.split(/\r?\n/);
  const rule = lines.findIndex((line) => /^-{20,}\s*$/.test(line));
  if (rule < 0) return { problem: 'not an EDGAR form index: no row of dashes under the column names' };
  const filings: ListedFiling[] = [];
  for (const line of lines.slice(rule + 1)) {
    const row = /^(\S(?:.*?\S)?)\s{2,}(\S.*?)\s+(\d{1,10})\s+(\d{8})\s+(edgar\/data\/\d+\/(\S+?)\.txt)\s*$/.exec(line);
    if (!row || !FORM_D_TYPES.has(row[1]!) || !ACCESSION.test(row[6]!)) continue;
    const day = row[4]!;
    filings.push({
      accession: row[6]!,
      cik: row[3]!.padStart(10, '0'),
      form: row[1] as ListedFiling['form'],
      companyName: row[2]!,
      filedOn: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`,
    });
  }
  return { filings };
}
