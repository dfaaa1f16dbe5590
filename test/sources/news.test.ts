import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { articlePage, atomFeed, gdeltArtlist, rssFeed } from './news-fixtures';
import { runSourceNow } from './source-runs';

const CONTACT = 'sources-ops@leads.example.com';
const GDELT_INTERVAL_MS = 1000;
const SITES = [
  'acmerobotics.com',
  'www.acmerobotics.com',
  'betafoods.com',
  'gammalogistics.com',
  'deltaship.com',
  'kilo1.com',
  'kilo2.com',
  'kilo3.com',
  'www.techwire.com',
  'www.bizjournal.com',
];
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

let stack: Stack;
let web: VendorServer;
let gdelt: VendorServer;

/** GDELT's path for a company's search, whatever the window (the query carries the time of the request). */
const gdeltPath = (phrase: string) =>
  `/api/v2/doc/doc?${new URLSearchParams({ query: `"${phrase}" sourcelang:english` }).toString()}&*`;
const html = (text: string) => ({ text, contentType: 'text/html; charset=utf-8' });
const rss = (text: string, etag?: string) => ({ text, contentType: 'application/rss+xml', etag });

beforeAll(async () => {
  [web, gdelt] = await Promise.all([startVendor(), startVendor()]);
  stack = await startStack({
    env: {
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: [`api.gdeltproject.org=${gdelt.origin}`, ...SITES.map((site) => `${site}=${web.origin}`)].join(
        ',',
      ),
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      NEWS_GDELT_INTERVAL_MS: String(GDELT_INTERVAL_MS),
      SIGNAL_EVALUATION_INTERVAL: '1h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  const companies = [
    ['acme', 'Acme Robotics', 'acmerobotics.com'],
    ['beta', 'Beta Foods GmbH', 'betafoods.com'],
    ['gamma', 'Gamma Logistics', 'gammalogistics.com'],
    ['delta', 'Delta Shipping', 'deltaship.com'],
    ['k1', 'Kilo One', 'kilo1.com'],
    ['k2', 'Kilo Two', 'kilo2.com'],
    ['k3', 'Kilo Three', 'kilo3.com'],
  ].map(([id, name, domain]) => ({ kind: 'company', id, name, domain }));
  expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(companies.length);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([web, gdelt].map((vendor) => vendor?.close()));
});

const runNews = () => runSourceNow(stack, 'news');

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

const newsEvents = (companyId: string) =>
  stack.db.query(`SELECT id, type, occurred_at, data FROM events WHERE company_id = $1 ORDER BY occurred_at, id`, [
    companyId,
  ]) as Promise<{ id: string; type: string; occurred_at: Date; data: Record<string, string> }[]>;
const requestsTo = (vendor: VendorServer, path: string) => vendor.requests.filter((r) => r.path === path);

const seriesB = daysAgo(2);
const berlin = daysAgo(1);
const exhibitSeen = new Date(Math.floor(daysAgo(0.5).getTime() / 1000) * 1000);
const acmeFeed = rssFeed('acmerobotics.com', [
  {
    title: 'Acme Robotics raises $45M Series B to scale warehouse automation',
    link: 'https://acmerobotics.com/news/series-b?utm_source=rss&utm_medium=feed',
    description: 'Acme Robotics has raised $45 million in a Series B round led by Northwind Ventures.',
    pubDate: seriesB,
  },
  {
    title: 'Acme Robotics opens new office in Berlin',
    link: 'https://acmerobotics.com/news/berlin',
    description: 'Our first office in Germany.',
    pubDate: berlin,
  },
  {
    title: 'Our holiday reading list',
    link: 'https://acmerobotics.com/blog/reading-list',
    description: 'Ten books the team loved this year.',
    pubDate: daysAgo(3),
  },
  {
    title: 'Acme Robotics launches the Acme Arm',
    link: 'https://acmerobotics.com/news/acme-arm',
    description: 'An old launch.',
    pubDate: daysAgo(200),
  },
]);

test('RSS 2.0, Atom and GDELT give company_news events with their fields; articles not about the company or of no kind are dropped and counted; one article found twice is one event', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Acme news',
    status: 'active',
    config: { companies: ['acmerobotics.com'], sources: { company_news: { enabled: true } } },
  });
  await settled(stack, signal.id);

  await stack.services.companyFeeds.remember('acme', ['https://acmerobotics.com/feed.xml']);
  await stack.services.companyFeeds.remember('beta', ['https://betafoods.com/blog/atom.xml']);
  web.answer('/feed.xml', rss(acmeFeed, '"acme-feed-1"'));
  web.answer('/blog/atom.xml', {
    text: atomFeed('betafoods.com', [
      {
        title: 'Beta Foods appoints Jane Doe as Chief Financial Officer',
        href: 'https://betafoods.com/blog/new-cfo',
        summary: 'Jane Doe joins from Unilever.',
        published: daysAgo(1),
      },
    ]),
    contentType: 'application/atom+xml',
    lastModified: 'Tue, 24 Nov 2026 09:00:00 GMT',
  });
  // The feed links it with tracking parameters, GDELT without: one page either way.
  web.answer(
    '/news/series-b*',
    html(
      articlePage({
        site: 'Acme Robotics',
        headline: 'Acme Robotics raises $45M Series B',
        paragraphs: ['Acme Robotics has raised $45 million in a Series B round led by Northwind Ventures.'],
      }),
    ),
  );
  web.answer(
    '/news/berlin',
    html(
      articlePage({
        site: 'Acme Robotics',
        headline: 'Acme Robotics opens new office in Berlin',
        paragraphs: ['We are opening our first office in Germany, in Berlin-Mitte.'],
      }),
    ),
  );
  web.answer(
    '/blog/reading-list',
    html(articlePage({ site: 'Acme Robotics', headline: 'Our holiday reading list', paragraphs: ['Ten books.'] })),
  );
  web.answer(
    '/blog/new-cfo',
    html(
      articlePage({
        site: 'Beta Foods',
        headline: 'Beta Foods appoints Jane Doe as CFO',
        paragraphs: ['Beta Foods today named Jane Doe Chief Financial Officer.'],
      }),
    ),
  );
  web.answer(
    '/2026/11/acme-robotics-automatica',
    html(
      articlePage({
        site: 'TechWire',
        headline: 'Acme Robotics to exhibit at Automatica 2027 in Munich',
        paragraphs: ['Acme Robotics will show its picking arm at Automatica 2027 in Munich (hall B4, booth 301).'],
      }),
    ),
  );
  web.answer(
    '/2026/11/robotics-roundup',
    html(
      articlePage({
        site: 'Biz Journal',
        headline: 'Robotics roundup: the week in automation',
        paragraphs: ['Warehouse robots had a busy week.'],
      }),
    ),
  );
  gdelt.answer(gdeltPath('Acme Robotics'), {
    json: gdeltArtlist([
      {
        url: 'https://www.techwire.com/2026/11/acme-robotics-automatica',
        title: 'Acme Robotics to exhibit at Automatica 2027 in Munich',
        seen: exhibitSeen,
        domain: 'techwire.com',
      },
      // The company's own press release, seen by GDELT too: the same article as the feed's.
      {
        url: 'https://www.acmerobotics.com/news/series-b/',
        title: 'Acme Robotics raises $45M Series B to scale warehouse automation',
        seen: daysAgo(1.5),
        domain: 'acmerobotics.com',
      },
      {
        url: 'https://www.bizjournal.com/2026/11/robotics-roundup',
        title: 'Robotics roundup: the week in automation',
        seen: daysAgo(1),
        domain: 'bizjournal.com',
      },
    ]),
  });

  const status = await runNews();

  const acme = await newsEvents('acme');
  expect(acme.map((e) => e.data.news_event_type)).toEqual(['funding', 'expansion', 'event_participation']);
  expect(acme[0]).toEqual({
    id: expect.stringMatching(/^news:[0-9a-f]{64}$/),
    type: 'company_news',
    occurred_at: new Date(seriesB.toUTCString()),
    data: {
      news_event_type: 'funding',
      news_event_label: 'Funding',
      news_event_date: new Date(seriesB.toUTCString()).toISOString().slice(0, 10),
      news_headline: 'Acme Robotics raises $45M Series B to scale warehouse automation',
      news_url: 'https://acmerobotics.com/news/series-b?utm_source=rss&utm_medium=feed',
      news_title: 'Acme Robotics raises $45M Series B | Acme Robotics',
      news_summary: 'Acme Robotics has raised $45 million in a Series B round led by Northwind Ventures.',
    },
  });
  expect(acme[1]!.data).toMatchObject({
    news_event_label: 'Expansion',
    news_headline: 'Acme Robotics opens new office in Berlin',
  });
  expect(acme[2]).toMatchObject({
    occurred_at: exhibitSeen,
    data: {
      news_event_type: 'event_participation',
      news_event_label: 'Event Participation',
      news_headline: 'Acme Robotics to exhibit at Automatica 2027 in Munich',
      news_url: 'https://www.techwire.com/2026/11/acme-robotics-automatica',
      news_title: 'Acme Robotics to exhibit at Automatica 2027 in Munich | TechWire',
      news_event_name: 'Automatica 2027',
      news_event_location: 'Munich',
    },
  });
  expect(await newsEvents('beta')).toEqual([
    expect.objectContaining({
      data: expect.objectContaining({
        news_event_type: 'leadership_change',
        news_event_label: 'Leadership Change',
        news_url: 'https://betafoods.com/blog/new-cfo',
        news_summary: 'Jane Doe joins from Unilever.',
      }),
    }),
  ]);
  // The reading list names no kind, the roundup does not name the company: both dropped and counted.
  expect(status).toMatchObject({ recordsIngested: 4, recordsDropped: 2, errors: 0, lastError: null });
  const outcomes = await stack.db.query(
    `SELECT company_id, url, outcome FROM news_articles_seen WHERE outcome <> 'kept' ORDER BY url`,
  );
  expect(outcomes).toEqual([
    { company_id: 'acme', url: 'https://acmerobotics.com/blog/reading-list', outcome: 'no_kind' },
    { company_id: 'acme', url: 'https://www.bizjournal.com/2026/11/robotics-roundup', outcome: 'not_about_company' },
  ]);
  // The press release was fetched once, for the feed and GDELT together; the old entry not at all.
  expect(web.requests.filter((r) => r.path.startsWith('/news/series-b'))).toHaveLength(1);
  expect(requestsTo(web, '/news/acme-arm')).toHaveLength(0);
  // Only the company on a watchlist that asked for news is searched on GDELT, naming the service.
  expect(gdelt.requests).toHaveLength(1);
  expect(gdelt.requests[0]!.path).toContain('mode=artlist&format=json&maxrecords=50&sort=datedesc');
  for (const request of [...gdelt.requests, ...web.requests])
    expect(request.headers['user-agent']).toContain(`mailto:${CONTACT}`);
  const metrics = await stack.services.metrics.text();
  expect(metrics).toContain('intent_leads_source_records{source="news"} 4');
  expect(metrics).toContain('intent_leads_source_dropped{source="news"} 2');

  // The watchlist that asked for company news gets them as leads.
  await evaluateNow(stack, signal.id);
  const leads = await allLeads(api, signal.id);
  expect(leads.map((lead) => lead.signal.news_event_type).sort()).toEqual([
    'event_participation',
    'expansion',
    'funding',
  ]);
  expect(leads.find((lead) => lead.signal.news_event_type === 'funding').signal).toMatchObject({
    last_signal: 'Company News',
    news_headline: 'Acme Robotics raises $45M Series B to scale warehouse automation',
    news_url: 'https://acmerobotics.com/news/series-b?utm_source=rss&utm_medium=feed',
  });
});

