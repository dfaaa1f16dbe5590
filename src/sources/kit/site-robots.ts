import robotsParser from 'robots-parser';
import type { DataSource } from 'typeorm';
import type { PoliteFetch } from './polite-fetch';
import { execute, firstRow } from '../../db/sql';

/** A site's robots.txt is read again after this long (RFC 9309 asks for no more than 24 hours of caching). */
export const ROBOTS_TTL_MS = 24 * 3_600_000;
/** RFC 9309: a crawler reads at least 500 KiB of a robots.txt; the rest is ignored. */
const MAX_ROBOTS_BYTES = 500 * 1024;
const MAX_REDIRECTS = 5;

/** Not allowed: robots.txt disallows the page, or could not be read (`unreadable`, with the fetch's error). */
export type RobotsAnswer =
  { allowed: true } | { allowed: false; reason: string; unreadable?: { error: string; statusCode: number | null } };

/**
 * robots.txt for the company sites a source reads (RFC 9309, parsed by robots-parser), one
 * per origin, kept in `site_robots` for {@link ROBOTS_TTL_MS} and asked again conditionally.
 * No robots.txt (a 4xx) allows everything; one that cannot be read (a 5xx, no answer)
 * disallows everything until it can, as the RFC says.
 */
export class SiteRobots {
  constructor(
    private readonly db: DataSource,
    private readonly fetcher: PoliteFetch,
  ) {}

  async check(pageUrl: string): Promise<RobotsAnswer> {
    const origin = new URL(pageUrl).origin;
    const robotsUrl = `${origin}/robots.txt`;
    const body = await this.bodyOf(origin, robotsUrl);
    if (typeof body !== 'string') return { allowed: false, reason: body.reason, unreadable: body.fetch };
    const robots = robotsParser(robotsUrl, body);
    if (robots.isAllowed(pageUrl, this.fetcher.userAgent) === false) {
      return { allowed: false, reason: `${robotsUrl} disallows ${pageUrl} for our User-Agent: not read` };
    }
    return { allowed: true };
  }

  private async bodyOf(
    origin: string,
    robotsUrl: string,
  ): Promise<string | { reason: string; fetch: { error: string; statusCode: number | null } }> {
    const cached = await firstRow<{ body: string; fresh: boolean }>(
      this.db,
      `SELECT body, fetched_at > now() - make_interval(secs => $2::int / 1000.0) AS fresh FROM site_robots WHERE origin = $1`,
      [origin, ROBOTS_TTL_MS],
    );
    if (cached?.fresh) return cached.body;
    let url = robotsUrl;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const answer = await this.fetcher.get(url, 'text/plain');
      if (answer.status === 'not-modified') {
        if (cached) return this.store(origin, cached.body);
        // Validators without a stored body (the row was removed): ask once more, unconditionally.
        await this.fetcher.forget(url);
        continue;
      }
      if (answer.status === 'ok') {
        const body = await this.store(origin, answer.body.slice(0, MAX_ROBOTS_BYTES));
        await this.fetcher.remember(url, answer.validators);
        return body;
      }
      if (answer.location && hop < MAX_REDIRECTS) {
        url = new URL(answer.location, url).toString();
        continue;
      }
      const code = answer.statusCode;
      // No robots.txt at all: every page may be read.
      if (code !== null && code >= 400 && code < 500) return this.store(origin, '');
      const why = code !== null ? `answered ${code}` : answer.error;
      return {
        reason: `${robotsUrl} could not be read (${why}): the site is not read until it can be`,
        fetch: { error: answer.error, statusCode: code },
      };
    }
    return {
      reason: `${robotsUrl} redirects more than ${MAX_REDIRECTS} times: the site is not read`,
      fetch: { error: 'too many redirects', statusCode: null },
    };
  }

  private async store(origin: string, body: string): Promise<string> {
    await execute(
      this.db,
      `INSERT INTO site_robots (origin, body, fetched_at) VALUES ($1, $2, now())
       ON CONFLICT (origin) DO UPDATE SET body = EXCLUDED.body, fetched_at = now()`,
      [origin, body],
    );
    return body;
  }
}
