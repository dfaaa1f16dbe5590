import { startStack, type Stack } from '../setup/stack';
import { evaluateNow } from '../setup/evaluation';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * The funnel against the real stack. No worker runs, so nothing evaluates behind the test's
 * back: leads appear only when the test calls production itself.
 */
const DAY_MS = 86_400_000;

let stack: Stack;
let owner: TestAccount;
/** Few credits: one job-change lead (2 credits), then production stops for want of credits. */
let poor: TestAccount;

const funnelOf = (account: TestAccount, signalId: string, query = '') =>
  call(`${stack.url}/api/v1/signals/${signalId}/funnel${query}`, { token: account.apiKey });

const removedBy = (body: { stages: { filter: string; removed: number }[] }) =>
  Object.fromEntries(body.stages.map((stage) => [stage.filter, stage.removed]));

const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

/** The filters every job-changes signal of this file uses. */
const jobChangesConfig = {
  jobTitles: ['Chief Technology Officer'],
  customTitles: ['Head of Growth'],
  companySizeFilters: ['51-200'],
  industryFilters: ['Software Development'],
  locations: ['Texas'],
};

const evaluate = (signalId: string) => evaluateNow(stack, signalId);

async function createSignal(account: TestAccount, path: string, body: Record<string, unknown>): Promise<string> {
  const answer = await call(`${stack.url}/api/v1/signals/${path}`, { token: account.apiKey, body });
  if (answer.status !== 201) throw new Error(`signal not created: ${answer.text}`);
  return answer.body.id;
}

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack, { credits: 100 });
  poor = await createAccount(stack, { credits: 3, name: 'Poor account' });
  await stack.db
    .query(`INSERT INTO companies (id, name, name_key, domain, industry, employee_count, size_band, hq_country_code, hq_city) VALUES
    ('c_fit',   'Acme',     'acme',     'acme.com',     'Software Development', 120, '51-200', 'US', 'Austin'),
    ('c_small', 'Tiny',     'tiny',     'tiny.io',      'Software Development',   5, '1-10',   'US', 'Austin'),
    ('c_bank',  'Big Bank', 'big bank', 'bigbank.com',  'Financial Services',   150, '51-200', 'US', 'Dallas')`);
  // Every person lives in Texas unless the row says otherwise.
  await stack.db
    .query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id, city, country_code, region_code) VALUES
    ('p_cto',     'Ada',   'A', 'CTO',                 'Chief Technology Officer', 'c_fit',   'Austin',        'US', 'TX'),
    ('p_growth',  'Bo',    'B', 'Head of Growth EMEA', NULL,                       'c_fit',   'Austin',        'US', 'TX'),
    ('p_dup',     'Cy',    'C', 'CTO',                 'Chief Technology Officer', 'c_fit',   'Austin',        'US', 'TX'),
    ('p_cfo',     'Di',    'D', 'CFO',                 'Chief Financial Officer',  'c_fit',   'Austin',        'US', 'TX'),
    ('p_acct',    'Ed',    'E', 'Accountant',          NULL,                       'c_fit',   'Austin',        'US', 'TX'),
    ('p_small',   'Fay',   'F', 'CTO',                 'Chief Technology Officer', 'c_small', 'Austin',        'US', 'TX'),
    ('p_bank',    'Gil',   'G', 'CTO',                 'Chief Technology Officer', 'c_bank',  'Dallas',        'US', 'TX'),
    ('p_ca',      'Hal',   'H', 'CTO',                 'Chief Technology Officer', 'c_fit',   'San Francisco', 'US', 'CA'),
    ('p_nowhere', 'Ivy',   'I', 'CTO',                 'Chief Technology Officer', 'c_fit',   NULL,            NULL, NULL),
    ('p_old',     'Jo',    'J', 'CTO',                 'Chief Technology Officer', 'c_fit',   'Austin',        'US', 'TX')`);
  const event = (id: string, type: string, days: number, company: string, person: string | null) =>
    `('${id}', '${type}', now() - interval '${days} days', '${company}', ${person ? `'${person}'` : 'NULL'})`;
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES ${[
      // Job changes: three pass every filter, one more is the same person's second move.
      event('e_cto', 'job_change', 5, 'c_fit', 'p_cto'),
      event('e_growth', 'job_change', 6, 'c_fit', 'p_growth'), // customTitles only
      event('e_dup1', 'job_change', 20, 'c_fit', 'p_dup'),
      event('e_dup2', 'job_change', 10, 'c_fit', 'p_dup'), // duplicate of e_dup1's person
      event('e_cfo', 'job_change', 7, 'c_fit', 'p_cfo'), // jobTitles
      event('e_acct', 'job_change', 8, 'c_fit', 'p_acct'), // jobTitles
      event('e_small', 'job_change', 9, 'c_small', 'p_small'), // companySizeFilters
      event('e_bank', 'job_change', 11, 'c_bank', 'p_bank'), // industryFilters
      event('e_ca', 'job_change', 12, 'c_fit', 'p_ca'), // locations
      event('e_nowhere', 'job_change', 13, 'c_fit', 'p_nowhere'), // locations (no location at all)
      event('e_old', 'job_change', 200, 'c_fit', 'p_old'), // maxJobAgeDays, outside the default window
      // Watchlist events at Acme (watched) and at Big Bank (not watched).
      event('w_funding', 'fundraising', 2, 'c_fit', null),
      event('w_news1', 'company_news', 3, 'c_fit', null),
      event('w_news2', 'company_news', 4, 'c_fit', null),
      event('w_jobs', 'job_offers', 5, 'c_fit', null),
      event('w_old_funding', 'fundraising', 400, 'c_fit', null), // firstRunLookbackDays
      event('w_bank', 'fundraising', 2, 'c_bank', null),
    ].join(',\n')}`,
  );
});
afterAll(() => stack?.stop());

