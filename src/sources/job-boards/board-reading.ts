import type { JobBoardPlatform, JobPosting } from './platforms';
import type { DocumentThreads } from '../kit/document-threads';
import type { PoliteFetch, Validators } from '../kit/polite-fetch';

/** Pages read of one board per poll at most: a board longer than this is the board's error. */
const MAX_PAGES = 50;

/** A board read whole: every page's postings, or why it could not be. */
export type BoardRead =
  | { status: 'read'; postings: JobPosting[]; pages: number; validators: Validators }
  | { status: 'not-modified' }
  | { status: 'failed'; error: string };

/** How a board's documents are read through the polite fetcher: its pages, and its postings' own documents. */
export class BoardReading {
  constructor(
    private readonly fetcher: PoliteFetch,
    private readonly documents: DocumentThreads,
  ) {}

  /** Every page of the board, followed from the first; a page that fails fails the board. */
  async whole(platform: JobBoardPlatform, token: string): Promise<BoardRead> {
    const postings = new Map<string, JobPosting>();
    let url: string | undefined = platform.boardUrl(token);
    let validators: Validators = { etag: null, lastModified: null };
    let pages = 0;
    while (url) {
      if (pages === MAX_PAGES) return { status: 'failed', error: `more than ${MAX_PAGES} pages` };
      const answer = await this.fetcher.get(url, accepted(platform));
      if (answer.status === 'not-modified') {
        if (pages === 0) return { status: 'not-modified' };
        return { status: 'failed', error: `page ${pages + 1} answered 304 to an unconditional request` };
      }
      if (answer.status === 'failed') return { status: 'failed', error: answer.error };
      const page = await this.documents.read('board', platform.ats, token, answer.body);
      if ('problem' in page) return { status: 'failed', error: page.problem };
      // A posting that moved between two pages while they were read counts once.
      for (const posting of page.postings) if (!postings.has(posting.jobId)) postings.set(posting.jobId, posting);
      if (pages === 0) validators = answer.validators;
      pages++;
      url = page.next && page.next !== url ? page.next : undefined;
    }
    return { status: 'read', postings: [...postings.values()], pages, validators };
  }

  /** New postings completed from their own documents; one that cannot be read waits for the next poll. */
  async completed(
    platform: JobBoardPlatform,
    token: string,
    postings: JobPosting[],
  ): Promise<{ postings: JobPosting[]; failed: string[]; error: string | null }> {
    const detail = platform.detail!;
    const done: JobPosting[] = [];
    const failed: string[] = [];
    let error: string | null = null;
    for (const posting of postings) {
      const answer = await this.fetcher.get(detail.url(token, posting), accepted(platform));
      const read =
        answer.status === 'ok'
          ? await this.documents.read('boardPosting', platform.ats, posting, answer.body)
          : { problem: answer.status === 'failed' ? answer.error : 'answered 304 to an unconditional request' };
      if ('problem' in read) {
        failed.push(posting.jobId);
        error ??= `posting ${posting.jobId}: ${read.problem}`;
      } else done.push(read);
    }
    return { postings: done, failed, error };
  }
}

/** What the platform's documents are, as an Accept header. */
function accepted(platform: JobBoardPlatform): string {
  return platform.format === 'xml' ? 'application/xml, text/xml' : 'application/json';
}
