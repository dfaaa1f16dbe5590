import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, company, createSignal, ingest } from '../leads/fixtures';
import { blueskyAccountOf } from '../../src/sources/company-profiles/bluesky-links';
import { runSourceNow } from './source-runs';
import { startSite, siteHostMap, type SiteServer } from './site-servers';
import { homepage } from './site-fixtures';
import { actor, startAppView, type Actor, type AppView } from './bluesky-fixtures';

const DAY_MS = 86_400_000;
const FILE_STARTED = Date.now();
const ago = (days: number) => new Date(FILE_STARTED - days * DAY_MS).toISOString();
/** A did:plc as Bluesky mints them: 24 base32 characters. */
const TERN_DID = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz';

let stack: Stack;
let view: AppView;
let sites: Record<string, SiteServer>;
const site = (domain: string) => sites[domain]!;

/** Links a real homepage carries that name no account of the company's, or none at all. */
const junkLinks = [
  { href: 'https://bsky.app/profile/gannet.com/post/3lbpost1', text: 'Our launch post' },
  { href: 'https://bsky.app/profile/', text: 'Bluesky' },
  { href: 'https://bsky.app/profile/not_a_handle!', text: 'Bad' },
  { href: 'https://bsky.app/profile/gannet.test', text: 'Reserved TLD' },
  { href: 'https://bsky.app/profile/did:plc:short', text: 'Bad DID' },
  { href: 'https://bsky.app.evil.example.org/profile/evil.bsky.social', text: 'Look-alike host' },
  { href: 'https://evil.example.org/bsky.app/profile/evil2.bsky.social', text: 'Path look-alike' },
  { href: 'https://bsky.app:8443/profile/port.bsky.social', text: 'Other port' },
  { href: 'javascript:void(0)', text: 'Menu' },
  { href: 'https://bsky.app/search?q=gannet', text: 'Search' },
];

beforeAll(async () => {
  view = await startAppView();
  sites = Object.fromEntries(
    await Promise.all(['gannet.com', 'tern.com', 'skua.com'].map(async (d) => [d, await startSite()])),
  );
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `${siteHostMap(sites)},public.api.bsky.app=${view.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      COMPANY_PROFILES_INTERVAL: '24h',
      BLUESKY_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await ingest(stack, [company('gannet'), company('tern'), company('skua')]);
  const account = await createAccount(stack, { credits: 100 });
  await createSignal(client(stack, account), 'account-watchlist', {
    name: 'Seabirds',
    status: 'active',
    config: { companies: ['gannet.com', 'tern.com', 'skua.com'] },
  });

  // Gannet links its account among junk, in a comment and in a script; its domain is a handle too.
  site('gannet.com').answer('/', {
    etag: '"gannet-v1"',
    html: homepage({
      title: 'Gannet',
      head: [`<script>var social = "https://bsky.app/profile/scripted.bsky.social";</script>`],
      links: [
        ...junkLinks,
        { href: 'https://bsky.app/profile/@Gannet-HQ.bsky.social', text: 'Bluesky' },
        { href: 'https://bsky.app/profile/partner.bsky.social', text: 'Our partner' },
      ],
    }).replace('</nav>', '</nav><!-- <a href="https://bsky.app/profile/commented.bsky.social">old</a> -->'),
  });
  // Tern links its account by DID, after a partner's: its own domain handle comes first either way.
  site('tern.com').answer('/', {
    html: homepage({
      title: 'Tern',
      links: [
        { href: 'https://bsky.app/profile/friend.bsky.social', text: 'A friend' },
        { href: 'https://bsky.app/profile/news.tern.com', text: 'Tern news' },
        { href: `https://bsky.app/profile/${TERN_DID}/`, text: 'Bluesky' },
      ],
    }),
  });
  // Skua's operator set its handle: the homepage's link does not replace it.
  site('skua.com').answer('/', {
    html: homepage({
      title: 'Skua',
      links: [{ href: 'https://bsky.app/profile/skua-site.bsky.social', text: 'Bsky' }],
    }),
  });
  const set = await call(`${stack.url}/admin/v1/companies/co-skua/bluesky-handle`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { handle: 'skua-ops.bsky.social' },
  });
  expect(set.status).toBe(200);
});

afterAll(async () => {
  await stack?.stop();
  await view?.close();
  await Promise.all(Object.values(sites ?? {}).map((s) => s.close()));
});

const handles = async () =>
  Object.fromEntries(
    (
      (await stack.db.query(
        `SELECT company_id, handle, found_by FROM bluesky_company_handles ORDER BY company_id`,
      )) as { company_id: string; handle: string | null; found_by: string | null }[]
    ).map((row) => [row.company_id, `${row.handle} (${row.found_by})`]),
  );
const events = async () =>
  (
    (await stack.db.query(
      `SELECT e.company_id, e.data->>'post_url' AS post_url, p.first_name FROM events e JOIN people p ON p.id = e.person_id
       WHERE e.id LIKE 'bluesky:%' ORDER BY e.company_id, e.data->>'post_url'`,
    )) as { company_id: string; post_url: string; first_name: string }[]
  ).map((row) => `${row.company_id} ${row.post_url} ${row.first_name}`);

