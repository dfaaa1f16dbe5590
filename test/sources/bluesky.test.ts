import { startStack, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, company, createSignal, ingest } from '../leads/fixtures';
import { runSourceNow } from './source-runs';
import { actor, postUri, startAppView, type Actor, type AppView } from './bluesky-fixtures';

const DAY_MS = 86_400_000;
const FILE_STARTED = Date.now();
const ago = (days: number) => new Date(FILE_STARTED - days * DAY_MS).toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

let stack: Stack;
let view: AppView;
let acme: Actor;
let rival: Actor;

beforeAll(async () => {
  view = await startAppView();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      // The watchlist evaluates only when told: a reaction made a lead stays the customer's, and
      // the deletions below are of events no lead names (bluesky-lead.test.ts has the leads).
      SIGNAL_WAKE_ON_ARRIVAL: 'false',
      SOURCES_HOST_MAP: `public.api.bsky.app=${view.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      BLUESKY_INTERVAL: '24h',
      // Two entries a page, so every list is read through its cursors.
      BLUESKY_PAGE_SIZE: '2',
      BLUESKY_REACTION_WINDOW_DAYS: '7',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await ingest(stack, [company('acme')]);
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  await createSignal(api, 'account-watchlist', {
    name: 'Acme and its rival',
    status: 'active',
    config: { companies: ['acme.com'] },
  });
  const made = await call(`${stack.url}/api/v1/competitors`, {
    method: 'POST',
    token: account.apiKey,
    body: { name: 'Rival Inc', domain: 'rival.com', blueskyHandles: ['rival.bsky.social'] },
  });
  expect(made.status).toBe(201);

  // Acme's handle is its domain, which Bluesky verifies; the rival's is set by the account.
  acme = actor(view, 'acme.com', { displayName: 'Acme' });
  view.domainHandles.set('acme.com', acme.did);
  rival = actor(view, 'rival.bsky.social', { displayName: 'Rival' });
});

afterAll(async () => {
  await stack?.stop();
  await view?.close();
});

const run = () => runSourceNow(stack, 'bluesky');
const events = () =>
  stack.db.query(
    `SELECT e.type, e.company_id, e.data, p.first_name, p.last_name, p.company_id AS person_company
     FROM events e JOIN people p ON p.id = e.person_id WHERE e.id LIKE 'bluesky:%' ORDER BY e.type, lower(p.first_name)`,
  );

const jane = () => actor(view, 'jane.acme.com', { displayName: 'Jane Staff' });
let bob: Actor;
let erin: Actor;

test('new posts, their likes and reposts (paged), and a competitor’s followers: hidden profiles and the company’s staff are never kept', async () => {
  bob = actor(view, 'bob.bsky.social', { displayName: 'Bob Stone', description: 'Platform lead. Opinions mine.' });
  const carl = actor(view, 'carl.bsky.social', { displayName: null });
  const hidden = actor(view, 'hidden.bsky.social', {
    displayName: 'Hidden Person',
    labels: [{ val: '!no-unauthenticated', src: 'did:plc:hidden' }],
  });
  const dana = actor(view, 'dana.bsky.social', { displayName: 'Dana Reyes', labels: [{ val: 'bot' }] });
  erin = actor(view, 'erin.example.org', { displayName: 'Erin Park' });
  const other = actor(view, 'other.bsky.social', { displayName: 'Other' });

  view.feeds.set('acme.com', [
    { rkey: 'p1', createdAt: ago(1) },
    { rkey: 'shared', createdAt: ago(1), repostOf: other },
    { rkey: 'p2', createdAt: ago(2) },
    { rkey: 'old', createdAt: ago(20) },
  ]);
  view.likes.set(postUri(acme, 'p1'), [
    { actor: jane(), createdAt: ago(0.5) },
    { actor: hidden, createdAt: ago(0.5) },
    { actor: bob, createdAt: ago(0.5) },
    { actor: carl, createdAt: 'not a time' },
  ]);
  view.reposts.set(postUri(acme, 'p2'), [dana]);
  view.likes.set(postUri(acme, 'old'), [{ actor: bob, createdAt: ago(19) }]);
  view.feeds.set('rival.bsky.social', [{ rkey: 'r1', createdAt: ago(1) }]);
  view.likes.set(postUri(rival, 'r1'), [{ actor: erin, createdAt: ago(0.2) }]);
  view.followers.set('rival.bsky.social', [actor(view, 'f1.bsky.social'), actor(view, 'f2.bsky.social')]);

  const status = await run();
  expect(status.lastError).toBeNull();
  expect(await events()).toEqual([
    expect.objectContaining({
      type: 'company_post_reactions',
      company_id: 'co-acme',
      first_name: 'Bob',
      last_name: 'Stone',
      person_company: 'bluesky-company:none',
      data: {
        post_url: 'https://bsky.app/profile/acme.com/post/p1',
        post_date: dayOf(ago(1)),
        engagement_type: 'like',
      },
    }),
    expect.objectContaining({
      type: 'company_post_reactions',
      first_name: 'carl.bsky.social',
      last_name: '@carl.bsky.social',
      data: expect.objectContaining({ engagement_type: 'like' }),
    }),
    expect.objectContaining({
      type: 'company_post_reactions',
      first_name: 'Dana',
      data: {
        post_url: 'https://bsky.app/profile/acme.com/post/p2',
        post_date: dayOf(ago(2)),
        engagement_type: 'repost',
      },
    }),
    expect.objectContaining({
      type: 'competitor_social_reactions',
      company_id: 'bluesky-company:rival.com',
      first_name: 'Erin',
      data: {
        post_url: 'https://bsky.app/profile/rival.bsky.social/post/r1',
        post_date: dayOf(ago(1)),
        engagement_type: 'like',
      },
    }),
  ]);
  // The like's own time dates the event.
  const [bobsLike] = await stack.db.query(
    `SELECT e.occurred_at FROM events e WHERE e.person_id = 'bluesky-person:' || $1`,
    [bob.did],
  );
  expect(new Date(bobsLike.occurred_at).toISOString()).toBe(ago(0.5));
  // Nothing of the hidden profile or of Acme's own staff is stored; the description stays with the reaction.
  const kept = await stack.db.query(`SELECT reactor_handle, reactor_description FROM bluesky_reactions ORDER BY 1`);
  expect(kept.map((r: { reactor_handle: string }) => r.reactor_handle)).toEqual([
    'bob.bsky.social',
    'carl.bsky.social',
    'dana.bsky.social',
    'erin.example.org',
    'f1.bsky.social',
    'f2.bsky.social',
  ]);
  expect(kept[0].reactor_description).toBe('Platform lead. Opinions mine.');
  // Only posts within the window are asked for their reactions; pages followed by cursor.
  expect(view.requests.some((r) => r.includes('getLikes') && r.includes('old'))).toBe(false);
  expect(view.requests.filter((r) => r.includes('getLikes') && r.includes('p1'))).toHaveLength(2);
  expect(view.requests.some((r) => /createRecord|putRecord|deleteRecord/.test(r))).toBe(false);
  // The first read of followers is the baseline: no follow event yet.
  expect((await events()).some((e: { type: string }) => e.type === 'competitor_connections')).toBe(false);
});

test('a later read: a new follower is a competitor_connections event; a deleted like and a profile now hidden remove their events and people', async () => {
  const gina = actor(view, 'gina.bsky.social', { displayName: 'Gina Holt' });
  view.followers.set('rival.bsky.social', [gina, ...view.followers.get('rival.bsky.social')!.slice(1)]);
  view.likes.set(
    postUri(acme, 'p1'),
    view.likes.get(postUri(acme, 'p1'))!.filter((l) => l.actor.did !== bob.did),
  );
  erin.labels = [{ val: '!no-unauthenticated' }];

  const status = await run();
  expect(status.lastError).toBeNull();
  const now = await events();
  expect(now.map((e: { first_name: string }) => e.first_name)).toEqual(['carl.bsky.social', 'Dana', 'Gina']);
  expect(now[2]).toMatchObject({
    type: 'competitor_connections',
    company_id: 'bluesky-company:rival.com',
    data: { post_url: '', post_date: dayOf(new Date().toISOString()), engagement_type: 'follow' },
  });
  const people = await stack.db.query(`SELECT id FROM people WHERE id = ANY($1::text[])`, [
    [`bluesky-person:${bob.did}`, `bluesky-person:${erin.did}`],
  ]);
  expect(people).toEqual([]);
  const followers = await stack.db.query(
    `SELECT reactor_handle FROM bluesky_reactions WHERE kind = 'follow' ORDER BY 1`,
  );
  expect(followers.map((r: { reactor_handle: string }) => r.reactor_handle)).toEqual([
    'f2.bsky.social',
    'gina.bsky.social',
  ]);
});

test('a 429 waits its Retry-After and the item goes on; a malformed answer is named in the status; a deleted account removes all it gave', async () => {
  view.override('app.bsky.feed.getLikes', {
    status: 429,
    headers: { 'retry-after': '1' },
    body: '{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}',
  });
  view.override('app.bsky.feed.getRepostedBy', { status: 200, body: '{"uri": "at://x", "repostedBy": [' });
  const before = view.requests.length;
  const status = await run();
  expect(status.lastError).toMatch(/app\.bsky\.feed\.getRepostedBy .*not JSON/);
  const likeCalls = view.requests.slice(before).filter((r) => r.includes('getLikes'));
  expect(likeCalls.length).toBeGreaterThan(1);
  // Nothing was lost or doubled by the retry.
  expect((await events()).map((e: { first_name: string }) => e.first_name)).toEqual([
    'carl.bsky.social',
    'Dana',
    'Gina',
  ]);

  // The rival's account is deleted: the AppView answers 400 Profile not found.
  view.profiles.delete('rival.bsky.social');
  await run();
  expect((await events()).map((e: { first_name: string }) => e.first_name)).toEqual(['carl.bsky.social', 'Dana']);
  expect(
    await stack.db.query(`SELECT count(*)::int AS n FROM bluesky_reactions WHERE author_handle = 'rival.bsky.social'`),
  ).toEqual([{ n: 0 }]);
  const listed = await call(`${stack.url}/admin/v1/sources`, {
    token: (await import('../setup/stack')).TEST_ADMIN_TOKEN,
  });
  expect(listed.status).toBe(200);
  expect(JSON.stringify(listed.body)).toContain('bluesky');
});

test('the operator sets a watched company’s handle: the source reads that account; a bad handle or unknown company changes nothing', async () => {
  const { TEST_ADMIN_TOKEN } = await import('../setup/stack');
  const put = (companyId: string, body: unknown) =>
    call(`${stack.url}/admin/v1/companies/${companyId}/bluesky-handle`, {
      method: 'PUT',
      token: TEST_ADMIN_TOKEN,
      body,
    });
  expect((await put('co-acme', { handle: 'not a handle' })).status).toBe(422);
  expect((await put('co-nobody', { handle: 'acmehq.bsky.social' })).status).toBe(404);
  const set = await put('co-acme', { handle: '@AcmeHQ.bsky.social' });
  expect(set.status).toBe(200);
  expect(set.body).toEqual({ companyId: 'co-acme', handle: 'acmehq.bsky.social' });

  const hq = actor(view, 'acmehq.bsky.social', { displayName: 'Acme HQ' });
  view.feeds.set('acmehq.bsky.social', [{ rkey: 'hq1', createdAt: ago(1) }]);
  view.likes.set(postUri(hq, 'hq1'), [
    { actor: actor(view, 'hal.bsky.social', { displayName: 'Hal Moss' }), createdAt: ago(0.1) },
  ]);
  const before = view.requests.length;
  await run();
  expect(view.requests.slice(before).some((r) => r.includes('getProfile?actor=acmehq.bsky.social'))).toBe(true);
  expect((await events()).map((e: { first_name: string }) => e.first_name)).toContain('Hal');
});
