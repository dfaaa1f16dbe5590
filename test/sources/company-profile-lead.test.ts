import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { greenhouseBoard, greenhouseJob } from './board-fixtures';
import { startSite, siteHostMap, type SiteServer } from './site-servers';
import { homepage, snippets } from './site-fixtures';
import { runSourceNow } from './source-runs';

let stack: Stack;
let greenhouse: VendorServer;
let site: SiteServer;
const BOARD = '/v1/boards/hiringsite/jobs?content=true';

beforeAll(async () => {
  [greenhouse, site] = await Promise.all([startVendor(), startSite()]);
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `boards-api.greenhouse.io=${greenhouse.origin},${siteHostMap({ 'hiring-site.com': site })}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      COMPANY_PROFILES_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([greenhouse?.close(), site?.close()]);
});

const run = (source: string) => runSourceNow(stack, source);

test('a watched company whose site links a Greenhouse board: once a posting appears there, a job_offers lead with every job field and the site’s title, description and technologies', async () => {
  site.answer('/', {
    html: homepage({
      title: 'Hiring Site — payroll for remote teams',
      description: 'Payroll and benefits for remote teams in 40 countries',
      ogDescription: 'Hiring Site pays remote teams everywhere',
      head: [snippets.segment, snippets.intercom, snippets.stripe],
      links: [{ href: '/company/careers', text: 'Careers' }],
    }),
  });
  site.answer('/company/careers', {
    html: homepage({
      title: 'Careers — Hiring Site',
      links: [{ href: 'https://boards.greenhouse.io/hiringsite', text: 'See open roles' }],
    }),
  });
  greenhouse.answer(BOARD, { json: greenhouseBoard([]) });

  // Watching the domain is all it takes: nothing about the company is ingested.
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Hiring Site watch',
    status: 'active',
    config: { companies: [{ name: 'Hiring Site', domain: 'hiring-site.com' }] },
  });
  await settled(stack, signal.id);

  await run('company-profiles');
  expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt', '/', '/company/careers']);
  expect(await stack.db.query(`SELECT ats, token, company_id, found_by FROM company_job_boards`)).toEqual([
    { ats: 'greenhouse', token: 'hiringsite', company_id: 'site:hiring-site.com', found_by: 'company-profiles' },
  ]);
  await run('job-boards');
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  const postedAt = new Date(Date.now() - 3_600_000).toISOString();
  greenhouse.answer(BOARD, {
    json: greenhouseBoard([greenhouseJob(7310, 'Payroll Operations Lead', 'Lisbon, Portugal', postedAt)]),
  });
  await run('job-boards');
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    type: 'account_watchlist',
    last_signal: 'Job Offer',
    job_offer_url: 'https://boards.greenhouse.io/acme/jobs/7310',
    job_offer_title: 'Payroll Operations Lead',
    job_offer_location: 'Lisbon, Portugal',
    job_offer_description: 'About the role\nYou will build our data platform & its APIs.\n- TypeScript\n- PostgreSQL',
    job_offer_source: 'Greenhouse',
    job_offer_date: postedAt,
    job_offer_published_date: postedAt.slice(0, 10),
  });
  expect(leads[0].company).toMatchObject({
    name: 'Hiring Site',
    website: 'https://hiring-site.com',
    homepage_title: 'Hiring Site — payroll for remote teams',
    meta_description: 'Payroll and benefits for remote teams in 40 countries',
    description: 'Hiring Site pays remote teams everywhere',
    tech_stack: ['Segment', 'Intercom', 'Stripe', 'Greenhouse'],
  });

  // Polled again, and the site read again a week later: the same posting makes no second lead.
  await stack.db.query(`UPDATE company_sites SET fetched_at = now() - interval '8 days'`);
  await run('company-profiles');
  await run('job-boards');
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(1);
});
