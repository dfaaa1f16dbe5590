import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startSite, siteHostMap, type SiteServer } from './site-servers';
import { homepage, snippets } from './site-fixtures';
import { runSourceNow } from './source-runs';

const CONTACT = 'profiles-ops@leads.example.com';
const SOURCE = 'company-profiles';
let stack: Stack;
let sites: Record<string, SiteServer>;
const site = (domain: string) => sites[domain]!;

const acmeHome = (title: string) =>
  homepage({
    title,
    description: 'Acme builds data pipelines',
    ogDescription: 'Pipelines for every data team',
    feeds: [
      { href: '/blog/rss.xml', type: 'application/rss+xml', title: 'Acme blog' },
      { href: 'https://acme-site.com/changelog/atom.xml', type: 'application/atom+xml', title: 'Changelog' },
    ],
    head: [snippets.tagManager, snippets.hubspot, snippets.intercom, snippets.stripe, snippets.nextJs],
    links: [
      { href: '/pricing', text: 'Pricing' },
      { href: '/private/investors', text: 'Investors' },
      { href: '/careers', text: 'Careers' },
    ],
  });

beforeAll(async () => {
  const domains = ['acme-site.com', 'closed-site.com', 'shy-site.com', 'missing-site.com', 'broken-site.com'];
  const more = ['huge-site.com', 'opco-site.com', 'late-site.com', 'moved-site.com', 'parked-site.com'];
  const others = ['flaky-site.com', 'www-only-site.com'];
  sites = Object.fromEntries(
    await Promise.all([...domains, ...more, ...others].map(async (d) => [d, await startSite()])),
  );
  // Nothing listens on the bare name of www-only-site.com (port 1 refuses): its site is on www. only.
  const bareRefused = `www-only-site.com=http://127.0.0.1:1,www.www-only-site.com=${site('www-only-site.com').origin}`;
  const { 'www-only-site.com': _wwwOnly, ...mapped } = sites;
  stack = await startStack({
    env: {
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `${siteHostMap(mapped)},${bareRefused}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_MAX_RESPONSE_BYTES: '300000',
      // Runs only when the test asks (a scheduled one would share its servers).
      COMPANY_PROFILES_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);

  site('acme-site.com').answer('/robots.txt', { text: 'User-agent: *\nDisallow: /private\n' });
  site('acme-site.com').answer('/', { html: acmeHome('Acme — pipelines for data teams'), etag: '"home-v1"' });
  site('acme-site.com').answer('/careers', {
    html: homepage({ title: 'Careers at Acme', head: [snippets.greenhouseEmbed('acmesite')] }),
  });
  site('closed-site.com').answer('/robots.txt', {
    text: 'User-agent: intent-leads-sources\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
  });
  site('closed-site.com').answer('/', { html: homepage({ title: 'Closed' }) });
  site('shy-site.com').answer('/robots.txt', { text: 'User-agent: intent-leads-sources\nDisallow: /jobs\n' });
  site('shy-site.com').answer('/', {
    html: homepage({ title: 'Shy Inc', links: [{ href: '/jobs', text: 'Jobs' }], head: [snippets.segment] }),
  });
  site('broken-site.com').answer('/', {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"maintenance": true}',
  });
  site('huge-site.com').answer('/', { html: homepage({ title: 'Huge', head: [`<!-- ${'x'.repeat(400_000)} -->`] }) });
  site('flaky-site.com').answer('/robots.txt', { status: 503, body: 'Service Unavailable' });
  site('flaky-site.com').answer('/', { html: homepage({ title: 'Flaky' }) });
  site('opco-site.com').answer('/', {
    html: homepage({ title: 'OpCo', links: [{ href: 'https://boards.greenhouse.io/opco-gh', text: 'Open roles' }] }),
  });

  const companies = [
    {
      kind: 'company',
      id: 'acme',
      name: 'Acme',
      domain: 'acme-site.com',
      description: 'Acme, as the data provider describes it',
      techStack: ['Salesforce'],
    },
    ...['closed', 'shy', 'missing', 'broken', 'huge', 'opco', 'flaky'].map((id) => ({
      kind: 'company',
      id,
      name: id,
      domain: `${id}-site.com`,
    })),
    { kind: 'company', id: 'nodomain', name: 'No Domain Ltd' },
  ];
  expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(companies.length);
  const operator = await call(`${stack.url}/admin/v1/companies/opco/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats: 'lever', token: 'opco' },
  });
  expect(operator.status).toBe(200);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all(Object.values(sites ?? {}).map((s) => s.close()));
});

const runSource = () => runSourceNow(stack, SOURCE);

const companyRow = async (id: string) =>
  (
    await stack.db.query(
      `SELECT homepage_title, meta_description, description, tech_stack FROM companies WHERE id = $1`,
      [id],
    )
  )[0];
const siteStatus = (id: string) => call(`${stack.url}/admin/v1/companies/${id}/site`, { token: TEST_ADMIN_TOKEN });
const allPaths = () => Object.fromEntries(Object.entries(sites).map(([domain, s]) => [domain, s.paths()]));