test('a second run is conditional (304), continues the GDELT window and checks no article twice', async () => {
  const before = await stack.services.sources.get('news');
  const articleRequests = web.requests.filter((r) => !r.path.endsWith('.xml')).length;
  const feedRequests = requestsTo(web, '/feed.xml').length;
  const atomRequests = requestsTo(web, '/blog/atom.xml').length;

  const after = await runNews();

  const acmeFeed = requestsTo(web, '/feed.xml').slice(feedRequests);
  expect(acmeFeed).toHaveLength(1);
  expect(acmeFeed[0]!.headers['if-none-match']).toBe('"acme-feed-1"');
  const atom = requestsTo(web, '/blog/atom.xml').slice(atomRequests);
  expect(atom[0]!.headers['if-modified-since']).toBe('Tue, 24 Nov 2026 09:00:00 GMT');
  // GDELT lists the same articles again: each was checked before, none is fetched.
  expect(web.requests.filter((r) => !r.path.endsWith('.xml'))).toHaveLength(articleRequests);
  const [first, second] = gdelt.requests.slice(-2).map((r) => new URL(r.path, 'http://gdelt').searchParams);
  expect(second!.get('startdatetime')).toBe(first!.get('enddatetime'));
  expect(after).toMatchObject({ recordsIngested: before.recordsIngested, recordsDropped: before.recordsDropped });
  expect(await newsEvents('acme')).toHaveLength(3);
});

