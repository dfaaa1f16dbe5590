import { registrableDomain } from '../../catalogue/identifiers';
import type { SitePage } from '../kit/site-page';
import type { DocumentThreads } from '../kit/document-threads';
import type { PoliteFetch, Validators } from '../kit/polite-fetch';
import type { SiteRobots } from '../kit/site-robots';

const MAX_REDIRECTS = 5;
const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
/** No site on the bare name (no address, nothing listening, a certificate for `www.` only): it may live on `www.`. */
const UNREACHABLE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|EHOSTUNREACH|altnames/;

export type PageRead =
  /** `url` is where the page was read after redirects; remember `validators` once its facts are stored. */
  | { status: 'read'; url: string; page: SitePage; validators: Validators }
  /** A 304: the facts stored for the requested URL still hold. */
  | { status: 'unchanged'; url: string }
  /** `unreachable`: no address answered (try `www.`); `disallowed`: robots.txt closes the page to us. */
  | { status: 'problem'; problem: string; kind: 'unreachable' | 'disallowed' | 'failed' };

/**
 * Reads one page of a company's own site through the polite fetcher: robots.txt asked first
 * for every URL, redirects followed within the company's site only (a parked domain that
 * sends elsewhere is not the company), conditional when the page's facts are stored.
 */
export class SiteReader {
  constructor(
    private readonly fetcher: PoliteFetch,
    private readonly robots: SiteRobots,
    private readonly documents: DocumentThreads,
  ) {}

  /** `domain` is the company's registrable domain; `known` says the facts of `url` are stored (a 304 is then enough). */
  async read(url: string, domain: string, known: boolean): Promise<PageRead> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (registrableDomain(new URL(current).hostname) !== domain) {
        return { status: 'problem', problem: `${url} leads to another site (${current}): not read`, kind: 'failed' };
      }
      const robots = await this.robots.check(current);
      if (!robots.allowed) return { status: 'problem', problem: robots.reason, kind: robotsKind(robots.unreadable) };
      const answer = await this.fetcher.get(current, ACCEPT_HTML);
      if (answer.status === 'not-modified') {
        if (known) return { status: 'unchanged', url: current };
        await this.fetcher.forget(current);
        continue;
      }
      if (answer.status === 'ok') {
        const page = await this.documents.read('sitePage', answer.body, current);
        if ('problem' in page) return { status: 'problem', problem: `${current}: ${page.problem}`, kind: 'failed' };
        return { status: 'read', url: current, page, validators: answer.validators };
      }
      if (answer.location) {
        current = new URL(answer.location, current).toString();
        continue;
      }
      const why = answer.statusCode !== null ? `answered ${answer.statusCode}` : answer.error;
      return { status: 'problem', problem: `${current} ${why}`, kind: failureKind(answer) };
    }
    return { status: 'problem', problem: `${url} redirects more than ${MAX_REDIRECTS} times`, kind: 'failed' };
  }
}

function failureKind(fetch: { error: string; statusCode: number | null }): 'unreachable' | 'failed' {
  return fetch.statusCode === null && UNREACHABLE.test(fetch.error) ? 'unreachable' : 'failed';
}

/** A robots.txt that disallows is the site's word (next week); one that could not be read is a failure (tomorrow). */
function robotsKind(unreadable: { error: string; statusCode: number | null } | undefined) {
  return unreadable ? failureKind(unreadable) : 'disallowed';
}
