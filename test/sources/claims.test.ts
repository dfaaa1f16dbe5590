import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  allLeads,
  balanceOf,
  client,
  createSignal,
  evaluateNow,
  expectStatus,
  ingest,
  settled,
  type Client,
} from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { greenhouseBoard, greenhouseJob } from './board-fixtures';
import { startSite, siteHostMap, type SiteServer } from './site-servers';
import { homepage } from './site-fixtures';
import { articlePage, rssFeed } from './news-fixtures';
import { runSourceNow } from './source-runs';

/**
 * Issue 31, finding 3 (docs/decisions/claims.md): a watchlist entry is its account's claim. An
 * attacker's draft watchlist names "Stripe" at a domain of its own whose site links a feed and
 * a job board; another account's name-only entry "Stripe" and its market-wide hiring signal
 * get nothing from it and pay nothing, the operator's "Stripe" keeps its name and fields, and
 * the attacker's own watchlist still gets its site's events.
 */

const ATTACKER = 'attacker-payments.com';
const VICTIM = 'victim-payroll.com';
const CLAIMED = `site:${ATTACKER}`;
const BOARD = '/v1/boards/stripe/jobs?content=true';
const HOUR_MS = 3_600_000;

let stack: Stack;
let greenhouse: VendorServer;
let gdelt: VendorServer;
let attackerSite: SiteServer;
let victimSite: SiteServer;
let stripeSite: SiteServer;
let attacker: Client;
let other: Client;
let attackerId: string;
let draftId: string;

const run = (source: string) => runSourceNow(stack, source);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();
const companyRow = async (id: string) =>
  (
    await stack.db.query(
      `SELECT name, provenance, description, homepage_title, meta_description FROM companies WHERE id = $1`,
      [id],
    )
  )[0];

beforeAll(async () => {
  [greenhouse, gdelt, attackerSite, victimSite, stripeSite] = await Promise.all([
    startVendor(),
    startVendor(),
    startSite(),
    startSite(),
    startSite(),
  ]);
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: [
        `boards-api.greenhouse.io=${greenhouse.origin}`,
        `api.gdeltproject.org=${gdelt.origin}`,
        siteHostMap({ [ATTACKER]: attackerSite, [VICTIM]: victimSite, 'stripe.com': stripeSite }),
      ].join(','),
      SOURCES_HOST_INTERVAL_MS: '20',
      NEWS_GDELT_INTERVAL_MS: '200',
      COMPANY_PROFILES_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  gdelt.answer('/api/v2/doc/doc?*', { json: {} });

  // The attacker's site: its homepage speaks for "Stripe", links a newsroom feed and a board.
  attackerSite.answer('/', {
    html: homepage({
      title: 'Stripe — Call +1-555-0100 to verify your Stripe account',
      description: 'Call +1-555-0100 to verify your Stripe account',
      feeds: [{ href: '/feed.xml', type: 'application/rss+xml', title: 'Stripe newsroom' }],
      links: [{ href: '/careers', text: 'Careers' }],
    }),
  });
  attackerSite.answer('/careers', {
    html: homepage({
      title: 'Careers at Stripe',
      links: [{ href: 'https://boards.greenhouse.io/stripe', text: 'Open roles' }],
    }),
  });
  const article = `https://${ATTACKER}/news/series-b`;
  attackerSite.answer('/feed.xml', {
    status: 200,
    headers: { 'content-type': 'application/rss+xml' },
    body: rssFeed(ATTACKER, [
      {
        title: 'Stripe raises $50 million in Series B funding',
        link: article,
        description: 'Stripe raised $50 million in a Series B round.',
        pubDate: new Date(Date.now() - 2 * HOUR_MS),
      },
    ]),
  });
  attackerSite.answer('/news/series-b', {
    html: articlePage({
      site: ATTACKER,
      headline: 'Stripe raises $50 million in Series B funding',
      paragraphs: [
        `Stripe (${ATTACKER}) announced today that it raised $50 million in a Series B funding round.`,
        'The round was led by Example Ventures.',
      ],
      published: new Date(Date.now() - 2 * HOUR_MS),
    }),
  });
  // Five postings in a week: job offers and a recruitment campaign.
  greenhouse.answer(BOARD, {
    json: greenhouseBoard(
      [1, 2, 3, 4, 5].map((n) => greenhouseJob(7400 + n, `Software Engineer ${n}`, 'Dublin, Ireland', hoursAgo(n))),
    ),
  });
  victimSite.answer('/', { html: homepage({ title: 'Victim Payroll — payroll for everyone' }) });
  // stripe.com answers nothing at first (a 404 homepage is a problem, tried again a day later).

  const attackerAccount = await createAccount(stack, { credits: 100, name: 'Attacker' });
  attackerId = attackerAccount.accountId;
  attacker = client(stack, attackerAccount);
  other = client(stack, await createAccount(stack, { credits: 100, name: 'Other' }));
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([greenhouse, gdelt, attackerSite, victimSite, stripeSite].map((server) => server?.close()));
});