test('GDELT is paced at its own interval for every worker, kept in PostgreSQL under its real host', async () => {
  expect(stack.services.politeFetch.intervalOf('api.gdeltproject.org')).toBe(GDELT_INTERVAL_MS);
  expect(stack.services.politeFetch.intervalOf('acmerobotics.com')).toBe(20);
  // GDELT's next slot is set ahead: the run's one search waits for it and moves it by one interval.
  const [held] = await stack.db.query(
    `WITH held AS (
       UPDATE source_hosts SET next_allowed_at = date_trunc('milliseconds', now()) + interval '8 seconds'
       WHERE host = 'api.gdeltproject.org' RETURNING next_allowed_at)
     SELECT next_allowed_at FROM held`,
  );
  const searched = gdelt.requests.length;
  await runNews();
  expect(gdelt.requests).toHaveLength(searched + 1);
  expect(gdelt.requests[searched]!.at).toBeGreaterThanOrEqual(held.next_allowed_at.getTime());
  const hosts = await stack.db.query(`SELECT host, next_allowed_at FROM source_hosts ORDER BY host`);
  expect(hosts.find((h: { host: string }) => h.host === 'api.gdeltproject.org').next_allowed_at).toEqual(
    new Date(held.next_allowed_at.getTime() + GDELT_INTERVAL_MS),
  );
  // Pacing is keyed on the real hosts, never on where SOURCES_HOST_MAP sends them.
  expect(hosts.map((h: { host: string }) => h.host)).not.toContain(new URL(gdelt.origin).host);
});

