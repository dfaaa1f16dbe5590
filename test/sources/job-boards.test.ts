import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startVendor, type VendorServer } from './vendors';
import { ashbyBoard, ashbyJob, greenhouseBoard, greenhouseJob, leverPosting } from './board-fixtures';
import { runSourceNow } from './source-runs';

const CONTACT = 'sources-ops@leads.example.com';
let stack: Stack;
let greenhouse: VendorServer;
let lever: VendorServer;
let ashby: VendorServer;

const ghPath = (token: string) => `/v1/boards/${token}/jobs?content=true`;
const leverPath = (site: string) => `/v0/postings/${site}?mode=json`;
const ashbyPath = (name: string) => `/posting-api/job-board/${name}?includeCompensation=true`;

beforeAll(async () => {
  [greenhouse, lever, ashby] = await Promise.all([startVendor(), startVendor(), startVendor()]);
  stack = await startStack({
    env: {
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `boards-api.greenhouse.io=${greenhouse.origin},api.lever.co=${lever.origin},api.ashbyhq.com=${ashby.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      // No tick of the schedule during the tests: every run here is the operator's run now.
      JOB_BOARDS_TICK: '1h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  const companies = ['acme', 'beta', 'gamma', 'delta', 'held'].map((id) => ({
    kind: 'company',
    id,
    name: `${id[0]!.toUpperCase()}${id.slice(1)} Inc`,
    domain: `${id}.com`,
  }));
  const ingested = await stack.services.ingestion.ingest(companies);
  expect(ingested.accepted).toBe(companies.length);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([greenhouse, lever, ashby].map((vendor) => vendor?.close()));
});

async function linkBoard(companyId: string, ats: string, token: string) {
  const answer = await call(`${stack.url}/admin/v1/companies/${companyId}/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats, token },
  });
  expect(answer.status).toBe(200);
}

async function unlinkAll() {
  await stack.db.query(`DELETE FROM company_job_boards`);
}

const runSource = () => runSourceNow(stack, 'job-boards');

const jobEvents = (companyId: string) =>
  stack.db.query(`SELECT id, type, occurred_at, data FROM events WHERE company_id = $1 ORDER BY id`, [companyId]);

test('Greenhouse, Lever and Ashby boards become job_offers events with every job field; an unknown board is the error and the others go on', async () => {
  greenhouse.answer(ghPath('acme'), {
    json: greenhouseBoard([greenhouseJob(127817, 'Senior Data Engineer', 'Paris, France')]),
    etag: '"acme-v1"',
  });
  lever.answer(leverPath('beta'), {
    json: [leverPosting('5ac21346-8e0c-4494-8e7a-3eb92ff77902', 'Account Executive', 'Lyon')],
  });
  ashby.answer(ashbyPath('gamma'), {
    json: ashbyBoard([
      ashbyJob('2a1c9b7e-0000-4000-8000-000000000001', 'Head of Customer Success', 'Berlin'),
      ashbyJob('unlisted-1', 'Hidden role', 'Berlin', false),
    ]),
  });
  await linkBoard('acme', 'greenhouse', 'acme');
  await linkBoard('beta', 'lever', 'beta');
  await linkBoard('gamma', 'ashby', 'gamma');
  await linkBoard('delta', 'greenhouse', 'no-such-board');

  const status = await runSource();

  expect(await jobEvents('acme')).toEqual([
    {
      id: 'greenhouse:acme:127817',
      type: 'job_offers',
      occurred_at: new Date('2026-11-20T15:55:28Z'),
      data: {
        job_offer_url: 'https://boards.greenhouse.io/acme/jobs/127817',
        job_offer_title: 'Senior Data Engineer',
        job_offer_location: 'Paris, France',
        job_offer_description:
          'About the role\nYou will build our data platform & its APIs.\n- TypeScript\n- PostgreSQL',
        job_offer_source: 'Greenhouse',
        job_offer_date: '2026-11-20T10:55:28-05:00',
        job_offer_published_date: '2026-11-20',
      },
    },
  ]);
  expect(await jobEvents('beta')).toEqual([
    expect.objectContaining({
      id: 'lever:beta:5ac21346-8e0c-4494-8e7a-3eb92ff77902',
      data: {
        job_offer_url: 'https://jobs.lever.co/beta/5ac21346-8e0c-4494-8e7a-3eb92ff77902',
        job_offer_title: 'Account Executive',
        // The posting's workplace is hybrid; its `lists` belong to its description.
        job_offer_location: 'Hybrid, Lyon',
        job_offer_description:
          'Account Executive for southern Europe.\n\nWhat you will do\n- Close deals\n\nRemote possible.',
        job_offer_source: 'Lever',
        job_offer_date: '2026-11-18T09:00:00.000Z',
        job_offer_published_date: '2026-11-18',
      },
    }),
  ]);
  // The unlisted posting is not announced by the company: no event.
  expect(await jobEvents('gamma')).toEqual([
    expect.objectContaining({
      id: 'ashby:gamma:2a1c9b7e-0000-4000-8000-000000000001',
      data: {
        job_offer_url: 'https://jobs.ashbyhq.com/gamma/2a1c9b7e-0000-4000-8000-000000000001',
        job_offer_title: 'Head of Customer Success',
        job_offer_location: 'Berlin',
        job_offer_description: 'Lead our customer success team.',
        job_offer_source: 'Ashby',
        job_offer_date: '2026-11-15T08:30:00.000+00:00',
        job_offer_published_date: '2026-11-15',
      },
    }),
  ]);
  expect(await jobEvents('delta')).toEqual([]);
  expect(status).toMatchObject({ recordsIngested: 3, errors: 1, enabled: true });
  expect(status.lastError).toMatch(/Greenhouse board "no-such-board": .* answered 404/);

  // Every request names the service and its contact address.
  for (const vendor of [greenhouse, lever, ashby]) {
    expect(vendor.requests.length).toBeGreaterThan(0);
    for (const request of vendor.requests) expect(request.headers['user-agent']).toContain(`mailto:${CONTACT}`);
  }
  // The rest of /metrics counts what the source did.
  const metrics = await stack.services.metrics.text();
  expect(metrics).toContain('intent_leads_source_records{source="job-boards"} 3');
  expect(metrics).toContain('intent_leads_source_errors{source="job-boards"} 1');
});

test('a second poll is conditional; a new posting is one new event and a posting gone is recorded closed, never an event', async () => {
  const acmeRequests = () => greenhouse.requests.filter((r) => r.path === ghPath('acme'));
  const seenBefore = acmeRequests().length;
  await runSource();
  const conditional = acmeRequests().slice(seenBefore);
  expect(conditional).toHaveLength(1);
  expect(conditional[0]!.headers['if-none-match']).toBe('"acme-v1"');
  expect(await jobEvents('acme')).toHaveLength(1);

  greenhouse.answer(ghPath('acme'), {
    json: greenhouseBoard([greenhouseJob(127900, 'Product Designer', 'Remote', '2026-11-25T08:00:00Z')]),
    etag: '"acme-v2"',
  });
  await runSource();
  await runSource();
  expect((await jobEvents('acme')).map((e: { id: string }) => e.id)).toEqual([
    'greenhouse:acme:127817',
    'greenhouse:acme:127900',
  ]);
  const seen = await stack.db.query(
    `SELECT job_id, closed_at IS NOT NULL AS closed FROM job_postings_seen WHERE ats = 'greenhouse' AND token = 'acme' ORDER BY job_id`,
  );
  expect(seen).toEqual([
    { job_id: '127817', closed: true },
    { job_id: '127900', closed: false },
  ]);
});

test('a 429 with Retry-After waits that long before the board is asked again', async () => {
  await unlinkAll();
  await linkBoard('acme', 'greenhouse', 'throttled');
  let asked = 0;
  greenhouse.answer(ghPath('throttled'), () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '2' }, body: 'slow down' }
      : { json: greenhouseBoard([greenhouseJob(555, 'Support Engineer', 'Madrid, Spain')]) },
  );
  const before = (await stack.services.sources.get('job-boards')).recordsIngested;
  const status = await runSource();
  const requests = greenhouse.requests.filter((r) => r.path === ghPath('throttled'));
  expect(requests).toHaveLength(2);
  expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(1900);
  expect(status.recordsIngested).toBe(before + 1);
  expect((await jobEvents('acme')).map((e: { id: string }) => e.id)).toContain('greenhouse:throttled:555');
});

