import { z } from 'zod';
import { API_JSON_LIMITS, readJson } from '../kit/document-limits';
import type { RawAnswer } from '../kit/polite-fetch';
import { retryAfterMsOf } from '../kit/polite-fetch';

/** Bluesky's public AppView: cached, read-only, no key (docs/sources/bluesky.md). */
export const APPVIEW_HOST = 'public.api.bsky.app';

/** The handle the AppView shows for an account whose handle no longer verifies. */
export const INVALID_HANDLE = 'handle.invalid';

/** The self-label of an account that asks not to be shown to logged-out viewers. */
export const NO_UNAUTHENTICATED = '!no-unauthenticated';

/** How the client sends a GET: the polite fetcher, paced per host across workers. */
export type XrpcGet = (url: string) => Promise<RawAnswer>;

/** What an XRPC call answered: the thing asked, the account is gone, a wait asked (429), or a problem. */
export type XrpcAnswer<T> =
  { ok: T } | { gone: string } | { throttled: { retryAfterMs: number; url: string } } | { problem: string };

// Hostile input: every field may be absent, null or of another type; only what is used is read.
/** Control characters (but tab and line breaks) are dropped: profiles carry them, the store does not. */
const withoutControls = (value: string) =>
  [...value]
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 127);
    })
    .join('');
const text = z.unknown().transform((v) => (typeof v === 'string' ? withoutControls(v).trim() : ''));
const label = z.looseObject({ val: text });
const labels = z
  .unknown()
  .transform((v) => (Array.isArray(v) ? v : []))
  .pipe(z.array(z.unknown()))
  .transform((list) => list.flatMap((item) => (label.safeParse(item).success ? [label.parse(item).val] : [])));

const profileView = z.looseObject({
  did: z.string().min(1).max(2048),
  handle: z.string().min(1).max(253),
  displayName: text.optional(),
  description: text.optional(),
  labels: labels.optional(),
});
export type ProfileView = {
  did: string;
  handle: string;
  displayName: string;
  description: string;
  labels: string[];
};
const asProfile = (p: z.output<typeof profileView>): ProfileView => ({
  did: p.did,
  handle: p.handle.toLowerCase(),
  displayName: p.displayName ?? '',
  description: p.description ?? '',
  labels: p.labels ?? [],
});

/** A list's entries one by one: an entry of another shape is skipped, not the whole page. */
const entries = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .optional()
    .transform((v) => (Array.isArray(v) ? v : []))
    .transform((list) =>
      list.flatMap((item) => {
        const parsed = schema.safeParse(item);
        return parsed.success ? [parsed.data as z.output<T>] : [];
      }),
    );
const cursor = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' && v.length > 0 && v.length <= 2000 ? v : null));

const feedItem = z.looseObject({
  post: z.looseObject({
    uri: z.string().startsWith('at://').max(3000),
    cid: z.string().min(1).max(200),
    author: z.looseObject({ did: z.string() }),
    record: z.looseObject({ createdAt: z.unknown().optional() }).optional(),
    indexedAt: z.unknown().optional(),
  }),
  reason: z.unknown().optional(),
});

export interface FeedPost {
  uri: string;
  cid: string;
  rkey: string;
  /** When the author says it was posted, else when the AppView indexed it. */
  postedAt: Date;
}

export interface ListPage<T> {
  items: T[];
  cursor: string | null;
}

export interface Like {
  actor: ProfileView;
  createdAt: Date | null;
}

/** A time as the record states it; none, unreadable or in the future reads as unknown. */
function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = Date.parse(value);
  return Number.isNaN(at) || at > Date.now() + 60_000 ? null : new Date(at);
}

/**
 * The XRPC reads of the public AppView (`GET https://public.api.bsky.app/xrpc/{nsid}`): profiles,
 * an author's feed, a post's likes and reposts, an account's followers, a domain's handle.
 * Nothing is ever written. A 400 naming a missing, taken-down or deactivated account is `gone`.
 */
export class BlueskyAppView {
  constructor(
    private readonly get: XrpcGet,
    private readonly pageSize: number,
  ) {}

  private url(nsid: string, params: Record<string, string | null | undefined>): string {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
    return `https://${APPVIEW_HOST}/xrpc/${nsid}?${query.toString()}`;
  }