test('a 429 with Retry-After: GDELT is asked again once it has passed, and its articles are kept', async () => {
  let asked = 0;
  gdelt.answer(gdeltPath('Acme Robotics'), () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '2' }, body: 'Please limit requests to one every 5 seconds.' }
      : {
          json: gdeltArtlist([
            {
              url: 'https://www.techwire.com/2026/11/acme-robotics-wins-dhl-contract',
              title: 'Acme Robotics wins $12M contract with DHL Supply Chain',
              seen: daysAgo(0.2),
              domain: 'techwire.com',
            },
          ]),
        },
  );
  web.answer(
    '/2026/11/acme-robotics-wins-dhl-contract',
    html(
      articlePage({
        site: 'TechWire',
        headline: 'Acme Robotics wins $12M contract with DHL',
        paragraphs: ['DHL Supply Chain has chosen Acme Robotics for 40 warehouses.'],
      }),
    ),
  );
  const before = await stack.services.sources.get('news');
  const searched = gdelt.requests.length;
  const status = await runNews();
  const requests = gdelt.requests.slice(searched);
  expect(requests).toHaveLength(2);
  expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(1900);
  expect(status.recordsIngested).toBe(before.recordsIngested + 1);
  expect((await newsEvents('acme')).map((e) => e.data.news_event_type)).toContain('contract_partnership');
});

