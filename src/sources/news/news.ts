import type { DataSource } from 'typeorm';
import type { EventRecordInput } from '../../providers/data/records';
import { GDELT_WINDOW_DAYS, gdeltSearchUrl } from './gdelt';
import type { ArticlePage } from './article-page';
import type { DocumentThreads } from '../kit/document-threads';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { CompanyFeeds } from './company-feeds';
import type { IntentSource } from '../kit/intent-source';
import type { PoliteFetch } from '../kit/polite-fetch';
import { classifyNews } from './news-kinds';
import { readDeal, type DealReading } from './deal-roles';
import { articleUrlKey, namesCompany, newsEventId } from './news-mentions';
import { coreNameOf } from '../../catalogue/identifiers';
import { watchedCompanyIds } from '../../signal-types/watched-companies';
import { execute, firstRow, rows } from '../../db/sql';

/** Companies listed per page of a run. */
const COMPANIES_PER_PAGE = 25;
/** A company's first GDELT search reaches back this far; later ones start where the last ended. */
export const FIRST_SEARCH_DAYS = 7;
/** Articles GDELT lists per search, newest first. */
export const GDELT_RECORDS = 50;
/** Older articles are not news any more (and past GDELT's window): ignored, not fetched. */
export const MAX_ARTICLE_AGE_DAYS = GDELT_WINDOW_DAYS;
/**
 * Articles fetched per company per run, and the time a company may take before the rest wait
 * for the next run: the item's activity has 5 minutes, and every article is one more request.
 */
export const ARTICLES_PER_COMPANY_RUN = 15;
const COMPANY_BUDGET_MS = 150_000;
/** The lead paragraphs the kind rules read after the headline. */
const LEAD_PARAGRAPHS = 2;
const MAX_SUMMARY = 1000;
const MAX_TEXT = 20_000;
const DAY_MS = 86_400_000;
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

/** Whether a site lets us fetch one of its pages: the sites' robots.txt rule (SiteRobots), as company-profiles follows it. */
export interface RobotsRule {
  allows(url: string): Promise<boolean>;
}

type Outcome = 'kept' | 'not_about_company' | 'no_kind' | 'unreachable' | 'disallowed';

interface Candidate {
  url: string;
  urlKey: string;
  title: string;
  summary: string;
  publishedAt: string | null;
}

interface Company {
  id: string;
  name: string;
  domain: string | null;
}

/**
 * The account watchlists that want company news: active, with `company_news` enabled (it is
 * off unless asked), and the stored companies their entries name (by URL, domain or name;
 * a name never names a claimed company, docs/decisions/claims.md), as `watched`; `only` narrows it to one company (a parameter reference such as `$1`).
 */
const newsWatchedCompanies = (only?: string) =>
  `WITH watched AS (${watchedCompanyIds({ wanting: 'company_news', activeOnly: true }, { trustedNamesOnly: true, only })})`;

/**
 * The `news` source (docs/sources/news.md): for each company with feeds or watched for news, the
 * candidate articles of its own feeds and of a GDELT search by its name; each is fetched and
 * kept only when the page names the company and the kind rules (./news-kinds.ts) find a kind.
 * Kept articles become `company_news` events (id per company and article, so an article found
 * twice is one event); the others are dropped and counted. Every article is checked once.
 */