  private async call<T>(
    nsid: string,
    params: Record<string, string | null | undefined>,
    read: (body: unknown) => T | null,
  ): Promise<XrpcAnswer<T>> {
    const url = this.url(nsid, params);
    const answer = await this.get(url);
    const where = `${nsid} ${params.actor ?? params.uri ?? params.handle ?? ''}`.trim();
    if (answer.status === 429)
      return { throttled: { retryAfterMs: retryAfterMsOf(answer.headers['retry-after']), url } };
    const parsed = readJson(answer.body, API_JSON_LIMITS);
    const body = 'value' in parsed ? parsed.value : undefined;
    if (answer.status === 400 || answer.status === 404) {
      const error = z.looseObject({ error: text.optional(), message: text.optional() }).safeParse(body);
      const said = error.success ? [error.data.error, error.data.message].filter(Boolean).join(': ') : '';
      if (
        /profile not found|could not find|not found|unable to resolve|takendown|takedown|deactivated|suspended/i.test(
          said,
        )
      )
        return { gone: `${where}: ${answer.status} ${said}` };
      return { problem: `${where}: Bluesky answered ${answer.status}${said ? ` (${said})` : ''}` };
    }
    if (answer.status !== 200) return { problem: `${where}: Bluesky answered ${answer.status}` };
    if ('problem' in parsed) return { problem: `${where}: ${parsed.problem}` };
    const value = read(body);
    return value === null ? { problem: `${where}: not the documented answer` } : { ok: value };
  }

  profile(actor: string): Promise<XrpcAnswer<ProfileView>> {
    return this.call('app.bsky.actor.getProfile', { actor }, (body) => {
      const parsed = profileView.safeParse(body);
      return parsed.success ? asProfile(parsed.data) : null;
    });
  }

  /** The DID a handle names (a domain handle Bluesky verifies), or gone when it names none. */
  resolveHandle(handle: string): Promise<XrpcAnswer<string>> {
    return this.call('com.atproto.identity.resolveHandle', { handle }, (body) => {
      const parsed = z.looseObject({ did: z.string().startsWith('did:') }).safeParse(body);
      return parsed.success ? parsed.data.did : null;
    });
  }

  /** One page of an author's own posts (no replies), newest first; reposts of others' posts are left out. */
  authorFeed(actor: string, authorDid: string, after: string | null): Promise<XrpcAnswer<ListPage<FeedPost>>> {
    return this.call(
      'app.bsky.feed.getAuthorFeed',
      { actor, filter: 'posts_no_replies', limit: String(this.pageSize), cursor: after },
      (body) => {
        const page = z.looseObject({ feed: entries(feedItem), cursor }).safeParse(body);
        if (!page.success || !Array.isArray((body as { feed?: unknown }).feed)) return null;
        const items = page.data.feed.flatMap((item): FeedPost[] => {
          if (item.reason || item.post.author.did !== authorDid) return [];
          const rkey = item.post.uri.split('/').pop() ?? '';
          if (!/^[A-Za-z0-9._:~-]{1,512}$/.test(rkey)) return [];
          const postedAt = timeOf(item.post.record?.createdAt) ?? timeOf(item.post.indexedAt);
          return postedAt ? [{ uri: item.post.uri, cid: item.post.cid, rkey, postedAt }] : [];
        });
        return { items, cursor: page.data.cursor };
      },
    );
  }

  likes(uri: string, cid: string, after: string | null): Promise<XrpcAnswer<ListPage<Like>>> {
    return this.call('app.bsky.feed.getLikes', { uri, cid, limit: String(this.pageSize), cursor: after }, (body) => {
      const like = z.looseObject({ actor: profileView, createdAt: z.unknown().optional() });
      const page = z.looseObject({ likes: entries(like), cursor }).safeParse(body);
      if (!page.success || !Array.isArray((body as { likes?: unknown }).likes)) return null;
      return {
        items: page.data.likes.map((l) => ({ actor: asProfile(l.actor), createdAt: timeOf(l.createdAt) })),
        cursor: page.data.cursor,
      };
    });
  }

  repostedBy(uri: string, cid: string, after: string | null): Promise<XrpcAnswer<ListPage<ProfileView>>> {
    return this.call(
      'app.bsky.feed.getRepostedBy',
      { uri, cid, limit: String(this.pageSize), cursor: after },
      (body) => {
        const page = z.looseObject({ repostedBy: entries(profileView), cursor }).safeParse(body);
        if (!page.success || !Array.isArray((body as { repostedBy?: unknown }).repostedBy)) return null;
        return { items: page.data.repostedBy.map(asProfile), cursor: page.data.cursor };
      },
    );
  }

  followers(actor: string, after: string | null): Promise<XrpcAnswer<ListPage<ProfileView>>> {
    return this.call('app.bsky.graph.getFollowers', { actor, limit: String(this.pageSize), cursor: after }, (body) => {
      const page = z.looseObject({ followers: entries(profileView), cursor }).safeParse(body);
      if (!page.success || !Array.isArray((body as { followers?: unknown }).followers)) return null;
      return { items: page.data.followers.map(asProfile), cursor: page.data.cursor };
    });
  }
}
