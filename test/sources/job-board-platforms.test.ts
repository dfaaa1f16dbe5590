import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, createSignal, settled } from '../leads/fixtures';
import { startVendor, type VendorAnswer, type VendorServer } from './vendors';
import {
  personioFeed,
  personioPosition,
  recruiteeOffer,
  recruiteeOffers,
  smartRecruitersDetail,
  smartRecruitersPage,
  smartRecruitersPosting,
  workableAccount,
  workableJob,
} from './board-fixtures';
import { nextPollAt, phaseOf } from '../../src/sources/job-boards/board-phases';
import { DETAILS_PER_POLL } from '../../src/sources/job-boards/job-boards';
import { runSourceNow, waitForRunAfter } from './source-runs';

/** Workable, SmartRecruiters, Recruitee and Personio boards, each served as its vendor documents it. */

let stack: Stack;
let workable: VendorServer;
let smartrecruiters: VendorServer;
/** Recruitee and Personio serve each company on its own host. */
let recruiteeEta: VendorServer;
let personioTheta: VendorServer;
let personioKappa: VendorServer;
let nowhere: VendorServer;

const INTERVAL_MS = 6 * 3_600_000;
const workablePath = (account: string) => `/api/v1/widget/accounts/${account}?details=true`;
const srPage = (company: string, offset: number) => `/v1/companies/${company}/postings?limit=100&offset=${offset}`;
const srDetail = (company: string, id: string) => `/v1/companies/${company}/postings/${id}`;
const RECRUITEE = '/api/offers/';
const PERSONIO = '/xml';
const xml = (body: string): VendorAnswer => ({
  status: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body,
});