export class News implements IntentSource {
  readonly name = 'news';

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly feeds: CompanyFeeds,
    private readonly robots: RobotsRule,
    private readonly documents: DocumentThreads,
  ) {}

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    const found = await rows<{ id: string }>(
      this.db,
      `${newsWatchedCompanies()}
       SELECT id FROM (SELECT company_id AS id FROM company_feeds UNION SELECT id FROM watched) t
       WHERE id > $1 ORDER BY id LIMIT $2`,
      [after ?? '', COMPANIES_PER_PAGE],
    );
    const items = found.map((row) => row.id);
    return { items, next: items.length < COMPANIES_PER_PAGE ? null : items[items.length - 1]! };
  }

  /** What a run reads, and when that is nothing, why and how to give it something. */
  async detail(): Promise<string | null> {
    const counts = await firstRow<{ feeds: string; watched: string }>(
      this.db,
      `${newsWatchedCompanies()}
       SELECT (SELECT count(DISTINCT company_id) FROM company_feeds) AS feeds, (SELECT count(*) FROM watched) AS watched`,
    );
    const feeds = Number(counts?.feeds ?? 0);
    const watched = Number(counts?.watched ?? 0);
    if (feeds === 0 && watched === 0) {
      return (
        'nothing to read: no company has a feed (POST /admin/v1/companies/{companyId}/feeds, or the company-profiles ' +
        'source finds them on company sites) and no active account watchlist has company_news enabled'
      );
    }
    return `reads ${feeds} compan${feeds === 1 ? 'y' : 'ies'} with feeds and searches ${watched} watched for news`;
  }

  /** One company: its feeds and its search read, the new articles checked, kept ones ingested. */
  async sync(companyId: string): Promise<SourceItemResult> {
    const started = Date.now();
    const company = await firstRow<Company>(this.db, `SELECT id, name, domain FROM companies WHERE id = $1`, [
      companyId,
    ]);
    if (!company) return { records: 0 };
    const problems: string[] = [];
    const candidates = new Map<string, Candidate>();
    // What to record once every candidate is checked: a run cut short reads the same documents again.
    const onceChecked: (() => Promise<void>)[] = [];

    for (const feed of await this.feeds.list(companyId)) {
      const read = await this.readFeed(company, feed.url);
      if ('problem' in read) {
        problems.push(read.problem);
        await this.feeds.recordRead(companyId, feed.url, read.problem);
        continue;
      }
      for (const candidate of read.candidates)
        if (!candidates.has(candidate.urlKey)) candidates.set(candidate.urlKey, candidate);
      onceChecked.push(read.done);
    }
    if (await this.watchedForNews(companyId)) {
      const search = await this.search(company);
      if ('problem' in search) problems.push(search.problem);
      else {
        for (const candidate of search.candidates)
          if (!candidates.has(candidate.urlKey)) candidates.set(candidate.urlKey, candidate);
        onceChecked.push(search.done);
      }
    }

    const pending = await this.unchecked(companyId, [...candidates.values()]);
    let records = 0;
    let dropped = 0;
    let complete = true;
    for (const [i, candidate] of pending.entries()) {
      if (i >= ARTICLES_PER_COMPANY_RUN || Date.now() - started > COMPANY_BUDGET_MS) {
        complete = false;
        break;
      }
      const checked = await this.check(company, candidate);
      if ('problem' in checked) {
        problems.push(checked.problem);
        complete = false;
        continue;
      }
      if (checked.outcome === 'kept') records += checked.accepted;
      else dropped++;
    }
    if (complete) for (const done of onceChecked) await done();
    return problems.length ? { records, dropped, error: problems.join('; ') } : { records, dropped };
  }

  private async readFeed(
    company: Company,
    url: string,
  ): Promise<{ candidates: Candidate[]; done: () => Promise<void> } | { problem: string }> {
    const label = `feed ${url} of company "${company.id}"`;
    const answer = await this.fetcher.get(url, FEED_ACCEPT);
    if (answer.status === 'not-modified')
      return { candidates: [], done: () => this.feeds.recordRead(company.id, url, null) };
    if (answer.status === 'failed') return { problem: `${label}: ${answer.error}` };
    const feed = await this.documents.read('feed', answer.body, url);
    if ('problem' in feed) return { problem: `${label}: ${feed.problem}` };
    return {
      candidates: feed.entries.flatMap((entry) =>
        candidateOf(entry.url, entry.title, entry.summary, entry.publishedAt),
      ),
      done: async () => {
        await this.fetcher.remember(url, answer.validators);
        await this.feeds.recordRead(company.id, url, null);
      },
    };
  }

  /** GDELT's articles naming the company since its last search, one request, paced at GDELT's asked interval. */
  private async search(
    company: Company,
  ): Promise<{ candidates: Candidate[]; done: () => Promise<void> } | { problem: string }> {
    const phrase = coreNameOf(company.name);
    const label = `GDELT search for "${phrase}" (company "${company.id}")`;
    const last = await firstRow<{ searched_until: Date }>(
      this.db,
      `SELECT searched_until FROM news_searches WHERE company_id = $1`,
      [company.id],
    );
    const to = new Date();
    const earliest = to.getTime() - (GDELT_WINDOW_DAYS - 1) * DAY_MS;
    const from = new Date(
      Math.max(earliest, last?.searched_until.getTime() ?? to.getTime() - FIRST_SEARCH_DAYS * DAY_MS),
    );
    const answer = await this.fetcher.get(gdeltSearchUrl(phrase, from, to, GDELT_RECORDS));
    const failed = (problem: string) => this.searchFailed(company.id, `${label}: ${problem}`);
    if (answer.status === 'not-modified') return failed('answered 304 to a request that was not conditional');
    if (answer.status === 'failed') return failed(answer.error);
    const list = await this.documents.read('gdeltArtlist', answer.body);
    if ('problem' in list) return failed(list.problem);
    return {
      candidates: list.articles.flatMap((article) => candidateOf(article.url, article.title, '', article.seenAt)),
      done: () =>
        execute(
          this.db,
          `INSERT INTO news_searches (company_id, searched_until) VALUES ($1, $2)
           ON CONFLICT (company_id) DO UPDATE SET searched_until = $2, last_error = NULL, updated_at = now()`,
          [company.id, to],
        ),
    };
  }

  private async searchFailed(companyId: string, problem: string): Promise<{ problem: string }> {
    await execute(
      this.db,
      `INSERT INTO news_searches (company_id, searched_until, last_error)
       VALUES ($1, now() - make_interval(days => $3::int), $2)
       ON CONFLICT (company_id) DO UPDATE SET last_error = $2, updated_at = now()`,
      [companyId, problem, FIRST_SEARCH_DAYS],
    );
    return { problem };
  }

  /** The candidates not checked before for this company and recent enough to be news, newest first. */
  private async unchecked(companyId: string, candidates: Candidate[]): Promise<Candidate[]> {
    const oldest = Date.now() - MAX_ARTICLE_AGE_DAYS * DAY_MS;
    const recent = candidates.filter((c) => c.publishedAt === null || Date.parse(c.publishedAt) >= oldest);
    if (recent.length === 0) return [];
    const seen = await rows<{ url_key: string }>(
      this.db,
      `SELECT url_key FROM news_articles_seen WHERE company_id = $1 AND url_key = ANY($2::text[])`,
      [companyId, recent.map((c) => c.urlKey)],
    );
    const known = new Set(seen.map((row) => row.url_key));
    const time = (c: Candidate) => (c.publishedAt ? Date.parse(c.publishedAt) : 0);
    return recent.filter((c) => !known.has(c.urlKey)).sort((a, b) => time(b) - time(a));
  }

  /**
   * One article: fetched, checked for the company's name or domain, classified; kept as an
   * event or dropped. The event is ingested before the article is marked checked, so a run
   * killed in between checks it again and the event's id makes the second ingest a no-op.
   */
  private async check(
    company: Company,
    candidate: Candidate,
  ): Promise<{ outcome: Outcome; accepted: number } | { problem: string }> {
    const mark = async (outcome: Outcome, eventId: string | null = null) =>
      execute(
        this.db,
        `INSERT INTO news_articles_seen (company_id, url_key, url, outcome, event_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (company_id, url_key) DO NOTHING`,
        [company.id, candidate.urlKey, candidate.url.slice(0, MAX_TEXT), outcome, eventId],
      );
    if (!(await this.robots.allows(candidate.url))) {
      await mark('disallowed');
      return { outcome: 'disallowed', accepted: 0 };
    }
    const answer = await this.fetcher.get(candidate.url, PAGE_ACCEPT);
    if (answer.status !== 'ok') {
      await mark('unreachable');
      return { outcome: 'unreachable', accepted: 0 };
    }
    const page = await this.documents.read('articlePage', answer.body);
    if ('problem' in page) {
      // Read once like a dead link: the same document would be the same problem at every run.
      await mark('unreachable');
      return { problem: `article ${candidate.url}: ${page.problem}` };
    }
    if (!namesCompany(`${page.title}\n${page.headline}\n${page.text}`, company)) {
      await mark('not_about_company');
      return { outcome: 'not_about_company', accepted: 0 };
    }
    const headline = candidate.title || page.headline || page.title;
    const lead = [candidate.summary || page.description, ...page.paragraphs.slice(0, LEAD_PARAGRAPHS)].join('\n');
    const kind = classifyNews(headline, lead);
    if (!kind) {
      await mark('no_kind');
      return { outcome: 'no_kind', accepted: 0 };
    }
    const event = newsEvent(company.id, candidate, page, headline, kind);
    // A deal article is also the deal itself, for a watchlist's `mergers_acquisitions`.
    const deal = kind.kind === 'mergers_acquisitions' ? [dealEvent(event, readDeal(headline, lead, company.name))] : [];
    const result = await this.ingestion.ingest([event, ...deal]);
    if (result.rejected > 0)
      return { problem: `article ${candidate.url}: ${result.errors[0]?.message ?? 'rejected by the ingestion rules'}` };
    await mark('kept', event.id);
    return { outcome: 'kept', accepted: result.accepted };
  }

  private async watchedForNews(companyId: string): Promise<boolean> {
    const row = await firstRow<{ watched: boolean }>(
      this.db,
      `${newsWatchedCompanies('$1')} SELECT EXISTS (SELECT 1 FROM watched) AS watched`,
      [companyId],
    );
    return row?.watched === true;
  }
}