test('a draft watchlist entry naming "Stripe" at its own domain makes a claimed company that no other account’s name-only entry, hiring signal, preview or search reaches', async () => {
  await ingest(stack, [
    {
      kind: 'company',
      id: 'co-stripe',
      name: 'Stripe',
      domain: 'stripe.com',
      industry: 'Financial Services',
      description: 'Financial infrastructure for the internet',
    },
  ]);
  const draft = await createSignal(attacker, 'account-watchlist', {
    name: 'Plant',
    status: 'draft',
    config: { companies: [{ name: 'Stripe', domain: ATTACKER }], sources: { company_news: { enabled: true } } },
  });
  draftId = draft.id;
  const watchlist = await createSignal(other, 'account-watchlist', {
    name: 'Stripe watch',
    status: 'active',
    config: { companies: ['Stripe'], sources: { company_news: { enabled: true } } },
  });
  const hiring = await createSignal(other, 'hiring', {
    name: 'Engineers hired',
    status: 'active',
    config: { keywords: ['Software Engineer'] },
  });
  await Promise.all([settled(stack, watchlist.id), settled(stack, hiring.id)]);

  await run('company-profiles');
  await run('job-boards');
  await run('news');

  // The attack's material is in the store, under a company named by its domain, claimed by the attacker alone.
  expect(
    await stack.db.query(
      `SELECT type, count(*)::int AS n FROM events WHERE company_id = $1 GROUP BY type ORDER BY type`,
      [CLAIMED],
    ),
  ).toEqual([
    { type: 'company_news', n: 1 },
    { type: 'job_offers', n: 5 },
    { type: 'recruitment_campaign', n: 1 },
  ]);
  expect(await companyRow(CLAIMED)).toMatchObject({
    name: ATTACKER,
    provenance: 'claimed',
    homepage_title: 'Stripe — Call +1-555-0100 to verify your Stripe account',
  });
  // The operator sees why: the company is claimed, by the attacker, as "Stripe".
  const view = await call(`${stack.url}/admin/v1/companies/${encodeURIComponent(CLAIMED)}/site`, {
    token: TEST_ADMIN_TOKEN,
  });
  expect(view.body).toMatchObject({
    provenance: 'claimed',
    claims: [{ accountId: attackerId, claimedName: 'Stripe' }],
  });
  expect(view.body.claims).toHaveLength(1);
  // The operator's Stripe keeps its name and fields.
  expect(await companyRow('co-stripe')).toEqual({
    name: 'Stripe',
    provenance: 'trusted',
    description: 'Financial infrastructure for the internet',
    homepage_title: null,
    meta_description: null,
  });

  await evaluateNow(stack, watchlist.id);
  await evaluateNow(stack, hiring.id);
  expect(await allLeads(other, watchlist.id)).toEqual([]);
  expect(await allLeads(other, hiring.id)).toEqual([]);
  expect(await balanceOf(other)).toBe(100);
  expect(await balanceOf(attacker)).toBe(100);

  // Nor does the other account's cost preview, company search or enrichment see the claimed company.
  const preview = expectStatus(
    await other.post('/signals/preview', { signalTypeId: 'hiring', config: { keywords: ['Software Engineer'] } }),
    200,
  );
  expect({ matching: preview.matchingEvents, leads: preview.expectedLeads }).toEqual({ matching: 0, leads: 0 });
  const namePreview = expectStatus(
    await other.post('/signals/preview', {
      signalTypeId: 'account_watchlist',
      config: { companies: ['Stripe'], sources: { company_news: { enabled: true } } },
    }),
    200,
  );
  expect(namePreview.expectedLeads).toBe(0);
  const search = expectStatus(await other.get('/companies/search?q=stripe'), 200);
  expect(search.items.map((c: { name: string }) => c.name)).toEqual(['Stripe']);
  const searchDomain = expectStatus(await other.get(`/companies/search?q=${ATTACKER}`), 200);
  expect(searchDomain.total).toBe(0);
});

