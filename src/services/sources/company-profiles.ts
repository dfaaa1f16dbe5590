import type { DataSource } from 'typeorm';
import { JOB_BOARD_PLATFORMS } from '../../providers/sources/job-boards';
import type { CompanyFeeds } from './company-feeds';
import type { CompanyRecordInput } from '../../providers/data/records';
import { DEMO_COMPANY_ID_PREFIX } from '../../providers/data/demo-records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../ingestion/ingestion';
import type { IntentSource } from './intent-source';
import type { JobBoards } from './job-boards';
import type { PoliteFetch, Validators } from './polite-fetch';
import type { SiteReader } from './site-reader';
import { factsOf, profileOf, type PageFacts, type SiteProfile } from './site-profile';
import { execute, firstRow, rows } from '../../db/sql';

/** Companies listed per page of a run. */
const COMPANIES_PER_PAGE = 25;
/** A profiled site (or one robots.txt closes to us) is read again after this many days: the weekly refresh. */
export const PROFILE_REFRESH_DAYS = 7;
/** A site that failed (a 404, a time-out, a page that is not HTML) is tried again after this many days. */
export const PROBLEM_RETRY_DAYS = 1;
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
 * so leads carry them), its RSS/Atom feeds and its job board (registered with the job-boards
 * source when a platform here reads it). A watched domain that no stored company has becomes
 * one (`site:<domain>`), so watching a company is enough to have it profiled.
 */
export class CompanyProfiles implements IntentSource {
  readonly name = 'company-profiles';

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly reader: SiteReader,
    private readonly jobBoards: JobBoards,
    /** Where the feeds a site links go, for the news source to read. */
    private readonly feeds: Pick<CompanyFeeds, 'remember'>,
  ) {}

  /**
   * Companies with a domain whose profile is due, by id (never the demo's made-up ones); a
   * run's first page first adopts new watched domains.
   */
  async items(after: SourceCursor): Promise<SourceItemsPage> {
    if (after === null) await this.adoptWatchedDomains();
    const due = await rows<{ id: string }>(
      this.db,
      `SELECT c.id FROM companies c LEFT JOIN company_sites s ON s.company_id = c.id
       WHERE c.domain IS NOT NULL AND c.id > $1 AND NOT starts_with(c.id, $5)
         AND (s.company_id IS NULL
              OR s.fetched_at <= now() - make_interval(days => CASE s.outcome WHEN 'problem' THEN $2::int ELSE $3::int END))
       ORDER BY c.id LIMIT $4`,
      [after ?? '', PROBLEM_RETRY_DAYS, PROFILE_REFRESH_DAYS, COMPANIES_PER_PAGE, DEMO_COMPANY_ID_PREFIX],
    );
    const items = due.map((row) => row.id);
    return { items, next: items.length < COMPANIES_PER_PAGE ? null : items[items.length - 1]! };
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
    const profile = profileOf(home.facts, careers, (ats) => JOB_BOARD_PLATFORMS.has(ats));
    const changed = await this.recordSiteProfile(company, site ?? null, profile, {
      homeUrl: home.url,
      careersUrl,
      pages,
      problem: careersProblem,
    });
    if (profile.board) await this.jobBoards.linkDiscovered({ companyId, ...profile.board });
    if (profile.feeds.length) await this.feeds.remember(companyId, profile.feeds);
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

  /** Watched domains (watchlists of signals not deleted) that no stored company has enter the store as companies. */
  private async adoptWatchedDomains(): Promise<void> {
    const watched = await rows<{ domain: string; name: string | null }>(
      this.db,
      `SELECT DISTINCT ON (w.domain) w.domain, w.name
       FROM watched_companies w JOIN signals g ON g.id = w.signal_id AND g.deleted_at IS NULL
       WHERE w.kind = 'company' AND w.domain IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.domain = w.domain)
       ORDER BY w.domain, w.added_at LIMIT $1`,
      [ADOPTED_PER_RUN],
    );
    if (watched.length === 0) return;
    await this.ingestion.ingest(
      watched.map((entry): CompanyRecordInput => ({
        kind: 'company',
        id: `site:${entry.domain}`,
        name: entry.name ?? entry.domain,
        domain: entry.domain,
      })),
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
