import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BOARD_JSON_LIMITS, BOARD_XML_LIMITS, readJson, xmlShapeProblem } from '../../kit/document-limits';

/** One open posting of a job board, in the fields a `job_offers` event carries. */
export interface JobPosting {
  /** The platform's own stable id of the posting. */
  jobId: string;
  url: string;
  title: string;
  location: string;
  /** Plain text, never HTML. */
  description: string;
  /** The publication date as the posting states it (a timestamp or a day); empty when it states none. */
  statedDate: string;
  /** The publication day `YYYY-MM-DD`, or empty. */
  publishedDay: string;
  /** The department as the company files the posting on the platform, when the platform says. */
  department?: string;
  /** A pay range the posting states, in words ("EUR 60,000–80,000 a year", job-places.ts). */
  pay?: string;
}

/** One page of a board: its open postings, and the next page's URL when the board goes on. */
export interface BoardPage {
  postings: JobPosting[];
  next?: string;
}

/** What a board answers: a page of postings, or why its document cannot be read. */
export type BoardDocument = BoardPage | { problem: string };

/** One applicant-tracking system's public board API: more ATSs are one file each. */
export interface JobBoardPlatform {
  /** Stored with the board: `greenhouse`, `lever`, `ashby`, `workable`, `smartrecruiters`, `recruitee`, `personio`. */
  ats: string;
  /** The platform's name, as `job_offer_source` shows it. */
  name: string;
  /** The documents' format; JSON unless said. */
  format?: 'json' | 'xml';
  /** The board's (first page's) public URL on the platform's real host (SOURCES_HOST_MAP may send it elsewhere). */
  boardUrl(token: string): string;
  parse(document: unknown, token: string): BoardDocument;
  /**
   * For platforms whose list leaves the description out: one posting's own document, read for
   * new postings only (after the diff), completing what the list gave.
   */
  detail?: {
    url(token: string, posting: JobPosting): string;
    parse(document: unknown, posting: JobPosting): JobPosting | { problem: string };
  };
}

/** `YYYY-MM-DD` of an ISO timestamp or epoch milliseconds, or empty. */
export function dayOf(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** A zod failure in one line: where in the document, and what. */
export function problemOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const first = issues[0];
  if (!first) return 'the document does not have the expected form';
  const where = first.path.map(String).join('.');
  return `the document does not have the expected form: ${where ? `${where}: ` : ''}${first.message}`;
}

// Elements that may occur once or many times are always arrays; values stay text (ids keep their zeros).
const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['position', 'jobDescription', 'office'].includes(name),
});

/** A board's answer as a document of its format, or why it is not one (or is past the board's limits). */
export function documentOf(text: string, format: 'json' | 'xml' = 'json'): { document: unknown } | { problem: string } {
  if (format === 'xml') {
    const tooMuch = xmlShapeProblem(text, BOARD_XML_LIMITS);
    if (tooMuch) return { problem: tooMuch };
    const valid = XMLValidator.validate(text);
    if (valid !== true) return { problem: `not XML: ${valid.err.msg} (line ${valid.err.line})` };
    return { document: xml.parse(text) as unknown };
  }
  const read = readJson(text, BOARD_JSON_LIMITS);
  return 'problem' in read ? read : { document: read.value };
}