test('a malformed document is the source error naming it; once fixed, each posting is ingested once', async () => {
  await unlinkAll();
  await linkBoard('beta', 'lever', 'broken');
  lever.answer(leverPath('broken'), { json: { postings: 'not an array' } });
  const failed = await runSource();
  expect(failed.lastError).toMatch(/Lever board "broken": the document does not have the expected form/);
  expect(await stack.db.query(`SELECT id FROM events WHERE id LIKE 'lever:broken:%'`)).toEqual([]);

  lever.answer(leverPath('broken'), {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '[{"id": "x",',
  });
  expect((await runSource()).lastError).toMatch(/Lever board "broken": not JSON/);

  lever.answer(leverPath('broken'), { json: [leverPosting('fixed-1', 'Solutions Engineer', 'Lisbon')] });
  const before = (await stack.services.sources.get('job-boards')).recordsIngested;
  await runSource();
  const after = await runSource();
  expect(after.recordsIngested).toBe(before + 1);
  expect(await stack.db.query(`SELECT id FROM events WHERE id LIKE 'lever:broken:%'`)).toEqual([
    { id: 'lever:broken:fixed-1' },
  ]);
});

test('a sync killed mid-run resumes from its cursor and ingests nothing twice', async () => {
  await unlinkAll();
  await linkBoard('acme', 'greenhouse', 'k1-first');
  await linkBoard('held', 'greenhouse', 'k2-held');
  await linkBoard('delta', 'greenhouse', 'k3-after');
  greenhouse.answer(ghPath('k1-first'), { json: greenhouseBoard([greenhouseJob(1001, 'Data Analyst', 'Paris')]) });
  let release!: () => void;
  greenhouse.answer(ghPath('k2-held'), { hold: new Promise<void>((resolve) => (release = resolve)) });
  greenhouse.answer(ghPath('k3-after'), { json: greenhouseBoard([greenhouseJob(3001, 'Office Manager', 'Nantes')]) });

  const before = await stack.services.sources.get('job-boards');
  await call(`${stack.url}/admin/v1/sources/job-boards/run`, { method: 'POST', token: TEST_ADMIN_TOKEN });
  await waitFor(() => greenhouse.requests.some((r) => r.path === ghPath('k2-held')));
  // Kill the run while it waits on the second board.
  const scheduled = await stack.temporal.schedule
    .getHandle(stack.services.sources.schedules.idOf('job-boards'))
    .describe();
  const running = scheduled.info.runningActions[0]!.workflow;
  await stack.temporal.workflow.getHandle(running.workflowId).terminate('killed mid-run by the test');
  expect((await stack.services.sources.get('job-boards')).running).toBe(true);

  greenhouse.answer(ghPath('k2-held'), { json: greenhouseBoard([greenhouseJob(2001, 'Recruiter', 'Lille')]) });
  release();
  // The killed run's last activity still finishes its board; the cursor is then past it.
  await waitFor(async () => {
    const [row] = await stack.db.query(`SELECT state FROM sources WHERE name = 'job-boards'`);
    return row.state.cursor === 'greenhouse:k2-held';
  });

  const resumed = await runSource();
  expect(greenhouse.requests.filter((r) => r.path === ghPath('k1-first'))).toHaveLength(1);
  expect(greenhouse.requests.filter((r) => r.path === ghPath('k3-after'))).toHaveLength(1);
  const ids = (await stack.db.query(`SELECT id FROM events WHERE id ~ '^greenhouse:k[123]-'  ORDER BY id`)).map(
    (row: { id: string }) => row.id,
  );
  expect(ids).toEqual(['greenhouse:k1-first:1001', 'greenhouse:k2-held:2001', 'greenhouse:k3-after:3001']);
  expect(resumed.recordsIngested).toBe(before.recordsIngested + 3);
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

test('a burst of new postings (5 published within 7 days) is one recruitment_campaign event; old postings do not count', async () => {
  await unlinkAll();
  await linkBoard('gamma', 'greenhouse', 'burst');
  const recent = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const jobs = [
    greenhouseJob(9001, 'Account Executive', 'Paris', recent(1)),
    greenhouseJob(9002, 'Sales Engineer', 'Paris', recent(2)),
    greenhouseJob(9003, 'SDR', 'Paris', recent(3)),
    greenhouseJob(9004, 'Old Role A', 'Paris', recent(60)),
    greenhouseJob(9005, 'Old Role B', 'Paris', recent(90)),
  ];
  greenhouse.answer(ghPath('burst'), { json: greenhouseBoard(jobs) });
  await runSource();
  const campaigns = () =>
    stack.db.query(`SELECT id, data FROM events WHERE company_id = 'gamma' AND type = 'recruitment_campaign'`);
  expect(await campaigns()).toEqual([]);

  greenhouse.answer(ghPath('burst'), {
    json: greenhouseBoard([
      ...jobs,
      greenhouseJob(9006, 'Customer Success Manager', 'Lyon', recent(0.5)),
      greenhouseJob(9007, 'Head of Sales', 'Lyon', recent(0.2)),
    ]),
  });
  await runSource();
  await runSource();
  const found = await campaigns();
  expect(found).toEqual([
    {
      id: `job-boards:recruitment_campaign:gamma:${new Date().toISOString().slice(0, 10)}`,
      data: expect.objectContaining({
        job_offer_title: '5 new job postings in 7 days',
        job_offer_source: 'Greenhouse',
        job_offer_description: 'Customer Success Manager\nHead of Sales',
      }),
    },
  ]);
});