beforeAll(async () => {
  [workable, smartrecruiters, recruiteeEta, personioTheta, personioKappa, nowhere] = await Promise.all(
    Array.from({ length: 6 }, () => startVendor()),
  );
  // Personio answers an unknown company with an HTML "Page not found".
  nowhere.answer(PERSONIO, { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Page not found</h1>' });
  stack = await startStack({
    env: {
      SOURCES_HOST_MAP: [
        `apply.workable.com=${workable.origin}`,
        `api.smartrecruiters.com=${smartrecruiters.origin}`,
        `eta.recruitee.com=${recruiteeEta.origin}`,
        `nobody.recruitee.com=${nowhere.origin}`,
        `theta.jobs.personio.de=${personioTheta.origin}`,
        `kappa.jobs.personio.de=${personioKappa.origin}`,
        `nobody.jobs.personio.de=${nowhere.origin}`,
      ].join(','),
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      SIGNAL_EVALUATION_INTERVAL: '1h',
      JOB_BOARDS_INTERVAL: '6h',
      // No tick of the schedule during the tests: runs are the operator's or the test's own.
      JOB_BOARDS_TICK: '1h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  const companies = ['eps', 'zeta', 'eta', 'theta', 'iota', 'kappa'].map((id) => ({
    kind: 'company',
    id,
    name: `${id[0]!.toUpperCase()}${id.slice(1)} Ltd`,
    domain: `${id}.example`,
  }));
  expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(companies.length);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all(
    [workable, smartrecruiters, recruiteeEta, personioTheta, personioKappa, nowhere].map((vendor) => vendor?.close()),
  );
});

async function linkBoard(companyId: string, ats: string, token: string) {
  const answer = await call(`${stack.url}/admin/v1/companies/${companyId}/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats, token },
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ companyId, ats, token });
}

async function unlinkAll() {
  await stack.db.query(`DELETE FROM company_job_boards`);
}

const runSource = () => runSourceNow(stack, 'job-boards');

const eventsOf = (companyId: string) =>
  stack.db.query(
    `SELECT id, type, occurred_at, data, job_department FROM events WHERE company_id = $1 AND type = 'job_offers' ORDER BY id`,
    [companyId],
  );
const requestsTo = (vendor: VendorServer, path: string) => vendor.requests.filter((r) => r.path === path).length;

test('Workable, SmartRecruiters, Recruitee and Personio postings become job_offers events with every job field and the board department; unknown boards are the errors and the others go on', async () => {
  workable.answer(workablePath('eps'), {
    json: workableAccount([workableJob('A1B2C3D4E5', 'Backend Engineer', 'Paris')]),
  });
  const sr = [
    smartRecruitersPosting('744000012345678', 'Demand Generation Lead', 'Barcelona'),
    smartRecruitersPosting('744000012345679', 'Field Marketing Lead', 'Madrid'),
  ];
  smartrecruiters.answer(srPage('Zeta', 0), { json: smartRecruitersPage(0, 2, sr) });
  for (const posting of sr)
    smartrecruiters.answer(srDetail('Zeta', posting.id), { json: smartRecruitersDetail(posting) });
  recruiteeEta.answer(RECRUITEE, {
    json: recruiteeOffers([recruiteeOffer(1201, 'Customer Success Manager', 'Utrecht')]),
  });
  personioTheta.answer(PERSONIO, xml(personioFeed([personioPosition('2800938', 'Accountant (m/f/d)', 'Munich')])));
  await linkBoard('eps', 'workable', 'eps');
  await linkBoard('zeta', 'smartrecruiters', 'Zeta');
  await linkBoard('eta', 'recruitee', 'eta');
  await linkBoard('theta', 'personio', 'theta');
  await linkBoard('iota', 'personio', 'nobody');
  await linkBoard('iota', 'recruitee', 'nobody');

  const status = await runSource();

  expect(await eventsOf('eps')).toEqual([
    {
      id: 'workable:eps:A1B2C3D4E5',
      type: 'job_offers',
      occurred_at: new Date('2026-11-19T00:00:00Z'),
      data: {
        job_offer_url: 'https://apply.workable.com/j/A1B2C3D4E5',
        job_offer_title: 'Backend Engineer',
        job_offer_location: 'Paris, Île-de-France, France',
        job_offer_description: 'Build our billing services.\n- Go\n- Kafka',
        job_offer_source: 'Workable',
        job_offer_date: '2026-11-19',
        job_offer_published_date: '2026-11-19',
      },
      job_department: 'engineering',
    },
  ]);
  const zeta = await eventsOf('zeta');
  expect(zeta).toHaveLength(2);
  expect(zeta[0]).toEqual({
    id: 'smartrecruiters:Zeta:744000012345678',
    type: 'job_offers',
    occurred_at: new Date('2026-11-21T14:03:11Z'),
    data: {
      job_offer_url: 'https://jobs.smartrecruiters.com/Zeta/744000012345678-demand-generation-lead',
      job_offer_title: 'Demand Generation Lead',
      job_offer_location: 'Barcelona, Catalonia, es',
      job_offer_description:
        'Company Description\nZeta runs marketplaces.\n\nJob Description\nOwn our demand generation.\n\nQualifications\n- 5 years of B2B marketing',
      job_offer_source: 'SmartRecruiters',
      job_offer_date: '2026-11-21T14:03:11.000Z',
      job_offer_published_date: '2026-11-21',
    },
    job_department: 'marketing',
  });
  expect(await eventsOf('eta')).toEqual([
    {
      id: 'recruitee:eta:1201',
      type: 'job_offers',
      occurred_at: new Date('2026-11-17T08:15:00Z'),
      data: {
        job_offer_url: 'https://eta.recruitee.com/o/1201',
        job_offer_title: 'Customer Success Manager',
        // Recruitee's `hybrid` flag says how the job is done.
        job_offer_location: 'Hybrid, Utrecht, Netherlands',
        job_offer_description: 'Help our customers get the most out of the product.\n\n- Dutch and English',
        job_offer_source: 'Recruitee',
        job_offer_date: '2026-11-17 08:15:00 UTC',
        job_offer_published_date: '2026-11-17',
      },
      job_department: 'customer_success',
    },
  ]);
  // "Accountant" alone would read as finance too; the board's own department says so first.
  expect(await eventsOf('theta')).toEqual([
    {
      id: 'personio:theta:2800938',
      type: 'job_offers',
      occurred_at: new Date('2026-11-14T09:40:07Z'),
      data: {
        job_offer_url: 'https://theta.jobs.personio.de/job/2800938',
        job_offer_title: 'Accountant (m/f/d)',
        // Its other office, `additionalOffices`, is a place of the posting too.
        job_offer_location: 'Munich or Munich (Remote)',
        job_offer_description: 'Your tasks\nClose the books & run payroll.\n\nYour profile\n- DATEV\n- German',
        job_offer_source: 'Personio',
        job_offer_date: '2026-11-14T09:40:07+00:00',
        job_offer_published_date: '2026-11-14',
      },
      job_department: 'finance',
    },
  ]);
  expect(await eventsOf('iota')).toEqual([]);
  expect(status).toMatchObject({ recordsIngested: 5, errors: 2 });
  const boards = await stack.db.query(
    `SELECT ats, last_error FROM company_job_boards WHERE token = 'nobody' ORDER BY ats`,
  );
  expect(boards).toEqual([
    { ats: 'personio', last_error: expect.stringMatching(/^Personio board "nobody": .* answered 404$/) },
    { ats: 'recruitee', last_error: expect.stringMatching(/^Recruitee board "nobody": .* answered 404$/) },
  ]);
  // Personio is asked for XML, the others for JSON.
  expect(personioTheta.requests[0]!.headers.accept).toContain('xml');
  expect(recruiteeEta.requests[0]!.headers.accept).toBe('application/json');
});

test('a posting gone from a board is recorded closed, never an event; one still there is not announced again and its detail is not read again', async () => {
  const detailsBefore = smartrecruiters.requests.filter((r) =>
    r.path.startsWith('/v1/companies/Zeta/postings/'),
  ).length;
  recruiteeEta.answer(RECRUITEE, { json: recruiteeOffers([recruiteeOffer(1202, 'Support Engineer', 'Utrecht')]) });
  personioTheta.answer(PERSONIO, xml(personioFeed([])));
  await runSource();
  await runSource();
  expect((await eventsOf('eta')).map((e: { id: string }) => e.id)).toEqual([
    'recruitee:eta:1201',
    'recruitee:eta:1202',
  ]);
  expect(await eventsOf('theta')).toHaveLength(1);
  const seen = await stack.db.query(
    `SELECT ats, job_id, closed_at IS NOT NULL AS closed FROM job_postings_seen WHERE ats IN ('recruitee', 'personio') ORDER BY ats, job_id`,
  );
  expect(seen).toEqual([
    { ats: 'personio', job_id: '2800938', closed: true },
    { ats: 'recruitee', job_id: '1201', closed: true },
    { ats: 'recruitee', job_id: '1202', closed: false },
  ]);
  // Two more polls of the SmartRecruiters list, no posting detail read again.
  expect(smartrecruiters.requests.filter((r) => r.path.startsWith('/v1/companies/Zeta/postings/')).length).toBe(
    detailsBefore,
  );
  expect(await eventsOf('zeta')).toHaveLength(2);
});

test('SmartRecruiters pages are followed by offset up to totalFound; job ads are read for new postings only, a few per poll, the rest at the next run', async () => {
  await unlinkAll();
  const postings = Array.from({ length: DETAILS_PER_POLL + 2 }, (_, i) =>
    smartRecruitersPosting(String(900 + i), `Growth Marketer ${i}`, 'Valencia'),
  );
  const pages = [0, 10, 20];
  for (const offset of pages) {
    smartrecruiters.answer(srPage('zeta-big', offset), {
      json: smartRecruitersPage(offset, postings.length, postings.slice(offset, offset + 10)),
    });
  }
  for (const posting of postings)
    smartrecruiters.answer(srDetail('zeta-big', posting.id), { json: smartRecruitersDetail(posting) });
  await linkBoard('zeta', 'smartrecruiters', 'zeta-big');
  const ids = async () =>
    (await stack.db.query(`SELECT id FROM events WHERE id LIKE 'smartrecruiters:zeta-big:%' ORDER BY id`)).map(
      (row: { id: string }) => row.id,
    );

  await runSource();
  for (const offset of pages) expect(requestsTo(smartrecruiters, srPage('zeta-big', offset))).toBe(1);
  expect(await ids()).toHaveLength(DETAILS_PER_POLL);
  // The board has postings waiting: it is due at the next run, not at its phase.
  expect(await stack.services.jobBoards.items(null)).toEqual({ items: ['smartrecruiters:zeta-big'], next: null });

  await stack.services.sources.schedules.trigger('job-boards');
  await waitForRunAfter(stack, 'job-boards', (await stack.services.sources.get('job-boards')).lastRunFinishedAt);
  expect(await ids()).toEqual(postings.map((p) => `smartrecruiters:zeta-big:${p.id}`).sort());
  for (const posting of postings) expect(requestsTo(smartrecruiters, srDetail('zeta-big', posting.id))).toBe(1);
  // Done, the board waits for its phase again.
  expect(await stack.services.jobBoards.items(null)).toEqual({ items: [], next: null });
});

test('a 429 with Retry-After waits that long before the board is asked again', async () => {
  await unlinkAll();
  await linkBoard('eps', 'workable', 'eps-throttled');
  let asked = 0;
  workable.answer(workablePath('eps-throttled'), () =>
    ++asked === 1
      ? { status: 429, headers: { 'retry-after': '2' }, body: '' }
      : { json: workableAccount([workableJob('THROTTLE01', 'Site Reliability Engineer', 'Lyon')]) },
  );
  await runSource();
  const requests = workable.requests.filter((r) => r.path === workablePath('eps-throttled'));
  expect(requests).toHaveLength(2);
  expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(1900);
  expect((await eventsOf('eps')).map((e: { id: string }) => e.id)).toContain('workable:eps-throttled:THROTTLE01');
});

test('malformed documents are the errors naming them, the other boards go on; once fixed each posting is ingested once', async () => {
  await unlinkAll();
  await linkBoard('kappa', 'personio', 'kappa');
  await linkBoard('zeta', 'smartrecruiters', 'zeta-broken');
  await linkBoard('eta', 'recruitee', 'eta');
  personioKappa.answer(PERSONIO, xml('<workzag-jobs><position><id>1</id><name>Cook</position></workzag-jobs>'));
  smartrecruiters.answer(srPage('zeta-broken', 0), { json: { offset: 0, limit: 100, content: 'none' } });
  recruiteeEta.answer(RECRUITEE, { json: recruiteeOffers([recruiteeOffer(1203, 'Onboarding Specialist', 'Delft')]) });

  const failed = await runSource();
  const errors = Object.fromEntries(
    (await stack.db.query(`SELECT token, last_error FROM company_job_boards ORDER BY token`)).map(
      (row: { token: string; last_error: string | null }) => [row.token, row.last_error],
    ),
  );
  expect(errors).toEqual({
    eta: null,
    kappa: expect.stringMatching(/^Personio board "kappa": not XML: /),
    'zeta-broken': expect.stringMatching(
      /^SmartRecruiters board "zeta-broken": the document does not have the expected form: /,
    ),
  });
  expect(failed.lastError).toMatch(/board "(kappa|zeta-broken)"/);
  expect(await stack.db.query(`SELECT id FROM events WHERE id LIKE 'recruitee:eta:1203'`)).toHaveLength(1);
  expect(
    await stack.db.query(`SELECT id FROM events WHERE id ~ '^(personio:kappa|smartrecruiters:zeta-broken):'`),
  ).toEqual([]);

  personioKappa.answer(PERSONIO, xml(personioFeed([personioPosition('77', 'Payroll Specialist', 'Hamburg')])));
  const before = (await stack.services.sources.get('job-boards')).recordsIngested;
  await runSource();
  const after = await runSource();
  expect(after.recordsIngested).toBe(before + 1);
  expect(await stack.db.query(`SELECT id FROM events WHERE id LIKE 'personio:kappa:%'`)).toEqual([
    { id: 'personio:kappa:77' },
  ]);
});

test('each board is due once per JOB_BOARDS_INTERVAL at its own phase; a scheduled run polls only the boards due', async () => {
  // The phases of many boards fill the interval evenly.
  const hours = new Array<number>(6).fill(0);
  for (let i = 0; i < 600; i++) hours[Math.floor(phaseOf(`greenhouse:company-${i}`, INTERVAL_MS) / 3_600_000)]!++;
  for (const count of hours) {
    expect(count).toBeGreaterThan(60);
    expect(count).toBeLessThan(140);
  }

  await unlinkAll();
  const linkedAt = Date.now();
  await linkBoard('eta', 'recruitee', 'eta');
  await linkBoard('eps', 'workable', 'eps');
  const linked = await stack.db.query(`SELECT ats, token, next_poll_at FROM company_job_boards ORDER BY ats`);
  for (const board of linked as { ats: string; token: string; next_poll_at: Date }[]) {
    const at = board.next_poll_at.getTime();
    expect(at).toBeGreaterThan(linkedAt);
    expect(at).toBeLessThanOrEqual(Date.now() + INTERVAL_MS);
    expect((at - phaseOf(`${board.ats}:${board.token}`, INTERVAL_MS)) % INTERVAL_MS).toBe(0);
  }
  expect(await stack.services.jobBoards.items(null)).toEqual({ items: [], next: null });

  // Recruitee's phase comes; Workable's does not.
  await stack.db.query(
    `UPDATE company_job_boards SET next_poll_at = now() - interval '1 minute' WHERE ats = 'recruitee'`,
  );
  expect(await stack.services.jobBoards.items(null)).toEqual({ items: ['recruitee:eta'], next: null });
  const recruiteeBefore = requestsTo(recruiteeEta, RECRUITEE);
  const workableBefore = requestsTo(workable, workablePath('eps'));
  await stack.services.sources.schedules.trigger('job-boards');
  await waitForRunAfter(stack, 'job-boards', (await stack.services.sources.get('job-boards')).lastRunFinishedAt);
  expect(requestsTo(recruiteeEta, RECRUITEE)).toBe(recruiteeBefore + 1);
  expect(requestsTo(workable, workablePath('eps'))).toBe(workableBefore);

  // Polled, the board is due again at its next phase.
  const [polled] = await stack.db.query(`SELECT next_poll_at FROM company_job_boards WHERE ats = 'recruitee'`);
  expect(polled.next_poll_at).toEqual(
    nextPollAt('recruitee:eta', INTERVAL_MS, new Date(polled.next_poll_at.getTime() - 1)),
  );
  expect(polled.next_poll_at.getTime()).toBeGreaterThan(Date.now());
});

test('the operator API accepts every platform of the registry and names them when refusing one', async () => {
  const refused = await call(`${stack.url}/admin/v1/companies/eta/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats: 'teamtailor', token: 'eta' },
  });
  expect(refused.status).toBe(422);
  const message = JSON.stringify(refused.body.error);
  for (const ats of ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee', 'personio'])
    expect(message).toContain(ats);
});

test('a new posting feeds the market-wide hiring signal: its keywords, and the department its board files it under', async () => {
  await unlinkAll();
  await linkBoard('theta', 'personio', 'theta');
  const createdAt = new Date(Date.now() - 86_400_000).toISOString();
  // Nothing in "Payroll Wizard" names a department; the board's <department>Finance</department> does.
  personioTheta.answer(
    PERSONIO,
    xml(personioFeed([personioPosition('3100001', 'Payroll Wizard', 'Cologne', createdAt)])),
  );
  await runSource();

  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'hiring', {
    name: 'Finance teams hiring wizards',
    status: 'active',
    config: { keywords: ['wizard'], departments: ['finance'] },
  });
  await settled(stack, signal.id);
  const leads = await allLeads(api, signal.id);
  expect(leads.map((lead) => lead.signal)).toEqual([
    expect.objectContaining({
      type: 'hiring',
      job_offer_url: 'https://theta.jobs.personio.de/job/3100001',
      job_offer_title: 'Payroll Wizard',
      job_offer_source: 'Personio',
      job_offer_date: createdAt,
      matched_keywords: 'wizard',
    }),
  ]);
});