test('a run profiles each company with a domain: title, descriptions, technologies, feeds and board; robots.txt and failures are its status', async () => {
  const status = await runSource();

  expect(await companyRow('acme')).toEqual({
    homepage_title: 'Acme — pipelines for data teams',
    meta_description: 'Acme builds data pipelines',
    // The provider's description stays; the site's fills only an empty one.
    description: 'Acme, as the data provider describes it',
    tech_stack: [
      'Salesforce',
      'Google Tag Manager',
      'HubSpot Marketing Hub',
      'Intercom',
      'Stripe',
      'Next.js',
      'React',
      'Greenhouse',
    ],
  });
  const acme = await siteStatus('acme');
  expect(acme.status).toBe(200);
  expect(acme.body).toMatchObject({
    outcome: 'profiled',
    homeUrl: 'https://acme-site.com/',
    careersUrl: 'https://acme-site.com/careers',
    description: 'Pipelines for every data team',
    feedUrls: ['https://acme-site.com/blog/rss.xml', 'https://acme-site.com/changelog/atom.xml'],
    ats: 'greenhouse',
    boardToken: 'acmesite',
    lastProblem: null,
  });
  expect(await stack.services.companyProfiles.feedsOf('acme')).toEqual(acme.body.feedUrls);
  expect(await stack.services.companyProfiles.discoveredFeeds()).toEqual([
    { companyId: 'acme', feedUrls: acme.body.feedUrls },
  ]);
  // The discovered board joins the job-boards source (polled at its own phase, or at the operator's run now);
  // the operator's board at OpCo stays the only one there.
  expect(
    await stack.db.query(`SELECT company_id, ats, token, found_by FROM company_job_boards ORDER BY company_id`),
  ).toEqual([
    { company_id: 'acme', ats: 'greenhouse', token: 'acmesite', found_by: 'company-profiles' },
    { company_id: 'opco', ats: 'lever', token: 'opco', found_by: 'operator' },
  ]);
  await stack.services.jobBoards.dueNow();
  expect((await stack.services.jobBoards.items(null)).items).toEqual(['greenhouse:acmesite', 'lever:opco']);
  expect((await siteStatus('opco')).body).toMatchObject({ ats: 'greenhouse', boardToken: 'opco-gh' });

  // robots.txt first; a disallowed page is never asked for.
  expect(allPaths()).toMatchObject({
    'acme-site.com': ['/robots.txt', '/', '/careers'],
    'closed-site.com': ['/robots.txt'],
    'shy-site.com': ['/robots.txt', '/'],
    'missing-site.com': ['/robots.txt', '/'],
    'flaky-site.com': ['/robots.txt'],
  });
  for (const s of Object.values(sites)) {
    for (const request of s.requests)
      expect(request.headers['user-agent']).toBe(`intent-leads-sources/1 (+mailto:${CONTACT})`);
  }
  expect((await siteStatus('closed')).body).toMatchObject({
    outcome: 'disallowed',
    lastProblem: 'https://closed-site.com/robots.txt disallows https://closed-site.com/ for our User-Agent: not read',
  });
  expect((await siteStatus('shy')).body).toMatchObject({
    outcome: 'profiled',
    homepageTitle: 'Shy Inc',
    techStack: ['Segment'],
    careersUrl: 'https://shy-site.com/jobs',
    lastProblem:
      'careers page: https://shy-site.com/robots.txt disallows https://shy-site.com/jobs for our User-Agent: not read',
  });
  expect((await siteStatus('missing')).body).toMatchObject({
    outcome: 'problem',
    lastProblem: 'https://missing-site.com/ answered 404',
  });
  // A robots.txt that cannot be read closes the site until it can: tried again the next day.
  expect((await siteStatus('flaky')).body).toMatchObject({
    outcome: 'problem',
    lastProblem:
      'https://flaky-site.com/robots.txt could not be read (answered 503): the site is not read until it can be',
  });
  expect((await siteStatus('broken')).body).toMatchObject({
    outcome: 'problem',
    lastProblem: 'https://broken-site.com/: the answer is not an HTML page',
  });
  // A page over the cap is cut there, not refused: its head is what is read.
  expect((await siteStatus('huge')).body).toMatchObject({ outcome: 'profiled', homepageTitle: 'Huge' });
  for (const id of ['closed', 'missing', 'broken', 'flaky']) {
    expect(await companyRow(id)).toEqual({
      homepage_title: null,
      meta_description: null,
      description: null,
      tech_stack: [],
    });
  }
  expect((await siteStatus('nodomain')).status).toBe(404);

  expect(status).toMatchObject({ recordsIngested: 4, errors: 4 });
  expect(status.lastError).toBe('company "missing" (missing-site.com): https://missing-site.com/ answered 404');
});

test('before a profile is due nothing is read again and nothing is counted twice', async () => {
  const before = allPaths();
  const status = await runSource();
  expect(allPaths()).toEqual(before);
  expect(status).toMatchObject({ recordsIngested: 4, errors: 4 });
});

