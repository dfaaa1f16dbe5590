import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { EventRecordInput, IngestRecordInput, PersonRecordInput } from '../../providers/data/records';
import type { WatchlistEventKey } from '../../catalogue/watchlist-events';
import { nameKeyOf, registrableDomain } from '../../catalogue/identifiers';
import type { Ingestion } from '../../services/ingestion/ingestion';
import { watchedCompanyIds, watchedCompetitors } from '../../signal-types/watched-companies';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import { changed, execute, firstRow, rows } from '../../db/sql';
import { notFound } from '../../errors';
import type { IntentSource } from '../kit/intent-source';
import type { PoliteFetch } from '../kit/polite-fetch';
import type { BlueskyConfig } from './settings';
import {
  APPVIEW_HOST,
  BlueskyAppView,
  INVALID_HANDLE,
  NO_UNAUTHENTICATED,
  type FeedPost,
  type ListPage,
  type ProfileView,
  type XrpcAnswer,
} from './xrpc';

const DAY_MS = 86_400_000;
const COMPANY_ITEM = 'company:';
const COMPETITOR_ITEM = 'competitor:';
/** How long a watched company's handle (or that it has none) is trusted before it is looked for again. */
const HANDLE_RECHECK_MS = 7 * DAY_MS;
/** The company of reactors matched to none: the person row needs one, the lead never shows it (docs/sources/bluesky.md). */
export const NO_KNOWN_COMPANY_ID = 'bluesky-company:none';

type Engagement = 'like' | 'repost' | 'follow';

/** Whose account is read: a watched company's (reactions to its posts) or a competitor's (reactions and followers). */
interface Subject {
  role: 'company' | 'competitor';
  companyId: string;
  domain: string | null;
  handle: string;
}

interface StoredReaction {
  subject: string;
  kind: Engagement;
  reactor_did: string;
  event_id: string | null;
  person_id: string | null;
}

/** What a run does with a reactor: a new event, nothing (seen before, or left out), or the list is incomplete. */
interface ListRead<T> {
  items: T[];
  /** Every page was read: what is not listed is gone. */
  complete: boolean;
}

/**
 * Social reactions from Bluesky's public AppView (docs/sources/bluesky.md). Each item is a
 * watched company's account (set by the operator, linked from its homepage, or its domain) or a competitor's
 * (the account's competitors' handles, else the domain handle Bluesky verifies). A run reads the
 * account's new posts, the likes and reposts of each post within the reaction window, and a
 * competitor's followers; each new like, repost or follow is a person-level event. What is no
 * longer listed (deleted, or the reactor's account gone or hidden from logged-out viewers)
 * removes its event and the person when nothing else names them. Nothing is written to Bluesky.
 */
