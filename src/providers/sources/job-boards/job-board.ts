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
}

/** What a board answers: its open postings, or why its document cannot be read. */
export type BoardDocument = { postings: JobPosting[] } | { problem: string };

/** One applicant-tracking system's public board API: more ATSs are one file each. */
export interface JobBoardPlatform {
  /** Stored with the board: `greenhouse`, `lever`, `ashby`. */
  ats: string;
  /** The platform's name, as `job_offer_source` shows it. */
  name: string;
  /** The board's public URL on the platform's real host (SOURCES_HOST_MAP may send it elsewhere). */
  boardUrl(token: string): string;
  parse(document: unknown): BoardDocument;
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