describe('job changes', () => {
  let signalId: string;
  beforeAll(async () => {
    // Active, but nothing evaluates until the test calls production.
    signalId = await createSignal(owner, 'job-changes', {
      name: 'Texan CTOs',
      status: 'active',
      dailyLeadLimit: 2,
      config: jobChangesConfig,
    });
  });

  test('each filter removes its known share, in evaluation order', async () => {
    const answer = await funnelOf(owner, signalId);
    expect(answer.status).toBe(200);
    expect(answer.body.signalId).toBe(signalId);
    expect(answer.body.candidates).toBe(10);
    // Oldest first, two a day: e_dup1 and e_growth would be produced, e_cto waits for tomorrow.
    expect(answer.body.stages).toEqual([
      { filter: 'jobTitles', removed: 2, remaining: 8 },
      { filter: 'companySizeFilters', removed: 1, remaining: 7 },
      { filter: 'industryFilters', removed: 1, remaining: 6 },
      { filter: 'locations', removed: 2, remaining: 4 },
      { filter: 'maxJobAgeDays', removed: 0, remaining: 4 },
      { filter: 'suppressed', removed: 0, remaining: 4 },
      { filter: 'duplicate', removed: 1, remaining: 3 },
      { filter: 'dailyLeadLimit', removed: 1, remaining: 2 },
      { filter: 'credits', removed: 0, remaining: 2 },
    ]);
    expect(answer.body.leads).toBe(0);
    // The default window is the last 30 days by the service clock.
    const span = Date.parse(answer.body.to) - Date.parse(answer.body.from);
    expect(span).toBe(30 * DAY_MS);
    expect(Math.abs(Date.parse(answer.body.to) - stack.services.clock.now().getTime())).toBeLessThan(60_000);
  });

  test('a candidate that was young enough when an evaluation of the window could see it, and aged out since, is removed by maxJobAgeDays', async () => {
    // e_old (200 days old) arrived 25 days ago, at 175 days: inside the 180-day age window then.
    await stack.db.query(`UPDATE events SET ingested_at = now() - interval '25 days' WHERE id = 'e_old'`);
    try {
      const answer = await funnelOf(owner, signalId);
      expect(answer.status).toBe(200);
      expect(answer.body.candidates).toBe(11);
      expect(removedBy(answer.body)).toMatchObject({
        jobTitles: 2,
        companySizeFilters: 1,
        industryFilters: 1,
        locations: 2,
        maxJobAgeDays: 1,
      });
      // A window that ends before it arrived did not consider it, nor anything else.
      const before = await funnelOf(
        owner,
        signalId,
        `?from=${encodeURIComponent(daysAgo(60))}&to=${encodeURIComponent(daysAgo(26))}`,
      );
      expect(before.body).toMatchObject({ candidates: 0, leads: 0 });
    } finally {
      await stack.db.query(`UPDATE events SET ingested_at = now() WHERE id = 'e_old'`);
    }
  });

  test('the window is one of evaluation time: events that arrived after it ended are not in it, whatever their dates', async () => {
    // e_growth (6 days), e_cfo (7), e_acct (8) and e_small (9) occurred in this window, but arrived today.
    const answer = await funnelOf(
      owner,
      signalId,
      `?from=${encodeURIComponent(daysAgo(9.5))}&to=${encodeURIComponent(daysAgo(5.5))}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.candidates).toBe(0);
    expect(
      answer.body.stages.every(
        (stage: { removed: number; remaining: number }) => stage.removed === 0 && stage.remaining === 0,
      ),
    ).toBe(true);
    expect(answer.body.leads).toBe(0);
  });

  test('after production the last stage counts the leads; the cap defers the rest to the next day', async () => {
    const before = await funnelOf(owner, signalId);
    const promisedToday = before.body.stages.at(-1).remaining;
    expect((await evaluate(signalId)).produced).toBe(promisedToday - before.body.leads);
    const today = await funnelOf(owner, signalId);
    expect(today.body.leads).toBe(2);
    expect(removedBy(today.body)).toMatchObject({ duplicate: 1, dailyLeadLimit: 1, credits: 0 });
    expect(today.body.stages.at(-1).remaining).toBe(today.body.leads);

    // A new UTC day: the cap has room again, and what the funnel promises is what production makes.
    stack.services.clock.advance(DAY_MS);
    try {
      const tomorrow = await funnelOf(owner, signalId);
      expect(removedBy(tomorrow.body)).toMatchObject({ duplicate: 1, dailyLeadLimit: 0, credits: 0 });
      const promised = tomorrow.body.stages.at(-1).remaining;
      expect(promised).toBe(3);
      const next = await evaluate(signalId);
      expect(tomorrow.body.leads + next.produced).toBe(promised);
      const after = await funnelOf(owner, signalId);
      expect(after.body.leads).toBe(promised);
      expect(after.body.stages.at(-1).remaining).toBe(promised);
    } finally {
      stack.services.clock.reset();
    }
  });

  test('out of credits, waiting candidates are deferred at the credits stage', async () => {
    const id = await createSignal(poor, 'job-changes', {
      name: 'Poor CTOs',
      status: 'active',
      config: jobChangesConfig,
    });
    expect(await evaluate(id)).toEqual({ produced: 1, deferredBy: 'credits' });
    const answer = await funnelOf(poor, id);
    expect(answer.body.candidates).toBe(10);
    expect(removedBy(answer.body)).toMatchObject({ duplicate: 1, dailyLeadLimit: 0, credits: 2 });
    expect(answer.body.leads).toBe(1);
    expect(answer.body.stages.at(-1).remaining).toBe(1);
  });
});

describe('account watchlist', () => {
  test('disabled sources remove their events; unwatched companies are no candidates', async () => {
    const id = await createSignal(owner, 'account-watchlist', { name: 'Acme', config: { companies: ['acme.com'] } });
    const answer = await funnelOf(owner, id);
    expect(answer.status).toBe(200);
    // fundraising, two company_news and job_offers at Acme; Big Bank's round is not watched.
    expect(answer.body.candidates).toBe(4);
    expect(answer.body.stages).toEqual([
      { filter: 'sources', removed: 2, remaining: 2 },
      { filter: 'companyNewsArticle', removed: 0, remaining: 2 },
      { filter: 'firstRunLookbackDays', removed: 0, remaining: 2 },
      { filter: 'targetPersonas', removed: 0, remaining: 2 },
      { filter: 'suppressed', removed: 0, remaining: 2 },
      { filter: 'duplicate', removed: 0, remaining: 2 },
      { filter: 'dailyLeadLimit', removed: 0, remaining: 2 },
      { filter: 'credits', removed: 0, remaining: 2 },
    ]);
    expect(answer.body.leads).toBe(0);

    const longer = await funnelOf(owner, id, `?from=${daysAgo(500)}`);
    expect(longer.body.candidates).toBe(5);
    expect(removedBy(longer.body)).toMatchObject({ sources: 2, firstRunLookbackDays: 1, targetPersonas: 0 });
  });

  test('targetPersonas removes events at companies without a matching person', async () => {
    const id = await createSignal(owner, 'account-watchlist', {
      name: 'Acme marketing',
      config: {
        companies: ['acme.com'],
        targetPersonas: ['Chief Marketing Officer'],
        sources: { company_news: { enabled: true } },
      },
    });
    const answer = await funnelOf(owner, id);
    expect(answer.body.candidates).toBe(4);
    // The two news events carry no article, so they are no leads whatever the persona.
    expect(removedBy(answer.body)).toMatchObject({
      sources: 0,
      companyNewsArticle: 2,
      firstRunLookbackDays: 0,
      targetPersonas: 2,
    });
    expect(answer.body.stages.at(-1).remaining).toBe(0);
  });
});

describe('access and validation', () => {
  let signalId: string;
  beforeAll(async () => {
    signalId = await createSignal(owner, 'job-changes', { name: 'Draft', config: jobChangesConfig });
  });

  test("another account's signal and an unknown one answer 404", async () => {
    expect((await funnelOf(poor, signalId)).status).toBe(404);
    expect((await funnelOf(owner, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await funnelOf(owner, 'not-a-uuid')).status).toBe(404);
  });

  test('a bad from, or a from not before to, answers 400', async () => {
    const bad = await funnelOf(owner, signalId, '?from=last-week');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    const reversed = await funnelOf(owner, signalId, `?from=${daysAgo(1)}&to=${daysAgo(2)}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.code).toBe('INVALID_REQUEST');
  });

  test('a date-only window is read as UTC midnights', async () => {
    const answer = await funnelOf(owner, signalId, '?from=2020-01-01&to=2020-02-01');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-02-01T00:00:00.000Z',
      candidates: 0,
      leads: 0,
    });
  });

  test('the OpenAPI document describes the Funnel', async () => {
    const doc = await call(`${stack.url}/api/v1/openapi.json`);
    expect(doc.body.paths['/api/v1/signals/{signalId}/funnel'].get.operationId).toBe('getSignalFunnel');
    expect(doc.body.components.schemas.Funnel).toBeDefined();
  });
});