export class Bluesky implements IntentSource {
  readonly name = 'bluesky';
  private readonly appView: BlueskyAppView;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly settings: BlueskyConfig,
  ) {
    this.appView = new BlueskyAppView(
      (url) => fetcher.send({ method: 'GET', url, headers: { accept: 'application/json' } }),
      settings.BLUESKY_PAGE_SIZE,
    );
  }

  /** The operator sets a watched company's handle (or clears it: null looks for it again on the next run). */
  async setCompanyHandle(companyId: string, handle: string | null): Promise<void> {
    const company = await firstRow<{ id: string }>(this.db, `SELECT id FROM companies WHERE id = $1`, [companyId]);
    if (!company) throw notFound('Company');
    await execute(
      this.db,
      `INSERT INTO bluesky_company_handles (company_id, handle, found_by, checked_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (company_id) DO UPDATE SET handle = $2, found_by = $3, checked_at = now()`,
      [companyId, handle, handle ? 'operator' : null],
    );
    if (!handle) await execute(this.db, `DELETE FROM bluesky_company_handles WHERE company_id = $1`, [companyId]);
  }

  async detail(): Promise<string | null> {
    const [counts] = await rows<{ accounts: number; posts: number; reactions: number }>(
      this.db,
      `SELECT (SELECT count(*)::int FROM bluesky_accounts WHERE gone_at IS NULL) AS accounts,
              (SELECT count(*)::int FROM bluesky_posts) AS posts,
              (SELECT count(*)::int FROM bluesky_reactions WHERE event_id IS NOT NULL) AS reactions`,
    );
    return `${counts!.accounts} accounts, ${counts!.posts} posts, ${counts!.reactions} reactions kept`;
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    if (after !== null) return { items: [], next: null };
    const companies = await rows<{ id: string }>(
      this.db,
      `SELECT c.id FROM companies c WHERE c.id IN (${watchedCompanyIds(
        { wanting: 'company_post_reactions', activeOnly: true },
        { trustedNamesOnly: true },
      )}) AND (c.domain IS NOT NULL OR EXISTS (SELECT 1 FROM bluesky_company_handles h WHERE h.company_id = c.id AND h.handle IS NOT NULL))
       ORDER BY c.id`,
    );
    const competitors = await rows<{ domain: string }>(
      this.db,
      `SELECT domain FROM (${watchedCompetitors()}) k ORDER BY domain`,
    );
    return {
      items: [
        ...companies.map((row) => `${COMPANY_ITEM}${row.id}`),
        ...competitors.map((row) => `${COMPETITOR_ITEM}${row.domain}`),
      ],
      next: null,
    };
  }

  async sync(item: string): Promise<SourceItemResult> {
    if (item.startsWith(COMPANY_ITEM)) return this.syncCompany(item.slice(COMPANY_ITEM.length));
    if (item.startsWith(COMPETITOR_ITEM)) return this.syncCompetitor(item.slice(COMPETITOR_ITEM.length));
    return { records: 0 };
  }

  private async syncCompany(companyId: string): Promise<SourceItemResult> {
    const company = await firstRow<{ id: string; domain: string | null }>(
      this.db,
      `SELECT id, domain FROM companies WHERE id = $1`,
      [companyId],
    );
    if (!company) return { records: 0 };
    const handle = await this.companyHandle(company);
    if (!handle) return { records: 0 };
    return this.readAccount({ role: 'company', companyId, domain: company.domain, handle });
  }

  /**
   * The company's account, by precedence (docs/sources/bluesky.md): the operator's, else the one
   * its homepage links (kept as the weekly site read finds it), else its domain when Bluesky
   * verifies it as a handle (looked for again weekly).
   */
  private async companyHandle(company: { id: string; domain: string | null }): Promise<string | null> {
    const known = await firstRow<{ handle: string | null; found_by: string | null; checked_at: Date }>(
      this.db,
      `SELECT handle, found_by, checked_at FROM bluesky_company_handles WHERE company_id = $1`,
      [company.id],
    );
    if (known && (known.found_by === 'operator' || known.found_by === 'homepage')) return known.handle;
    if (known && Date.now() - known.checked_at.getTime() < HANDLE_RECHECK_MS) return known.handle;
    if (!company.domain) return known?.handle ?? null;
    const resolved = await this.settle(await this.appView.resolveHandle(company.domain));
    const handle = 'ok' in resolved ? company.domain : null;
    if ('problem' in resolved) return known?.handle ?? null;
    // A handle set or linked meanwhile outranks the domain's.
    await execute(
      this.db,
      `INSERT INTO bluesky_company_handles AS h (company_id, handle, found_by, checked_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (company_id) DO UPDATE SET handle = $2, found_by = $3, checked_at = now()
       WHERE h.found_by IS NULL OR h.found_by = 'domain'`,
      [company.id, handle, handle ? 'domain' : null],
    );
    return handle;
  }

  /**
   * The account a company's homepage links (company-profiles' finding): kept unless the operator
   * set one; null (no link now) forgets a linked one, so the domain's handle is looked for again.
   */
  async homepageAccount(companyId: string, account: string | null): Promise<void> {
    if (account === null) {
      await execute(this.db, `DELETE FROM bluesky_company_handles WHERE company_id = $1 AND found_by = 'homepage'`, [
        companyId,
      ]);
      return;
    }
    await execute(
      this.db,
      `INSERT INTO bluesky_company_handles AS h (company_id, handle, found_by, checked_at)
       SELECT id, $2, 'homepage', now() FROM companies WHERE id = $1
       ON CONFLICT (company_id) DO UPDATE SET handle = $2, found_by = 'homepage', checked_at = now()
       WHERE h.found_by IS DISTINCT FROM 'operator'`,
      [companyId, account],
    );
  }

  private async syncCompetitor(domain: string): Promise<SourceItemResult> {
    const competitor = await firstRow<{ domain: string; name: string; handles: string[] | null }>(
      this.db,
      `SELECT * FROM (${watchedCompetitors()}) k WHERE k.domain = $1`,
      [domain],
    );
    if (!competitor) return { records: 0 };
    let handles = competitor.handles ?? [];
    if (handles.length === 0) {
      const resolved = await this.settle(await this.appView.resolveHandle(domain));
      if ('problem' in resolved) return { records: 0, error: resolved.problem };
      handles = 'ok' in resolved ? [domain] : [];
    }
    if (handles.length === 0) return { records: 0 };
    const companyId = await this.competitorCompany(competitor.domain, competitor.name);
    let records = 0;
    const errors: string[] = [];
    for (const handle of handles) {
      const result = await this.readAccount({ role: 'competitor', companyId, domain, handle });
      records += result.records;
      if (result.error) errors.push(result.error);
    }
    return errors.length ? { records, error: errors.join('; ') } : { records };
  }

  /** The stored company at the competitor's domain, else one made of its name and domain. */
  private async competitorCompany(domain: string, name: string): Promise<string> {
    const known = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM companies WHERE domain = $1 ORDER BY id LIMIT 1`,
      [domain],
    );
    if (known) return known.id;
    const id = `bluesky-company:${domain}`.slice(0, 200);
    await this.ingest([{ kind: 'company', id, name, domain }]);
    return id;
  }

  /** One account: its profile, new posts, each recent post's likes and reposts, a competitor's followers. */
  private async readAccount(named: Subject): Promise<SourceItemResult> {
    const profile = await this.settle(await this.appView.profile(named.handle));
    if ('problem' in profile) return { records: 0, error: profile.problem };
    if ('gone' in profile || profile.ok.labels.includes(NO_UNAUTHENTICATED)) {
      // The account is gone, or asks not to be shown to logged-out viewers: nothing of it is kept.
      await this.forgetAccount(named.handle);
      return { records: 0 };
    }
    const author = profile.ok;
    // A homepage may link the account by its DID: its posts, reactions and post URLs go by its
    // handle, as every other account's do (unless Bluesky no longer verifies that handle).
    const subject =
      named.handle.startsWith('did:') && author.handle !== INVALID_HANDLE ? { ...named, handle: author.handle } : named;
    await execute(
      this.db,
      `INSERT INTO bluesky_accounts (handle, did, read_at) VALUES ($1, $2, now())
       ON CONFLICT (handle) DO UPDATE SET did = $2, read_at = now(), gone_at = NULL`,
      [subject.handle, author.did],
    );
    const since = new Date(Date.now() - this.settings.BLUESKY_REACTION_WINDOW_DAYS * DAY_MS);
    const feedError = await this.readPosts(subject.handle, author.did, since);
    if (feedError) return { records: 0, error: feedError };

    const posts = await rows<{ uri: string; cid: string; rkey: string; posted_at: Date }>(
      this.db,
      `SELECT uri, cid, rkey, posted_at FROM bluesky_posts WHERE author_handle = $1 AND posted_at >= $2 ORDER BY posted_at`,
      [subject.handle, since],
    );
    let records = 0;
    for (const post of posts) {
      const likes = await this.readAll((after) => this.appView.likes(post.uri, post.cid, after));
      if ('problem' in likes) return { records, error: likes.problem };
      records += await this.reconcile(
        subject,
        post.uri,
        'like',
        likes.items.map((like) => ({ actor: like.actor, at: like.createdAt })),
        likes.complete,
        post,
      );
      const reposts = await this.readAll((after) => this.appView.repostedBy(post.uri, post.cid, after));
      if ('problem' in reposts) return { records, error: reposts.problem };
      records += await this.reconcile(
        subject,
        post.uri,
        'repost',
        reposts.items.map((actor) => ({ actor, at: null })),
        reposts.complete,
        post,
      );
    }
    if (subject.role === 'competitor') {
      const followers = await this.readAll((after) => this.appView.followers(subject.handle, after));
      if ('problem' in followers) return { records, error: followers.problem };
      const firstRead = await firstRow<{ followers_read_at: Date | null }>(
        this.db,
        `SELECT followers_read_at FROM bluesky_accounts WHERE handle = $1`,
        [subject.handle],
      );
      records += await this.reconcile(
        subject,
        `followers:${subject.handle}`,
        'follow',
        followers.items.map((actor) => ({ actor, at: null })),
        followers.complete,
        null,
        // The API gives no follow time: the first read's followers are the baseline, not news.
        !firstRead?.followers_read_at,
      );
      await execute(this.db, `UPDATE bluesky_accounts SET followers_read_at = now() WHERE handle = $1`, [
        subject.handle,
      ]);
    }
    // Posts past the window are read no more; their reactions stay as they were last seen.
    await execute(this.db, `DELETE FROM bluesky_posts WHERE author_handle = $1 AND posted_at < $2`, [
      subject.handle,
      since,
    ]);
    return { records };
  }

  /** The author's posts newer than `since`, newest first, page by page until one reaches past it. */
  private async readPosts(handle: string, did: string, since: Date): Promise<string | null> {
    let after: string | null = null;
    for (let page = 0; page < this.settings.BLUESKY_MAX_PAGES; page++) {
      const answer: { ok: ListPage<FeedPost> } | { gone: string } | { problem: string } = await this.settle(
        await this.appView.authorFeed(handle, did, after),
      );
      if ('problem' in answer) return answer.problem;
      if ('gone' in answer) return null;
      const recent = answer.ok.items.filter((post) => post.postedAt >= since);
      for (const post of recent) {
        await execute(
          this.db,
          `INSERT INTO bluesky_posts (uri, cid, author_handle, rkey, posted_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (uri) DO UPDATE SET cid = $2`,
          [post.uri, post.cid, handle, post.rkey, post.postedAt],
        );
      }
      // Pinned posts come first whatever their age: a page only ends the read once it holds nothing recent.
      if (!answer.ok.cursor || answer.ok.cursor === after || recent.length === 0) return null;
      after = answer.ok.cursor;
    }
    return null;
  }

  /** Every page of a list up to the page cap; `complete` when its last page was reached. */
  private async readAll<T>(
    page: (after: string | null) => Promise<XrpcAnswer<ListPage<T>>>,
  ): Promise<ListRead<T> | { problem: string }> {
    const items: T[] = [];
    let after: string | null = null;
    for (let n = 0; n < this.settings.BLUESKY_MAX_PAGES; n++) {
      const answer: { ok: ListPage<T> } | { gone: string } | { problem: string } = await this.settle(await page(after));
      if ('problem' in answer) return answer;
      // A post or account deleted between two reads lists nothing.
      if ('gone' in answer) return { items, complete: true };
      items.push(...answer.ok.items);
      if (!answer.ok.cursor || answer.ok.cursor === after) return { items, complete: true };
      after = answer.ok.cursor;
    }
    return { items, complete: false };
  }

  /**
   * One list read (a post's likes or reposts, an account's followers) against what was seen: a
   * new entry becomes an event (or only the baseline), an entry no longer listed removes what
   * was made of it. Hidden reactors and the company's own staff are never kept.
   */
  private async reconcile(
    subject: Subject,
    key: string,
    kind: Engagement,
    listed: { actor: ProfileView; at: Date | null }[],
    complete: boolean,
    post: { rkey: string; posted_at: Date } | null,
    baselineOnly = false,
  ): Promise<number> {
    const stored = await rows<StoredReaction>(
      this.db,
      `SELECT subject, kind, reactor_did, event_id, person_id FROM bluesky_reactions WHERE subject = $1 AND kind = $2`,
      [key, kind],
    );
    const known = new Map(stored.map((row) => [row.reactor_did, row]));
    const kept = new Set<string>();
    let records = 0;
    for (const { actor, at } of listed) {
      if (actor.labels.includes(NO_UNAUTHENTICATED) || isStaff(actor, subject)) continue;
      kept.add(actor.did);
      if (known.has(actor.did)) continue;
      const made = baselineOnly ? null : await this.reactionEvent(subject, kind, actor, at, post, key);
      await execute(
        this.db,
        `INSERT INTO bluesky_reactions (subject, kind, reactor_did, reactor_handle, reactor_name, reactor_description,
           author_handle, event_id, person_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
        [
          key,
          kind,
          actor.did,
          actor.handle,
          actor.displayName.slice(0, 640),
          actor.description.slice(0, 3000),
          subject.handle,
          made?.eventId ?? null,
          made?.personId ?? null,
        ],
      );
      if (made) records += 1;
    }
    // Only a list read to its end says what is gone; a hidden reactor is gone whatever the read.
    const hidden = new Set(listed.filter((l) => !kept.has(l.actor.did)).map((l) => l.actor.did));
    for (const row of stored) {
      if (kept.has(row.reactor_did)) continue;
      if (complete || hidden.has(row.reactor_did)) await this.forget([row]);
    }
    return records;
  }

  /** The person and the event of one new reaction, ingested; null when ingestion refused them. */
  private async reactionEvent(
    subject: Subject,
    kind: Engagement,
    actor: ProfileView,
    at: Date | null,
    post: { rkey: string; posted_at: Date } | null,
    key: string,
  ): Promise<{ eventId: string; personId: string } | null> {
    const seen = new Date();
    const type: WatchlistEventKey =
      subject.role === 'company'
        ? 'company_post_reactions'
        : kind === 'follow'
          ? 'competitor_connections'
          : 'competitor_social_reactions';
    const records: IngestRecordInput[] = [];
    const known = await this.knownPerson(actor);
    let personId = known?.id ?? null;
    if (!personId) {
      // Not a known person at a known company: the person's company stays the empty one.
      personId = `bluesky-person:${actor.did}`.slice(0, 200);
      records.push({ kind: 'company', id: NO_KNOWN_COMPANY_ID, name: 'Bluesky (no company known)', domain: null });
      records.push(personOf(personId, NO_KNOWN_COMPANY_ID, actor));
    }
    const eventId = `bluesky:${kind}:${createHash('sha256').update(`${key} ${actor.did}`).digest('hex').slice(0, 32)}`;
    const event: EventRecordInput = {
      kind: 'event',
      id: eventId,
      type,
      // A like states its time; a repost and a follow are dated when first seen.
      occurredAt: (at ?? seen).toISOString(),
      companyId: subject.companyId,
      personId,
      data: {
        post_url: post ? `https://bsky.app/profile/${subject.handle}/post/${post.rkey}` : '',
        post_date: (post ? post.posted_at : seen).toISOString().slice(0, 10),
        engagement_type: kind,
      },
    };
    records.push(event);
    return (await this.ingest(records)) ? { eventId, personId } : null;
  }

  /**
   * A reactor matched to a known person (docs/sources/bluesky.md): the company their domain
   * handle or profile names is stored, and a person of that company has their profile name.
   */
  private async knownPerson(actor: ProfileView): Promise<{ id: string } | null> {
    const domains = domainsOf(actor);
    if (domains.length === 0 || !actor.displayName) return null;
    const company = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM companies WHERE domain = ANY($1::text[]) ORDER BY id LIMIT 1`,
      [domains],
    );
    if (!company) return null;
    const person = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM people WHERE company_id = $1 AND lower(trim(first_name || ' ' || last_name)) = $2 ORDER BY id LIMIT 1`,
      [company.id, nameKeyOf(actor.displayName)],
    );
    return person ?? null;
  }

  /** Everything derived from an account that is gone or hidden: its reactions, and its posts. */
  private async forgetAccount(named: string): Promise<void> {
    // An account named by its DID was read under its handle then.
    const read = await firstRow<{ handle: string }>(this.db, `SELECT handle FROM bluesky_accounts WHERE did = $1`, [
      named,
    ]);
    const handle = read?.handle ?? named;
    const derived = await rows<StoredReaction>(
      this.db,
      `SELECT subject, kind, reactor_did, event_id, person_id FROM bluesky_reactions WHERE author_handle = $1`,
      [handle],
    );
    await this.forget(derived);
    await execute(this.db, `DELETE FROM bluesky_posts WHERE author_handle = $1`, [handle]);
    await execute(
      this.db,
      `INSERT INTO bluesky_accounts (handle, gone_at) VALUES ($1, now()) ON CONFLICT (handle) DO UPDATE SET gone_at = now()`,
      [handle],
    );
  }

  /**
   * Reactions deleted: the event no lead was made of yet, and the person this source made when
   * no event names them any more. A lead already made stays the customer's (as an opt-out's).
   */
  private async forget(reactions: StoredReaction[]): Promise<void> {
    for (const reaction of reactions) {
      await execute(this.db, `DELETE FROM bluesky_reactions WHERE subject = $1 AND kind = $2 AND reactor_did = $3`, [
        reaction.subject,
        reaction.kind,
        reaction.reactor_did,
      ]);
      if (reaction.event_id) {
        const deleted = await changed<{ type: string }>(
          this.db,
          `DELETE FROM events e WHERE e.id = $1 AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.event_id = e.id) RETURNING e.type`,
          [reaction.event_id],
        );
        this.ingestion.announce(deleted.rows.map((row) => ({ table: 'events', type: row.type })));
      }
      if (reaction.person_id?.startsWith('bluesky-person:')) {
        const deleted = await changed(
          this.db,
          `DELETE FROM people p WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.person_id = p.id)`,
          [reaction.person_id],
        );
        if (deleted.count > 0) this.ingestion.announce([{ table: 'people' }]);
      }
    }
  }

  private async ingest(records: IngestRecordInput[]): Promise<boolean> {
    const result = await this.ingestion.ingest(records);
    return result.errors.length === 0;
  }

  /** A 429 holds every worker off the AppView and the item retries after the wait. */
  private async settle<T>(answer: XrpcAnswer<T>): Promise<{ ok: T } | { gone: string } | { problem: string }> {
    if ('throttled' in answer)
      throw await this.fetcher.refused(`https://${APPVIEW_HOST}/`, 429, answer.throttled.retryAfterMs);
    return answer;
  }
}

