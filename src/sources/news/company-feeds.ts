import type { DataSource } from 'typeorm';
import { notFound, validationError } from '../../errors';
import { execute, firstRow, rows } from '../../db/sql';

/** A company keeps this many feeds: a blog and a newsroom, seldom more; the first ones found stay. */
export const MAX_FEEDS_PER_COMPANY = 5;
const MAX_URL_LENGTH = 2000;
/** WordPress and its kin link a feed of comments beside the posts' one: not news. */
const COMMENTS_FEED = /\/comments\/feed\/?$|\/comments\/(?:rss|atom)(?:\.xml)?$/i;

export interface CompanyFeed {
  url: string;
  lastError: string | null;
}

/**
 * Each company's own RSS or Atom feeds (table `company_feeds`), which the news source reads.
 * They come from the company-profiles source (the feeds a homepage links) or an operator.
 */
export class CompanyFeeds {
  constructor(private readonly db: DataSource) {}

  /**
   * Feeds found for a stored company (the company-profiles source, from the feeds a homepage
   * links): added to the known ones, which change nothing; what is not an http(s) URL and a
   * site's comments feed are left out, and so is everything beyond {@link MAX_FEEDS_PER_COMPANY}.
   * Answers the company's feeds now.
   */
  async remember(companyId: string, urls: readonly string[]): Promise<string[]> {
    const company = await firstRow<{ id: string }>(this.db, `SELECT id FROM companies WHERE id = $1`, [companyId]);
    if (!company) throw notFound('Company');
    const usable = urls.filter((url) => feedUrlProblem(url) === null).map((url) => new URL(url.trim()).toString());
    const known = await this.urlsOf(companyId);
    const fresh = [...new Set(usable)].filter(
      (url) => !known.includes(url) && !COMMENTS_FEED.test(new URL(url).pathname),
    );
    const room = Math.max(0, MAX_FEEDS_PER_COMPANY - known.length);
    if (fresh.length && room) {
      await execute(
        this.db,
        `INSERT INTO company_feeds (company_id, url) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [companyId, fresh.slice(0, room)],
      );
    }
    return this.urlsOf(companyId);
  }

  /** The operator's feeds: each URL must be an http(s) URL (a 422 naming the ones that are not, nothing added). */
  async add(companyId: string, urls: readonly string[]): Promise<string[]> {
    const problems = urls.flatMap((url, i) => {
      const problem = feedUrlProblem(url);
      return problem ? [{ field: `urls[${i}]`, message: problem }] : [];
    });
    if (problems.length) throw validationError(problems);
    return this.remember(companyId, urls);
  }

  async list(companyId: string): Promise<CompanyFeed[]> {
    const found = await rows<{ url: string; last_error: string | null }>(
      this.db,
      `SELECT url, last_error FROM company_feeds WHERE company_id = $1 ORDER BY added_at, url`,
      [companyId],
    );
    return found.map((row) => ({ url: row.url, lastError: row.last_error }));
  }

  /** A feed read (error null) or failed (its problem), as of now. */
  async recordRead(companyId: string, url: string, error: string | null): Promise<void> {
    await execute(
      this.db,
      `UPDATE company_feeds SET last_synced_at = now(), last_error = $3 WHERE company_id = $1 AND url = $2`,
      [companyId, url, error],
    );
  }

  private async urlsOf(companyId: string): Promise<string[]> {
    return (await this.list(companyId)).map((feed) => feed.url);
  }
}

function feedUrlProblem(url: string): string | null {
  if (typeof url !== 'string' || url.trim().length === 0) return 'must be a feed URL';
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
    if (parsed.username || parsed.password) return 'must not carry credentials';
    return null;
  } catch {
    return 'must be an absolute http(s) URL';
  }
}