test('a malformed feed is the source error naming it; the other companies go on; once fixed, each article is ingested once', async () => {
  await stack.services.companyFeeds.remember('gamma', ['https://gammalogistics.com/rss']);
  // The operator adds a feed as the company-profiles source does.
  const added = await call(`${stack.url}/admin/v1/companies/delta/feeds`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: { urls: ['https://deltaship.com/news/rss.xml'] },
  });
  expect(added.body).toEqual({ companyId: 'delta', feeds: ['https://deltaship.com/news/rss.xml'] });
  web.answer('/rss', rss('<rss version="2.0"><channel><title>Gamma</title><item><title>x</title></channel></rss>'));
  web.answer(
    '/news/rss.xml',
    rss(
      rssFeed('deltaship.com', [
        {
          title: 'Delta Shipping launches same-day freight for Europe',
          link: 'https://deltaship.com/news/same-day',
          description: 'Same-day freight.',
          pubDate: daysAgo(1),
        },
      ]),
    ),
  );
  web.answer(
    '/news/same-day',
    html(
      articlePage({
        site: 'Delta Shipping',
        headline: 'Delta Shipping launches same-day freight',
        paragraphs: ['Delta Shipping launches same-day freight.'],
      }),
    ),
  );
  const before = await stack.services.sources.get('news');
  const failed = await runNews();
  expect(failed.lastError).toMatch(
    /^feed https:\/\/gammalogistics\.com\/rss of company "gamma": not well-formed XML: .*\(line \d+\)$/,
  );
  expect(failed.errors).toBe(before.errors + 1);
  expect(await newsEvents('delta')).toHaveLength(1);
  expect(await newsEvents('gamma')).toEqual([]);
  expect((await stack.services.companyFeeds.list('gamma'))[0]!.lastError).toMatch(/not well-formed XML/);

  web.answer(
    '/rss',
    rss(
      rssFeed('gammalogistics.com', [
        {
          title: 'Gamma Logistics acquires Fastlane Couriers',
          link: 'https://gammalogistics.com/press/fastlane',
          description: 'Gamma Logistics has agreed to acquire Fastlane Couriers.',
          pubDate: daysAgo(1),
        },
      ]),
    ),
  );
  web.answer(
    '/press/fastlane',
    html(
      articlePage({
        site: 'Gamma Logistics',
        headline: 'Gamma Logistics acquires Fastlane Couriers',
        paragraphs: ['Gamma Logistics has agreed to acquire Fastlane Couriers.'],
      }),
    ),
  );
  const fixedBefore = (await stack.services.sources.get('news')).recordsIngested;
  await runNews();
  const fixed = await runNews();
  // The deal article is news and, beside it, the deal: Gamma is the grammatical subject of "acquires".
  expect(fixed.recordsIngested).toBe(fixedBefore + 2);
  expect((await newsEvents('gamma')).map((e) => [e.type, e.data.news_event_type ?? e.data.watchlist_role])).toEqual([
    ['company_news', 'mergers_acquisitions'],
    ['mergers_acquisitions', 'acquirer'],
  ]);
  expect((await stack.services.companyFeeds.list('gamma'))[0]!.lastError).toBeNull();
});

