import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Bluesky's public AppView (`public.api.bsky.app/xrpc/{nsid}`) answering as its
 * lexicons document it: profileViews with `labels`, `cursor` until the last page, a 400
 * `{"error":"InvalidRequest","message":"Profile not found"}` for an unknown actor, and what real
 * answers add beyond the examples (null display names, entries of another shape, labels of other
 * values). `override` serves a raw answer for one method (a 429, a malformed document).
 */
export interface Actor {
  did: string;
  handle: string;
  displayName?: string | null;
  description?: string | null;
  labels?: { val: string; src?: string }[];
}

export interface Post {
  rkey: string;
  createdAt: string;
  /** A repost of this account's: shown in its feed with a `reason`, never read as its post. */
  repostOf?: Actor;
}

interface RawAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface AppView {
  origin: string;
  requests: string[];
  profiles: Map<string, Actor>;
  /** Handles whose domain Bluesky verifies: resolveHandle answers their DID. */
  domainHandles: Map<string, string>;
  feeds: Map<string, Post[]>;
  /** By post URI, newest first as the AppView lists them. */
  likes: Map<string, { actor: Actor; createdAt: string | null }[]>;
  reposts: Map<string, Actor[]>;
  followers: Map<string, Actor[]>;
  /** Raw answers for a method (`app.bsky.feed.getLikes`), used up one per request. */
  override(nsid: string, ...answers: RawAnswer[]): void;
  close(): Promise<void>;
}

export const postUri = (author: Actor, rkey: string) => `at://${author.did}/app.bsky.feed.post/${rkey}`;

const profileView = (a: Actor) => ({
  did: a.did,
  handle: a.handle,
  displayName: a.displayName === undefined ? null : a.displayName,
  description: a.description ?? undefined,
  avatar: null,
  labels: a.labels ?? [],
  createdAt: '2023-04-01T10:00:00.000Z',
  indexedAt: '2024-01-01T10:00:00.000Z',
});

/** A page of `list` from the cursor (an offset here, opaque to the client). */
function paged<T>(list: T[], params: URLSearchParams): { items: T[]; cursor?: string } {
  const limit = Math.min(100, Number(params.get('limit') ?? 50));
  const start = Number(params.get('cursor') ?? 0);
  const items = list.slice(start, start + limit);
  return start + limit < list.length ? { items, cursor: String(start + limit) } : { items };
}

export async function startAppView(): Promise<AppView> {
  const profiles = new Map<string, Actor>();
  const domainHandles = new Map<string, string>();
  const feeds = new Map<string, Post[]>();
  const likes = new Map<string, { actor: Actor; createdAt: string | null }[]>();
  const reposts = new Map<string, Actor[]>();
  const followers = new Map<string, Actor[]>();
  const overrides = new Map<string, RawAnswer[]>();
  const requests: string[] = [];

  const badRequest = (message: string) => ({
    status: 400,
    body: JSON.stringify({ error: 'InvalidRequest', message }),
  });
  const json = (value: unknown) => ({ status: 200, body: JSON.stringify(value) });

  function answer(nsid: string, params: URLSearchParams): RawAnswer {
    const queued = overrides.get(nsid);
    if (queued?.length) return queued.shift()!;
    const actor = params.get('actor') ?? '';
    switch (nsid) {
      case 'com.atproto.identity.resolveHandle': {
        const did = domainHandles.get(params.get('handle') ?? '');
        return did ? json({ did }) : badRequest('Unable to resolve handle');
      }
      case 'app.bsky.actor.getProfile': {
        // An actor is its handle or its DID.
        const profile = profiles.get(actor) ?? [...profiles.values()].find((p) => p.did === actor);
        if (!profile) return badRequest('Profile not found');
        return json({ ...profileView(profile), followersCount: 10, followsCount: 3, postsCount: 42 });
      }
      case 'app.bsky.feed.getAuthorFeed': {
        const author = profiles.get(actor);
        if (!author) return badRequest('Profile not found');
        const page = paged(feeds.get(actor) ?? [], params);
        return json({
          feed: [
            ...page.items.map((post) => {
              const by = post.repostOf ?? author;
              return {
                post: {
                  uri: postUri(by, post.rkey),
                  cid: `bafy${post.rkey}`,
                  author: profileView(by),
                  record: { $type: 'app.bsky.feed.post', text: 'Shipping today', createdAt: post.createdAt },
                  likeCount: 1,
                  repostCount: 0,
                  replyCount: 0,
                  indexedAt: post.createdAt,
                },
                ...(post.repostOf
                  ? { reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: profileView(author) } }
                  : {}),
              };
            }),
            // Real feeds carry entries of other shapes (blocked or missing posts).
            { post: { $type: 'app.bsky.feed.defs#blockedPost', uri: null } },
          ],
          ...(page.cursor ? { cursor: page.cursor } : {}),
        });
      }
      case 'app.bsky.feed.getLikes': {
        const uri = params.get('uri') ?? '';
        const page = paged(likes.get(uri) ?? [], params);
        return json({
          uri,
          likes: page.items.map((l) => ({
            actor: profileView(l.actor),
            createdAt: l.createdAt,
            indexedAt: l.createdAt,
          })),
          ...(page.cursor ? { cursor: page.cursor } : {}),
        });
      }
      case 'app.bsky.feed.getRepostedBy': {
        const uri = params.get('uri') ?? '';
        const page = paged(reposts.get(uri) ?? [], params);
        return json({ uri, repostedBy: page.items.map(profileView), ...(page.cursor ? { cursor: page.cursor } : {}) });
      }
      case 'app.bsky.graph.getFollowers': {
        const subject = profiles.get(actor);
        if (!subject) return badRequest('Profile not found');
        const page = paged(followers.get(actor) ?? [], params);
        return json({
          subject: profileView(subject),
          followers: page.items.map(profileView),
          ...(page.cursor ? { cursor: page.cursor } : {}),
        });
      }
      default:
        return {
          status: 404,
          body: JSON.stringify({ error: 'MethodNotImplemented', message: 'Method Not Implemented' }),
        };
    }
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://appview');
    requests.push(`${url.pathname}${url.search}`);
    const nsid = url.pathname.replace(/^\/xrpc\//, '');
    const { status, headers, body } = answer(nsid, url.searchParams);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    profiles,
    domainHandles,
    feeds,
    likes,
    reposts,
    followers,
    override: (nsid, ...answers) => overrides.set(nsid, [...(overrides.get(nsid) ?? []), ...answers]),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An actor and its profile, served. */
export function actor(view: AppView, handle: string, extra: Partial<Actor> = {}): Actor {
  const made: Actor = { did: `did:plc:${handle.replace(/[^a-z0-9]/g, '').slice(0, 24)}`, handle, ...extra };
  view.profiles.set(handle, made);
  return made;
}
