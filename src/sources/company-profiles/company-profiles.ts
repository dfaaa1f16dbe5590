import type { DataSource } from 'typeorm';
import { DEMO_COMPANY_ID_PREFIX } from '../../providers/data/demo-records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { CompanyClaims } from './company-claims';
import type { IntentSource } from '../kit/intent-source';
import type { SiteFindings } from '../kit/site-findings';
import type { PoliteFetch, Validators } from '../kit/polite-fetch';
import type { SiteReader } from './site-reader';
import { factsOf, profileOf, type PageFacts, type SiteProfile } from './site-profile';
import { execute, firstRow, rows } from '../../db/sql';

/** Companies listed per page of a run. */
const COMPANIES_PER_PAGE = 25;
/** A profiled site (or one robots.txt closes to us) is read again after this many days: the weekly refresh. */
export const PROFILE_REFRESH_DAYS = 7;
/** A site that failed (a 404, a time-out, a page that is not HTML) is tried again after this many days. */
export const PROBLEM_RETRY_DAYS = 1;
/** Sites read per run for one account's watchlists (and for the companies nobody watches), unless configured. */
export const DEFAULT_SITES_PER_ACCOUNT = 200;
/** Watched domains made stored companies per run, at most. */
const ADOPTED_PER_RUN = 500;

/** What the source knows of a company's site (table `company_sites`), as the operator API shows it. */
export interface CompanySite {
  companyId: string;
  homeUrl: string | null;
  careersUrl: string | null;
  fetchedAt: string;
  outcome: 'profiled' | 'problem' | 'disallowed';
  profiledAt: string | null;
  homepageTitle: string | null;
  metaDescription: string | null;
  description: string | null;
  techStack: string[];
  feedUrls: string[];
  ats: string | null;
  boardToken: string | null;
  lastProblem: string | null;
}

interface SiteRow {
  company_id: string;
  home_url: string | null;
  careers_url: string | null;
  fetched_at: Date;
  outcome: CompanySite['outcome'];
  profiled_at: Date | null;
  homepage_title: string | null;
  meta_description: string | null;
  description: string | null;
  tech_stack: string[];
  feed_urls: string[];
  ats: string | null;
  board_token: string | null;
  pages: Record<string, PageFacts>;
  last_problem: string | null;
}

interface CompanyRow {
  id: string;
  domain: string | null;
  description: string | null;
  tech_stack: string[];
  homepage_title: string | null;
  meta_description: string | null;
}

/**
 * The `company-profiles` source: reads the homepage and careers page of every stored company
 * with a domain when it enters the store and then weekly, and keeps what they say: the
 * company's homepage title, meta description, description and technologies (on `companies`,
 * so leads carry them), its RSS/Atom feeds, its job board (registered with the job-boards
 * source when a platform here reads it) and the Bluesky account its homepage links (for the
 * bluesky source). A watched domain that no stored company has becomes
 * one (`site:<domain>`), so watching a company is enough to have it profiled; such a company is
 * one account's claim, not a fact (./company-claims.ts): what its site gives reaches only its claimants.
 */
export class CompanyProfiles implements IntentSource {
  readonly name = 'company-profiles';

  constructor(
    private readonly db: DataSource,
    /** Watched domains enter the store through it, as claims (docs/decisions/claims.md). */
    private readonly claims: Pick<CompanyClaims, 'adoptWatchedDomains'>,
    private readonly fetcher: PoliteFetch,
    private readonly reader: SiteReader,
    /** Where the board, feeds and Bluesky account a site links go, for the sources that read them (job-boards, news, bluesky). */
    private readonly findings: Pick<SiteFindings, 'readsBoardsOf' | 'board' | 'feeds' | 'blueskyAccount'>,
    /** The per-run budget of each account (COMPANY_PROFILES_PER_ACCOUNT). */
    private readonly sitesPerAccount = DEFAULT_SITES_PER_ACCOUNT,
  ) {}