test('only a bsky.app profile link names an account: a handle by atproto’s syntax or a did:plc / did:web', () => {
  expect(blueskyAccountOf('https://bsky.app/profile/@Acme.COM')).toBe('acme.com');
  expect(blueskyAccountOf('https://bsky.app/profile/acme.bsky.social/')).toBe('acme.bsky.social');
  expect(blueskyAccountOf('https://bsky.app/profile/acme.bsky.social?ref=footer#top')).toBe('acme.bsky.social');
  expect(blueskyAccountOf(`https://bsky.app/profile/${TERN_DID}`)).toBe(TERN_DID);
  expect(blueskyAccountOf('https://bsky.app/profile/did:web:acme.com')).toBe('did:web:acme.com');
  for (const { href } of junkLinks) expect([href, blueskyAccountOf(href)]).toEqual([href, null]);
  for (const junk of [
    'https://bsky.app/profile/acme',
    'https://bsky.app/profile/acme.123',
    'https://bsky.app/profile/-acme.com',
    'https://bsky.app/profile/acme.local',
    'https://bsky.app/profile/acme.onion',
    `https://bsky.app/profile/${'a'.repeat(64)}.com`,
    `https://bsky.app/profile/${'abc.'.repeat(63)}com`,
    'https://bsky.app/profile/%E0%A4%A',
    'https://bsky.app/profile/acme%2Fevil.com',
    'https://bsky.app/profile/did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    'https://user:pw@bsky.app/profile/acme.com',
    'ftp://bsky.app/profile/acme.com',
    'not a url',
  ]) {
    expect([junk, blueskyAccountOf(junk)]).toEqual([junk, null]);
  }
});

test('the site read stores the account each homepage links (the company’s own first); the operator’s handle is kept', async () => {
  await runSourceNow(stack, 'company-profiles');
  expect(await handles()).toEqual({
    'co-gannet': 'gannet-hq.bsky.social (homepage)',
    'co-skua': 'skua-ops.bsky.social (operator)',
    'co-tern': 'news.tern.com (homepage)',
  });
});

test('the bluesky source reads the linked account, before the domain’s handle and never the page’s other links', async () => {
  const gannetHq = actor(view, 'gannet-hq.bsky.social', { displayName: 'Gannet' });
  const gannetDomain = actor(view, 'gannet.com', { displayName: 'Gannet (domain)' });
  view.domainHandles.set('gannet.com', gannetDomain.did);
  const ternNews = actor(view, 'news.tern.com', { displayName: 'Tern News' });
  const skuaOps = actor(view, 'skua-ops.bsky.social', { displayName: 'Skua' });
  const skuaSite = actor(view, 'skua-site.bsky.social', { displayName: 'Skua site' });
  const bob = actor(view, 'bob.bsky.social', { displayName: 'Bob Stone' });
  const reactOnce = (author: Actor, rkey: string) => {
    view.feeds.set(author.handle, [{ rkey, createdAt: ago(1) }]);
    view.likes.set(`at://${author.did}/app.bsky.feed.post/${rkey}`, [{ actor: bob, createdAt: ago(0.5) }]);
  };
  reactOnce(gannetHq, 'g1');
  reactOnce(gannetDomain, 'gd1');
  reactOnce(ternNews, 't1');
  reactOnce(skuaOps, 's1');
  reactOnce(skuaSite, 'ss1');

  const status = await runSourceNow(stack, 'bluesky');
  expect(status.lastError).toBeNull();
  expect(await events()).toEqual([
    'co-gannet https://bsky.app/profile/gannet-hq.bsky.social/post/g1 Bob',
    'co-skua https://bsky.app/profile/skua-ops.bsky.social/post/s1 Bob',
    'co-tern https://bsky.app/profile/news.tern.com/post/t1 Bob',
  ]);
  // The linked account settles it: the domain is not asked, the homepage's other links are not read.
  const asked = view.requests.join('\n');
  expect(asked).not.toContain('resolveHandle');
  expect(asked).not.toContain('skua-site');
  expect(asked).not.toContain('partner.bsky.social');
});

test('a DID link is read as the account it names; a link taken off the homepage gives way to the domain’s handle', async () => {
  const tern = actor(view, 'tern.bsky.social', { did: TERN_DID, displayName: 'Tern' });
  view.feeds.set('tern.bsky.social', [{ rkey: 't2', createdAt: ago(1) }]);
  view.likes.set(`at://${tern.did}/app.bsky.feed.post/t2`, [
    { actor: actor(view, 'cara.bsky.social', { displayName: 'Cara Holt' }), createdAt: ago(0.5) },
  ]);
  site('tern.com').answer('/', {
    html: homepage({ title: 'Tern', links: [{ href: `https://bsky.app/profile/${TERN_DID}`, text: 'Bluesky' }] }),
  });
  site('gannet.com').answer('/', { etag: '"gannet-v2"', html: homepage({ title: 'Gannet', links: junkLinks }) });
  // The profiles are due again a week on.
  await stack.db.query(`UPDATE company_sites SET fetched_at = fetched_at - interval '8 days'`);
  await runSourceNow(stack, 'company-profiles');
  expect(await handles()).toEqual({
    'co-skua': 'skua-ops.bsky.social (operator)',
    'co-tern': `${TERN_DID} (homepage)`,
  });

  view.requests.length = 0;
  const status = await runSourceNow(stack, 'bluesky');
  expect(status.lastError).toBeNull();
  expect(await events()).toEqual([
    'co-gannet https://bsky.app/profile/gannet-hq.bsky.social/post/g1 Bob',
    'co-gannet https://bsky.app/profile/gannet.com/post/gd1 Bob',
    'co-skua https://bsky.app/profile/skua-ops.bsky.social/post/s1 Bob',
    'co-tern https://bsky.app/profile/news.tern.com/post/t1 Bob',
    'co-tern https://bsky.app/profile/tern.bsky.social/post/t2 Cara',
  ]);
  expect(await handles()).toMatchObject({ 'co-gannet': 'gannet.com (domain)' });
  expect(view.requests.some((r) => r.includes('resolveHandle') && r.includes('gannet.com'))).toBe(true);
  expect(view.requests.some((r) => r.includes(`getProfile?actor=${encodeURIComponent(TERN_DID)}`))).toBe(true);
});