function candidateOf(url: string, title: string, summary: string, publishedAt: string | null): Candidate[] {
  try {
    return [{ url, urlKey: articleUrlKey(url), title, summary, publishedAt }];
  } catch {
    return [];
  }
}

function newsEvent(
  companyId: string,
  candidate: Candidate,
  page: ArticlePage,
  headline: string,
  kind: NonNullable<ReturnType<typeof classifyNews>>,
): EventRecordInput & { id: string } {
  const occurredAt = candidate.publishedAt ?? page.publishedAt ?? new Date().toISOString();
  const summary = candidate.summary || page.description || page.paragraphs.slice(0, LEAD_PARAGRAPHS).join(' ');
  const data: Record<string, string> = {
    news_event_type: kind.kind,
    news_event_label: kind.label,
    news_event_date: occurredAt.slice(0, 10),
    news_headline: headline.slice(0, MAX_TEXT),
    news_url: candidate.url.slice(0, MAX_TEXT),
    news_title: (page.title || headline).slice(0, MAX_TEXT),
    news_summary: clip(summary, MAX_SUMMARY),
  };
  if (kind.kind === 'event_participation') {
    data.news_event_name = kind.eventName;
    data.news_event_location = kind.eventLocation;
  }
  return {
    kind: 'event',
    id: newsEventId(companyId, candidate.urlKey),
    type: 'company_news',
    occurredAt,
    companyId,
    data,
  };
}

/**
 * The `mergers_acquisitions` event of a deal article: its own id beside the news event's, the
 * deal's type and the company's role (docs/sources/news.md, "Deals"), the article's date and words.
 */
function dealEvent(news: EventRecordInput & { id: string }, deal: DealReading): EventRecordInput {
  const data = news.data as Record<string, string>;
  return {
    kind: 'event',
    id: `${news.id}:deal`,
    type: 'mergers_acquisitions',
    occurredAt: news.occurredAt,
    companyId: news.companyId,
    data: {
      deal_type: deal.dealType,
      watchlist_role: deal.role,
      announcement_date: data.news_event_date!,
      news_headline: data.news_headline!,
      news_url: data.news_url!,
      news_title: data.news_title!,
      news_summary: data.news_summary!,
    },
  };
}

/** At most `max` characters, cut at a word with an ellipsis. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}
