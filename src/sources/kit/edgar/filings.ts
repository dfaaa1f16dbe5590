import { SEC_INDEX_LIMITS, sizeProblem } from '../document-limits';
import { child, listAt, readXml, textAt } from './xml';

/** One filing listed by EDGAR (the current-filings feed or a daily index). */
export interface ListedFiling {
  /** `0001234567-24-000123`. */
  accession: string;
  /** The listed party's CIK, ten digits. */
  cik: string;
  /** The form type as EDGAR writes it (`D`, `3`, `8-K`, `SC TO-T`...). */
  form: string;
  companyName: string;
  /** The filing date `YYYY-MM-DD` (EDGAR's, Eastern time). */
  filedOn: string;
  /** The party's role on the feed's title (`Filer`, `Reporting`, `Issuer`, `Subject`, `Filed by`); null on an index. */
  role: string | null;
}

const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

/** Filings an EDGAR page gives per request (`count`, at most 100). */
export const CURRENT_FEED_PAGE_SIZE = 100;

/** EDGAR's daily index by form type of one day (published after the day's dissemination ends). */
export function dailyFormIndexUrl(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return `https://www.sec.gov/Archives/edgar/daily-index/${year}/QTR${Math.ceil(month / 3)}/form.${day.replace(/-/g, '')}.idx`;
}

/** A filing's folder: under a party's CIK (no leading zeros) and the accession without dashes. */
export function filingFolderUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}`;
}

/**
 * The current-filings Atom feed: each `entry` has a title `<form> - <Company> (<CIK>) (<role>)`, a
 * link to the filing index under `/Archives/edgar/data/<cik>/`, an id
 * `urn:tag:sec.gov,2008:accession-number=<accession>`, a summary `Filed: <YYYY-MM-DD> AccNo: ...`
 * and the form type as a category `term`. The feed's `type` is a prefix (`type=D` also lists
 * DEF 14A): only the `forms` asked for are kept. A filing of several parties is listed once per party.
 */
export function parseEdgarFeed(
  text: string,
  forms: ReadonlySet<string>,
): { entries: ListedFiling[]; listed: number } | { problem: string } {
  const xml = readXml(text);
  if ('problem' in xml) return xml;
  if (!xml.root.feed || typeof xml.root.feed !== 'object') return { problem: 'not an Atom feed: no feed element' };
  const entries = listAt(xml.root, 'feed', 'entry');
  const filings: ListedFiling[] = [];
  for (const entry of entries) {
    const id = textAt(entry, 'id') ?? '';
    const accession = /accession-number=(\d{10}-\d{2}-\d{6})/.exec(id)?.[1];
    const title = textAt(entry, 'title') ?? '';
    const titled = /^(\S+(?: \S+)*?)\s+-\s+(.*?)\s+\((\d{1,10})\)\s*(?:\(([^)]*)\))?$/.exec(title);
    const term = child(entry, 'category')?.['@term'] ?? titled?.[1];
    if (!accession || !titled || typeof term !== 'string' || !forms.has(term)) continue;
    const summary = textAt(entry, 'summary') ?? '';
    const filedOn =
      /Filed:\s*(?:<\/b>)?\s*(\d{4}-\d{2}-\d{2})/.exec(summary)?.[1] ?? textAt(entry, 'updated')?.slice(0, 10);
    if (!filedOn || !/^\d{4}-\d{2}-\d{2}$/.test(filedOn)) continue;
    filings.push({
      accession,
      cik: titled[3]!.padStart(10, '0'),
      form: term,
      companyName: titled[2]!,
      filedOn,
      role: titled[4] ?? null,
    });
  }
  return { entries: filings, listed: entries.length };
}

/**
 * A daily `form.<YYYYMMDD>.idx`: a few header lines, a row of dashes, then one fixed-width row
 * per filing: Form Type, Company Name, CIK, Date Filed (`YYYYMMDD`), File Name
 * (`edgar/data/<cik>/<accession>.txt`). Columns are read from the right, where they never hold
 * spaces; the form type is the text before the first run of two spaces. Only the `forms` asked
 * for are kept; an index past {@link SEC_INDEX_LIMITS} is a problem.
 */
export function parseEdgarDailyIndex(
  text: string,
  forms: ReadonlySet<string>,
): { filings: ListedFiling[] } | { problem: string } {
  const tooLarge = sizeProblem(text, SEC_INDEX_LIMITS.maxChars);
  if (tooLarge) return { problem: tooLarge };
  // A row is about 150 characters; the row pattern backtracks, so a line far longer is no row.
  const lines = text.split(/\r?\n/).filter((line) => line.length <= SEC_INDEX_LIMITS.maxLineChars);
  const rule = lines.findIndex((line) => /^-{20,}\s*$/.test(line));
  if (rule < 0) return { problem: 'not an EDGAR form index: no row of dashes under the column names' };
  const filings: ListedFiling[] = [];
  for (const line of lines.slice(rule + 1)) {
    const row = /^(\S(?:.*?\S)?)\s{2,}(\S.*?)\s+(\d{1,10})\s+(\d{8})\s+(edgar\/data\/\d+\/(\S+?)\.txt)\s*$/.exec(line);
    if (!row || !forms.has(row[1]!) || !ACCESSION.test(row[6]!)) continue;
    const day = row[4]!;
    filings.push({
      accession: row[6]!,
      cik: row[3]!.padStart(10, '0'),
      form: row[1]!,
      companyName: row[2]!,
      filedOn: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`,
      role: null,
    });
  }
  return { filings };
}