test('the claimant’s own watchlist still gets its claimed site’s events, under the name its entry gave', async () => {
  expectStatus(await attacker.patch(`/signals/${draftId}`, { status: 'active' }), 200);
  await settled(stack, draftId);
  const leads = await allLeads(attacker, draftId);
  expect(leads.map((lead) => lead.signal.last_signal).sort()).toEqual([
    'Company News',
    'Job Offer',
    'Job Offer',
    'Job Offer',
    'Job Offer',
    'Job Offer',
    'Recruitment Campaign',
  ]);
  expect(new Set(leads.map((lead) => lead.company.name))).toEqual(new Set(['Stripe']));
  expect(leads[0].company.website).toBe(`https://${ATTACKER}`);
  expect(await balanceOf(attacker)).toBe(100 - 7 * 3);
});

test('an entry naming a domain nobody holds does not name the company after the claim, and GDELT is never searched by the claimed name', async () => {
  const signal = await createSignal(attacker, 'account-watchlist', {
    name: 'Rename',
    status: 'active',
    config: { companies: [{ name: 'Evil Corp', domain: VICTIM }], sources: { company_news: { enabled: true } } },
  });
  await settled(stack, signal.id);
  await run('company-profiles');
  await run('news');
  expect(await companyRow(`site:${VICTIM}`)).toMatchObject({
    name: VICTIM,
    provenance: 'claimed',
    homepage_title: 'Victim Payroll — payroll for everyone',
  });
  const searched = gdelt.requests.map((request) => new URL(request.path, gdelt.origin).searchParams.get('query'));
  expect(searched).toContain(`"${VICTIM}" sourcelang:english`);
  expect(searched.filter((query) => /evil/i.test(query ?? ''))).toEqual([]);

  // A trusted record of the same domain corroborates it: trusted, under the record's name.
  await ingest(stack, [{ kind: 'company', id: 'co-victim', name: 'Victim Payroll', domain: VICTIM }]);
  await run('company-profiles');
  expect(await companyRow(`site:${VICTIM}`)).toMatchObject({ name: 'Victim Payroll', provenance: 'trusted' });
});

test('a board only the claimed site linked goes to the trusted company whose own site links it', async () => {
  expect(await boardHolder()).toBe(CLAIMED);
  stripeSite.answer('/', {
    html: homepage({
      title: 'Stripe | Financial Infrastructure',
      links: [{ href: 'https://boards.greenhouse.io/stripe', text: 'Jobs' }],
    }),
  });
  await stack.db.query(
    `UPDATE company_sites SET fetched_at = now() - interval '2 days' WHERE company_id = 'co-stripe'`,
  );
  await run('company-profiles');
  expect(await boardHolder()).toBe('co-stripe');
});

const boardHolder = async () =>
  (await stack.db.query(`SELECT company_id FROM company_job_boards WHERE ats = 'greenhouse' AND token = 'stripe'`))[0]
    ?.company_id;
