import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, company, createSignal, evaluateNow, ingest, person, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { greenhouseBoard, greenhouseJob } from './board-fixtures';
import { runSourceNow } from './source-runs';

let stack: Stack;
let greenhouse: VendorServer;

beforeAll(async () => {
  greenhouse = await startVendor();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `boards-api.greenhouse.io=${greenhouse.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await greenhouse?.close();
});

const runJobBoards = () => runSourceNow(stack, 'job-boards');

test('a watched company with a Greenhouse board: once a posting appears there, a job_offers lead carries every job field', async () => {
  const watched = company('board-lead', { homepageTitle: 'Board Lead Labs', metaDescription: 'Tools for builders' });
  await ingest(stack, [watched, person('board-lead-cto', watched.id, { title: 'CTO' })]);
  const linked = await call(`${stack.url}/admin/v1/companies/${watched.id}/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats: 'greenhouse', token: 'boardlead' },
  });
  expect(linked.status).toBe(200);
  greenhouse.answer('/v1/boards/boardlead/jobs?content=true', { json: greenhouseBoard([]) });
  await runJobBoards();

  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Board lead',
    status: 'active',
    config: { companies: ['board-lead.com'], targetPersonas: ['Chief Technology Officer'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  const postedAt = new Date(Date.now() - 3_600_000).toISOString();
  greenhouse.answer('/v1/boards/boardlead/jobs?content=true', {
    json: greenhouseBoard([greenhouseJob(4242, 'Staff Platform Engineer', 'Austin, TX', postedAt)]),
  });
  await runJobBoards();
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    type: 'account_watchlist',
    last_signal: 'Job Offer',
    job_offer_url: 'https://boards.greenhouse.io/acme/jobs/4242',
    job_offer_title: 'Staff Platform Engineer',
    job_offer_location: 'Austin, TX',
    job_offer_description: 'About the role\nYou will build our data platform & its APIs.\n- TypeScript\n- PostgreSQL',
    job_offer_source: 'Greenhouse',
    job_offer_date: postedAt,
    job_offer_published_date: postedAt.slice(0, 10),
  });
  expect(leads[0].company).toMatchObject({ homepage_title: 'Board Lead Labs', meta_description: 'Tools for builders' });
  expect(leads[0].contact).toMatchObject({ title: 'CTO' });

  // Polled again, the same posting makes no second lead.
  await runJobBoards();
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(1);
});