test('weekly refresh: a page unchanged answers 304 and keeps the profile; a changed page updates it', async () => {
  const acme = site('acme-site.com');
  const weekAgo = () =>
    stack.db.query(`UPDATE company_sites SET fetched_at = now() - interval '8 days' WHERE company_id = 'acme'`);
  await weekAgo();
  const seen = acme.requests.length;
  let status = await runSource();
  const refresh = acme.requests.slice(seen);
  // robots.txt is still fresh (24 hours); the homepage is asked conditionally.
  expect(refresh.map((r) => r.path)).toEqual(['/', '/careers']);
  expect(refresh[0]!.headers['if-none-match']).toBe('"home-v1"');
  expect(status.recordsIngested).toBe(4);
  expect((await companyRow('acme')).homepage_title).toBe('Acme — pipelines for data teams');
  expect((await siteStatus('acme')).body).toMatchObject({ boardToken: 'acmesite', feedUrls: expect.any(Array) });

  acme.answer('/', { html: acmeHome('Acme — the data pipeline company'), etag: '"home-v2"' });
  // Read a moment ago: the change waits for the next weekly read.
  await runSource();
  expect((await companyRow('acme')).homepage_title).toBe('Acme — pipelines for data teams');
  await weekAgo();
  status = await runSource();
  expect((await companyRow('acme')).homepage_title).toBe('Acme — the data pipeline company');
  expect(status.recordsIngested).toBe(5);
  expect((await companyRow('acme')).tech_stack[0]).toBe('Salesforce');
});

test('a company entering the store is profiled on the next run; a failed site is tried again the next day', async () => {
  site('late-site.com').answer('/', {
    html: homepage({ title: 'Late Labs', ogDescription: 'Late Labs makes calendars', head: [snippets.linkedIn] }),
  });
  await stack.services.ingestion.ingest([
    { kind: 'company', id: 'late', name: 'Late Labs', domain: 'late-site.com' },
    // The demo's companies have made-up domains, maybe someone's real site: never read.
    { kind: 'company', id: 'demo-company-9001', name: 'Demo Co', domain: 'demo-co-made-up.com' },
  ]);
  site('missing-site.com').answer('/', { html: homepage({ title: 'Missing, now found' }) });
  await runSource();
  expect(await companyRow('late')).toEqual({
    homepage_title: 'Late Labs',
    meta_description: null,
    description: 'Late Labs makes calendars',
    tech_stack: ['LinkedIn Ads'],
  });
  expect((await siteStatus('demo-company-9001')).status).toBe(404);
  // Not yet a day since it failed: not asked.
  expect((await companyRow('missing')).homepage_title).toBeNull();
  await stack.db.query(
    `UPDATE company_sites SET fetched_at = now() - interval '25 hours' WHERE company_id = 'missing'`,
  );
  await runSource();
  expect((await companyRow('missing')).homepage_title).toBe('Missing, now found');
  expect((await siteStatus('missing')).body).toMatchObject({ outcome: 'profiled', lastProblem: null });
});

test('redirects are followed within the company site only; a domain that sends elsewhere is not profiled', async () => {
  site('moved-site.com').answer('/', { status: 301, headers: { location: 'https://www.moved-site.com/en/' } });
  site('moved-site.com').answer('/en/', {
    html: homepage({ title: 'Moved Inc', links: [{ href: 'careers', text: 'Careers' }] }),
  });
  site('moved-site.com').answer('/en/careers', {
    html: homepage({ title: 'Careers', links: [{ href: 'https://jobs.lever.co/moved', text: 'Jobs' }] }),
  });
  site('parked-site.com').answer('/', { status: 302, headers: { location: 'https://domains.example.net/?d=parked' } });
  site('www-only-site.com').answer('/', { html: homepage({ title: 'WWW Only' }) });
  await stack.services.ingestion.ingest([
    { kind: 'company', id: 'moved', name: 'Moved', domain: 'moved-site.com' },
    { kind: 'company', id: 'parked', name: 'Parked', domain: 'parked-site.com' },
    { kind: 'company', id: 'wwwonly', name: 'WWW Only', domain: 'www-only-site.com' },
  ]);
  await runSource();
  expect(site('moved-site.com').paths()).toEqual(['/robots.txt', '/', '/robots.txt', '/en/', '/en/careers']);
  expect((await siteStatus('moved')).body).toMatchObject({
    outcome: 'profiled',
    homepageTitle: 'Moved Inc',
    careersUrl: 'https://www.moved-site.com/en/careers',
    ats: 'lever',
    boardToken: 'moved',
  });
  expect((await siteStatus('wwwonly')).body).toMatchObject({
    outcome: 'profiled',
    homeUrl: 'https://www.www-only-site.com/',
    homepageTitle: 'WWW Only',
  });
  expect(site('parked-site.com').paths()).toEqual(['/robots.txt', '/']);
  expect((await siteStatus('parked')).body).toMatchObject({
    outcome: 'problem',
    lastProblem: 'https://parked-site.com/ leads to another site (https://domains.example.net/?d=parked): not read',
  });
});