test('a sync killed mid-run resumes from its cursor and ingests nothing twice', async () => {
  for (const id of ['k1', 'k2', 'k3']) {
    const site = `kilo${id.slice(1)}.com`;
    await stack.services.companyFeeds.remember(id, [`https://${site}/${id}/feed.xml`]);
    web.answer(
      `/${id}/feed.xml`,
      rss(
        rssFeed(site, [
          {
            title: `Kilo ${id} opens new office in Lisbon`,
            link: `https://${site}/${id}/lisbon`,
            description: 'Lisbon office.',
            pubDate: daysAgo(1),
          },
        ]),
      ),
    );
    web.answer(
      `/${id}/lisbon`,
      html(articlePage({ site, headline: 'New office in Lisbon', paragraphs: [`${site} opens an office in Lisbon.`] })),
    );
  }
  let release!: () => void;
  web.answer('/k2/feed.xml', { hold: new Promise<void>((resolve) => (release = resolve)) });

  const before = await stack.services.sources.get('news');
  await call(`${stack.url}/admin/v1/sources/news/run`, { method: 'POST', token: TEST_ADMIN_TOKEN });
  await waitFor(() => web.requests.some((r) => r.path === '/k2/feed.xml'), 60_000);
  const scheduled = await stack.temporal.schedule.getHandle(stack.services.sources.schedules.idOf('news')).describe();
  const running = scheduled.info.runningActions[0]!.workflow;
  await stack.temporal.workflow.getHandle(running.workflowId).terminate('killed mid-run by the test');
  expect((await stack.services.sources.get('news')).running).toBe(true);

  web.answer(
    '/k2/feed.xml',
    rss(
      rssFeed('kilo2.com', [
        {
          title: 'Kilo k2 opens new office in Lisbon',
          link: 'https://kilo2.com/k2/lisbon',
          description: 'Lisbon office.',
          pubDate: daysAgo(1),
        },
      ]),
    ),
  );
  release();
  // The killed run's last activity still finishes its company; the cursor is then past it.
  await waitFor(async () => {
    const [row] = await stack.db.query(`SELECT state FROM sources WHERE name = 'news'`);
    return row.state.cursor === 'k2';
  });

  const resumed = await runNews();
  expect(requestsTo(web, '/k1/feed.xml')).toHaveLength(1);
  expect(requestsTo(web, '/k3/feed.xml')).toHaveLength(1);
  for (const id of ['k1', 'k2', 'k3']) {
    expect((await newsEvents(id)).map((e) => e.data.news_event_type)).toEqual(['expansion']);
    expect(requestsTo(web, `/${id}/lisbon`)).toHaveLength(1);
  }
  expect(resumed.recordsIngested).toBe(before.recordsIngested + 3);
});

test('bad feed requests get the error envelope and change nothing; a company keeps at most 5 feeds', async () => {
  const add = (companyId: string, body: unknown, token = TEST_ADMIN_TOKEN) =>
    call(`${stack.url}/admin/v1/companies/${companyId}/feeds`, { method: 'POST', token, body });
  const stored = () => stack.db.query(`SELECT company_id, url FROM company_feeds ORDER BY company_id, url`);
  const before = await stored();

  expect((await add('beta', { urls: ['https://betafoods.com/rss'] }, 'wrong-token')).status).toBe(401);
  const notHttp = await add('beta', { urls: ['https://betafoods.com/rss', 'ftp://betafoods.com/feed'] });
  expect(notHttp.status).toBe(422);
  expect(notHttp.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'urls[1]: must be an http(s) URL' });
  expect((await add('beta', { urls: [] })).status).toBe(422);
  expect((await add('beta', { feeds: ['https://betafoods.com/rss'] })).status).toBe(422);
  const unknown = await add('nobody', { urls: ['https://nobody.com/rss'] });
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Company not found' });
  expect(await stored()).toEqual(before);

  // Found feeds: what is not a feed URL and a comments feed are left out, the rest kept up to 5.
  const many = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `https://betafoods.com/${name}.xml`);
  await stack.services.companyFeeds.remember('beta', [
    'feed://betafoods.com/rss',
    'https://betafoods.com/comments/feed/',
    ...many.slice(0, 3),
  ]);
  const full = await stack.services.companyFeeds.remember('beta', [...many.slice(0, 3), ...many.slice(3)]);
  expect(full).toEqual(['https://betafoods.com/blog/atom.xml', ...many.slice(0, 4)]);
});