/**
 * The company's own staff, left out of reactions to its own account (docs/sources/bluesky.md):
 * a handle under the company's domain (Bluesky verified it), or a profile description naming
 * the company's domain or its handle.
 */
export function isStaff(actor: ProfileView, subject: Pick<Subject, 'domain' | 'handle'>): boolean {
  const handle = actor.handle.toLowerCase();
  const description = actor.description.toLowerCase();
  if (handle === subject.handle) return true;
  if (subject.domain && (handle.endsWith(`.${subject.domain}`) || description.includes(subject.domain))) return true;
  return description.includes(`@${subject.handle}`);
}

/** Domains a profile names: its handle when it is a domain of its own, and web addresses in its description. */
function domainsOf(actor: ProfileView): string[] {
  const found = new Set<string>();
  if (!actor.handle.endsWith('.bsky.social')) {
    const domain = registrableDomain(actor.handle);
    if (domain) found.add(domain);
  }
  for (const match of actor.description.matchAll(/\b(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?:[/\s]|$)/gi)) {
    const domain = registrableDomain(match[1]!);
    if (domain && domain !== 'bsky.app' && domain !== 'bsky.social') found.add(domain);
    if (found.size >= 5) break;
  }
  return [...found];
}

/** The reactor as a person: their profile name split in two (a single word keeps the handle as last name). */
function personOf(id: string, companyId: string, actor: ProfileView): PersonRecordInput {
  const name = actor.displayName.replace(/\s+/g, ' ').trim().slice(0, 200) || actor.handle;
  const space = name.indexOf(' ');
  return {
    kind: 'person',
    id,
    companyId,
    firstName: space > 0 ? name.slice(0, space) : name,
    lastName: space > 0 ? name.slice(space + 1) : `@${actor.handle}`.slice(0, 200),
  };
}