  /**
   * The run's companies in turns (never the demo's made-up ones): a run's first page adopts new
   * watched domains and deals the turns out; the pages after it follow them.
   */
  async items(after: SourceCursor): Promise<SourceItemsPage> {
    if (after === null) {
      await this.claims.adoptWatchedDomains(ADOPTED_PER_RUN);
      await this.dealTurns();
    }
    const next = await rows<{ company_id: string }>(
      this.db,
      `SELECT company_id FROM company_profile_turns
       WHERE position > coalesce((SELECT position FROM company_profile_turns WHERE company_id = $1), 0)
       ORDER BY position LIMIT $2`,
      [after ?? '', COMPANIES_PER_PAGE],
    );
    const items = next.map((row) => row.company_id);
    return { items, next: items.length < COMPANIES_PER_PAGE ? null : items[items.length - 1]! };
  }

  /**
   * Deals the run's turns (docs/decisions/sources.md, "One account cannot starve another"):
   * the companies with a domain whose profile is due, in rounds across the accounts whose
   * active watchlists name their domain (the companies nobody watches take turns as one more
   * account), each account's never-read companies first, then by id; a company several accounts
   * watch goes at its earliest turn; an account's companies past `sitesPerAccount` wait for the
   * next run. Kept in `company_profile_turns` so a killed run goes on in the same order.
   */
  private async dealTurns(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await execute(tx, `DELETE FROM company_profile_turns`);
      await execute(
        tx,
        `WITH due AS (
           SELECT c.id, c.domain, s.company_id IS NULL AS never_read
           FROM companies c LEFT JOIN company_sites s ON s.company_id = c.id
           WHERE c.domain IS NOT NULL AND NOT starts_with(c.id, $4)
             AND (s.company_id IS NULL
                  OR s.fetched_at <= now() - make_interval(days => CASE s.outcome WHEN 'problem' THEN $1::int ELSE $2::int END))
         ), watchers AS (
           SELECT DISTINCT d.id, g.account_id::text AS account
           FROM due d JOIN watched_companies w ON w.domain = d.domain AND w.kind = 'company'
           JOIN signals g ON g.id = w.signal_id AND g.deleted_at IS NULL
         ), claims AS (
           SELECT id, account FROM watchers
           UNION ALL
           SELECT d.id, NULL FROM due d WHERE NOT EXISTS (SELECT 1 FROM watchers w WHERE w.id = d.id)
         ), turns AS (
           SELECT c.id, row_number() OVER (PARTITION BY c.account ORDER BY d.never_read DESC, c.id) AS turn
           FROM claims c JOIN due d ON d.id = c.id
         ), earliest AS (
           SELECT id, min(turn) AS turn FROM turns GROUP BY id
         )
         INSERT INTO company_profile_turns (position, company_id)
         SELECT row_number() OVER (ORDER BY turn, id), id FROM earliest WHERE turn <= $3`,
        [PROBLEM_RETRY_DAYS, PROFILE_REFRESH_DAYS, this.sitesPerAccount, DEMO_COMPANY_ID_PREFIX],
      );
    });
  }

  /** What a run reads, and when that is nothing, why (the demo's companies are never read) and how to give it something. */
  async detail(): Promise<string | null> {
    const counts = await firstRow<{ readable: string; demo: string }>(
      this.db,
      `SELECT count(*) FILTER (WHERE NOT starts_with(id, $1)) AS readable, count(*) FILTER (WHERE starts_with(id, $1)) AS demo
       FROM companies WHERE domain IS NOT NULL`,
      [DEMO_COMPANY_ID_PREFIX],
    );
    const readable = Number(counts?.readable ?? 0);
    const demo = Number(counts?.demo ?? 0);
    const skipped = demo > 0 ? `; ${demo} demo compan${demo === 1 ? 'y is' : 'ies are'} skipped (made-up domains)` : '';
    if (readable === 0) {
      return (
        `nothing to read: no stored company with a domain outside the demo's${skipped}; ingest companies ` +
        '(POST /admin/v1/ingest) or watch a domain on an active account watchlist'
      );
    }
    return `reads the sites of ${readable} compan${readable === 1 ? 'y' : 'ies'} with a domain${skipped}`;
  }

  /** One company's site read and its profile stored; a site's failure is its answer (the item's error), not a throw. */
  async sync(companyId: string): Promise<SourceItemResult> {
    const company = await firstRow<CompanyRow>(
      this.db,
      `SELECT id, domain, description, tech_stack, homepage_title, meta_description FROM companies WHERE id = $1`,
      [companyId],
    );
    if (!company?.domain) return { records: 0 };
    const domain = company.domain;
    const site = await firstRow<SiteRow>(this.db, `SELECT * FROM company_sites WHERE company_id = $1`, [companyId]);
    const stored = site?.pages ?? {};
    const pages: Record<string, PageFacts> = {};
    const toRemember: { url: string; validators: Validators }[] = [];

    const readFacts = async (url: string) => {
      const read = await this.reader.read(url, domain, url in stored);
      if (read.status === 'problem') return read;
      const facts = read.status === 'read' ? factsOf(read.page, read.url, domain) : stored[url]!;
      if (read.status === 'read') toRemember.push({ url: read.url, validators: read.validators });
      pages[url] = facts;
      return { status: 'facts' as const, url, facts };
    };

    let home = await readFacts(`https://${domain}/`);
    if (home.status === 'problem' && home.kind === 'unreachable') home = await readFacts(`https://www.${domain}/`);
    if (home.status === 'problem') {
      await this.recordProblem(companyId, home.kind === 'disallowed' ? 'disallowed' : 'problem', home.problem);
      return { records: 0, error: `company "${companyId}" (${domain}): ${home.problem}` };
    }
    let careers: PageFacts | null = null;
    let careersProblem: string | null = null;
    const careersUrl = home.facts.careersUrl;
    if (careersUrl) {
      const read = await readFacts(careersUrl);
      if (read.status === 'problem') careersProblem = `careers page: ${read.problem}`;
      else careers = read.facts;
    }
    const profile = profileOf(home.facts, careers, (ats) => this.findings.readsBoardsOf(ats));
    const changed = await this.recordSiteProfile(company, site ?? null, profile, {
      homeUrl: home.url,
      careersUrl,
      pages,
      problem: careersProblem,
    });
    if (profile.board) await this.findings.board({ companyId, ...profile.board });
    if (profile.feeds.length) await this.findings.feeds(companyId, profile.feeds);
    // Every read says it, none included: a link taken off the homepage no longer names the account.
    await this.findings.blueskyAccount(companyId, profile.blueskyAccount);
    // Validators last: a run killed before this point reads the pages again in full.
    for (const { url, validators } of toRemember) await this.fetcher.remember(url, validators);
    return { records: changed ? 1 : 0 };
  }

  /** The RSS/Atom feeds found on a company's site (for the news source). */
  async feedsOf(companyId: string): Promise<string[]> {
    const site = await firstRow<{ feed_urls: string[] }>(
      this.db,
      `SELECT feed_urls FROM company_sites WHERE company_id = $1`,
      [companyId],
    );
    return site?.feed_urls ?? [];
  }

  /** Every company whose site lists feeds, by company id after `after`: the news source's way in. */
  async discoveredFeeds(after = '', limit = 100): Promise<{ companyId: string; feedUrls: string[] }[]> {
    const found = await rows<{ company_id: string; feed_urls: string[] }>(
      this.db,
      `SELECT company_id, feed_urls FROM company_sites
       WHERE company_id > $1 AND cardinality(feed_urls) > 0 ORDER BY company_id LIMIT $2`,
      [after, limit],
    );
    return found.map((row) => ({ companyId: row.company_id, feedUrls: row.feed_urls }));
  }

  async siteOf(companyId: string): Promise<CompanySite | null> {
    const row = await firstRow<SiteRow>(this.db, `SELECT * FROM company_sites WHERE company_id = $1`, [companyId]);
    return row ? siteOfRow(row) : null;
  }

  /**
   * Writes the profile to the company: the homepage title and meta description as the site
   * says them now; the description unless the company has one from elsewhere; the technologies
   * added to the stack it has from elsewhere (those the site showed before and no longer does
   * go). True when anything the company or its site record shows changed.
   */
  private async recordSiteProfile(
    company: CompanyRow,
    site: SiteRow | null,
    profile: SiteProfile,
    read: { homeUrl: string; careersUrl: string | null; pages: Record<string, PageFacts>; problem: string | null },
  ): Promise<boolean> {
    const ours = new Set(site?.tech_stack ?? []);
    const techStack = [...new Set([...company.tech_stack.filter((tech) => !ours.has(tech)), ...profile.technologies])];
    const descriptionIsOurs = !company.description || company.description === site?.description;
    const description = descriptionIsOurs ? profile.description : company.description;
    const changed =
      company.homepage_title !== profile.homepageTitle ||
      company.meta_description !== profile.metaDescription ||
      company.description !== description ||
      !sameList(company.tech_stack, techStack) ||
      !sameList(site?.feed_urls ?? [], profile.feeds) ||
      (site?.ats ?? null) !== (profile.board?.ats ?? null) ||
      (site?.board_token ?? null) !== (profile.board?.token ?? null);
    await this.db.transaction(async (tx) => {
      await execute(
        tx,
        `UPDATE companies SET homepage_title = $2, meta_description = $3, description = $4, tech_stack = $5::text[]
         WHERE id = $1`,
        [company.id, profile.homepageTitle, profile.metaDescription, description, techStack],
      );
      await execute(
        tx,
        `INSERT INTO company_sites AS s (company_id, home_url, careers_url, fetched_at, outcome, profiled_at,
           homepage_title, meta_description, description, tech_stack, feed_urls, ats, board_token, pages, last_problem)
         VALUES ($1, $2, $3, now(), 'profiled', now(), $4, $5, $6, $7::text[], $8::text[], $9, $10, $11::jsonb, $12)
         ON CONFLICT (company_id) DO UPDATE SET home_url = $2, careers_url = $3, fetched_at = now(), outcome = 'profiled',
           profiled_at = now(), homepage_title = $4, meta_description = $5, description = $6, tech_stack = $7::text[],
           feed_urls = $8::text[], ats = $9, board_token = $10, pages = $11::jsonb, last_problem = $12`,
        [
          company.id,
          read.homeUrl,
          read.careersUrl,
          profile.homepageTitle,
          profile.metaDescription,
          profile.description,
          profile.technologies,
          profile.feeds,
          profile.board?.ats ?? null,
          profile.board?.token ?? null,
          JSON.stringify(read.pages),
          read.problem,
        ],
      );
    });
    return changed;
  }

  /** A site not read this time: the profile stays as it was, the problem is the site's status. */
  private async recordProblem(companyId: string, outcome: 'problem' | 'disallowed', problem: string): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO company_sites (company_id, fetched_at, outcome, last_problem) VALUES ($1, now(), $2, $3)
       ON CONFLICT (company_id) DO UPDATE SET fetched_at = now(), outcome = $2, last_problem = $3`,
      [companyId, outcome, problem],
    );
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function siteOfRow(row: SiteRow): CompanySite {
  return {
    companyId: row.company_id,
    homeUrl: row.home_url,
    careersUrl: row.careers_url,
    fetchedAt: row.fetched_at.toISOString(),
    outcome: row.outcome,
    profiledAt: row.profiled_at?.toISOString() ?? null,
    homepageTitle: row.homepage_title,
    metaDescription: row.meta_description,
    description: row.description,
    techStack: row.tech_stack,
    feedUrls: row.feed_urls,
    ats: row.ats,
    boardToken: row.board_token,
    lastProblem: row.last_problem,
  };
}