describe('the window covers what the evaluations produced', () => {
  test('a lead produced now from a job change of three months ago counts in the default window', async () => {
    await stack.db
      .query(`INSERT INTO companies (id, name, name_key, domain, industry, employee_count, size_band, hq_country_code, hq_city)
      VALUES ('c_ops', 'Opsco', 'opsco', 'opsco.com', 'Software Development', 80, '51-200', 'US', 'Austin')`);
    await stack.db
      .query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id, city, country_code, region_code)
      VALUES ('p_coo', 'Kim', 'K', 'COO', 'Chief Operating Officer', 'c_ops', 'Austin', 'US', 'TX')`);
    await stack.db.query(
      `INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES ('e_coo', 'job_change', now() - interval '90 days', 'c_ops', 'p_coo')`,
    );
    const id = await createSignal(owner, 'job-changes', {
      name: 'New COOs',
      status: 'active',
      config: { jobTitles: ['Chief Operating Officer'] },
    });
    expect((await evaluate(id)).produced).toBe(1);

    const answer = await funnelOf(owner, id);
    expect(answer.status).toBe(200);
    expect(answer.body.leads).toBe(1);
    const leads = await call(`${stack.url}/api/v1/signals/${id}/leads`, { token: owner.apiKey });
    expect(answer.body.leads).toBe(leads.body.total);
    expect(answer.body.stages.find((stage: { filter: string }) => stage.filter === 'jobTitles').remaining).toBe(1);
    expect(answer.body.stages.at(-1).remaining).toBe(1);

    // A window that ended before the lead was produced does not count it.
    const earlier = await funnelOf(
      owner,
      id,
      `?from=${encodeURIComponent(daysAgo(120))}&to=${encodeURIComponent(daysAgo(1))}`,
    );
    expect(earlier.body.leads).toBe(0);
  });
});
