import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, company, createSignal, evaluateNow, ingest, settled, waitFor } from '../leads/fixtures';
import { awardNotice, startTed, type TedServer } from './ted-fixtures';

const CONTACT = 'tenders-ops@leads.example.com';
const DAY_MS = 86_400_000;
// One moment for the whole file: a fixture made before midnight and its check after must name one day.
const FILE_STARTED = Date.now();
const dayBefore = (n: number) => new Date(FILE_STARTED - n * DAY_MS).toISOString().slice(0, 10);
let stack: Stack;
let ted: TedServer;
// Two publication days before today: the run reads them and today (TED_RECENT_DAYS=3).
const D2 = dayBefore(2);
const D1 = dayBefore(1);

beforeAll(async () => {
  ted = await startTed();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_CONTACT_EMAIL: CONTACT,
      SOURCES_HOST_MAP: `api.ted.europa.eu=${ted.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      TED_INTERVAL: '24h',
      TED_RECENT_DAYS: '3',
      TED_BACKFILL_DAYS: '2',
      TED_PAGE_SIZE: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await ingest(stack, [
    company('acme-infra', { name: 'Acme Infrastruktur GmbH', hqCountryCode: 'DE', hqCity: 'Köln' }),
    // Two stored companies share a name; only a country tells them apart.
    company('vega-de', { name: 'Vega Systems', hqCountryCode: 'DE', hqCity: 'Berlin' }),
    company('vega-fr', { name: 'Vega Systems', hqCountryCode: 'FR', hqCity: 'Lyon' }),
  ]);
});

afterAll(async () => {
  await stack?.stop();
  await ted?.close();
});

let lastTrigger = 0;

/** Starts a run (or a backfill) through the admin API. */
async function trigger(verb: 'run' | 'backfill') {
  // A schedule names a triggered run by the second it starts in: a second trigger within it starts nothing.
  if (Math.floor(Date.now() / 1000) === Math.floor(lastTrigger / 1000)) {
    await new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));
  }
  lastTrigger = Date.now();
  const answer = await call(`${stack.url}/admin/v1/sources/ted/${verb}`, { method: 'POST', token: TEST_ADMIN_TOKEN });
  expect(answer.status).toBe(200);
}

async function runTed(verb: 'run' | 'backfill' = 'run') {
  const before = (await stack.services.sources.get('ted')).lastRunFinishedAt;
  await trigger(verb);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const status = await stack.services.sources.get('ted');
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the ted run did not finish within 90 s');
}

const tenderEvents = () =>
  stack.db.query(
    `SELECT id, company_id, occurred_at, data FROM events WHERE type = 'public_tenders' AND id LIKE 'ted:%' ORDER BY id`,
  );
const searchesOf = (day: string) => ted.searches.filter((s) => s.day === day).map((s) => s.page);

const ACME = 'Acme Infrastruktur GmbH';

test('award notices of the recent days become public_tenders events at the matched winners; unmatched and ambiguous winners are dropped and counted', async () => {
  ted.publish(D2, [
    awardNotice({
      number: '700001-2026',
      day: D2,
      title: {
        deu: 'Deutschland – Bauarbeiten für Brücken – Rheinbrücke Köln',
        eng: 'Germany – Bridge construction work – Rhine bridge Cologne',
      },
      buyer: { deu: ['Stadt Köln'] },
      value: 1_250_000,
      currency: 'EUR',
      // Two winners: one a stored company, one no stored company has the name of.
      winners: { lang: 'deu', names: [ACME, 'Nordlicht Bau AG'] },
      countries: ['DEU', 'DEU'],
    }),
    awardNotice({
      number: '700002-2026',
      day: D2,
      title: { fra: 'France – Services informatiques – Plateforme de données' },
      buyer: { fra: ['Métropole de Lyon'] },
      value: 480_000.5,
      currency: 'EUR',
      winners: { lang: 'fra', names: ['Vega Systems'] },
      countries: ['FRA'],
    }),
    // Winners of two countries: which is whose is not told, so "Vega Systems" cannot be told apart.
    awardNotice({
      number: '700003-2026',
      day: D2,
      title: { eng: 'Belgium – Software package and information systems' },
      buyer: { eng: ['Federal Public Service Finance'] },
      winners: { lang: 'eng', names: ['Vega Systems', ACME] },
      countries: ['FRA', 'DEU'],
    }),
  ]);
  // A winner of two lots is named twice in winner-name: one event.
  ted.publish(D1, [
    awardNotice({
      number: '700004-2026',
      day: D1,
      title: { eng: 'Austria – Road maintenance' },
      buyer: { deu: ['Land Tirol', 'Land Tirol'] },
      winners: { lang: 'deu', names: [ACME, ACME] },
      winnerNameOnly: true,
      countries: ['DEU'],
    }),
  ]);

  const status = await runTed();

  expect(status).toMatchObject({ recordsIngested: 4, recordsDropped: 2, errors: 0, lastError: null });
  const link = (n: string) => `https://ted.europa.eu/en/notice/-/detail/${n}`;
  expect(await tenderEvents()).toEqual([
    {
      id: 'ted:700001-2026:co-acme-infra',
      company_id: 'co-acme-infra',
      occurred_at: new Date(`${D2}T00:00:00Z`),
      data: {
        news_title: 'Germany – Bridge construction work – Rhine bridge Cologne',
        news_url: link('700001-2026'),
        news_summary: 'Contract awarded to Acme Infrastruktur GmbH by Stadt Köln; total value 1,250,000 EUR.',
        announcement_date: D2,
      },
    },
    {
      id: 'ted:700002-2026:co-vega-fr',
      company_id: 'co-vega-fr',
      occurred_at: new Date(`${D2}T00:00:00Z`),
      data: {
        // No English title: the notice's own language.
        news_title: 'France – Services informatiques – Plateforme de données',
        news_url: link('700002-2026'),
        news_summary: 'Contract awarded to Vega Systems by Métropole de Lyon; total value 480,000.5 EUR.',
        announcement_date: D2,
      },
    },
    {
      id: 'ted:700003-2026:co-acme-infra',
      company_id: 'co-acme-infra',
      occurred_at: new Date(`${D2}T00:00:00Z`),
      data: {
        news_title: 'Belgium – Software package and information systems',
        news_url: link('700003-2026'),
        news_summary: 'Contract awarded to Acme Infrastruktur GmbH by Federal Public Service Finance.',
        announcement_date: D2,
      },
    },
    {
      id: 'ted:700004-2026:co-acme-infra',
      company_id: 'co-acme-infra',
      occurred_at: new Date(`${D1}T00:00:00Z`),
      data: {
        news_title: 'Austria – Road maintenance',
        news_url: link('700004-2026'),
        news_summary: 'Contract awarded to Acme Infrastruktur GmbH by Land Tirol.',
        announcement_date: D1,
      },
    },
  ]);
  // Nordlicht (no such company) and Vega of notice 700003 (two of that name) made nothing.
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM companies WHERE name = 'Nordlicht Bau AG'`)).toEqual([
    { n: 0 },
  ]);

  // D2's three notices came two a page; each search asked for result notices of that one day.
  expect(searchesOf(D2)).toEqual([1, 2]);
  expect(searchesOf(D1)).toEqual([1]);
  expect(searchesOf(dayBefore(0))).toEqual([1]);
  const first = ted.searches.find((s) => s.day === D2)!;
  const compact = D2.replace(/-/g, '');
  expect(first.body).toMatchObject({
    query: `(form-type IN (result)) AND (publication-date >= ${compact}) AND (publication-date <= ${compact})`,
    page: 1,
    limit: 2,
    paginationMode: 'PAGE_NUMBER',
    fields: expect.arrayContaining(['publication-number', 'notice-title', 'buyer-name', 'organisation-name-tenderer']),
  });
  expect(first.headers['user-agent']).toContain(CONTACT);
  expect(first.headers['content-type']).toBe('application/json');

  // The days before today are read; today is read again by the next run.
  expect(
    await stack.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, read_at IS NOT NULL AS read, next_page FROM ted_days ORDER BY day`,
    ),
  ).toEqual([
    { day: dayBefore(2), read: true, next_page: 3 },
    { day: D1, read: true, next_page: 2 },
    { day: dayBefore(0), read: false, next_page: 1 },
  ]);
});

test('a rerun reads only today again; a backfill reads the past days again and adds nothing twice', async () => {
  const before = await tenderEvents();
  ted.searches.length = 0;
  let status = await runTed();
  expect(ted.searches.map((s) => s.day)).toEqual([dayBefore(0)]);
  expect(status).toMatchObject({ recordsIngested: 4, recordsDropped: 2, errors: 0 });

  ted.searches.length = 0;
  status = await runTed('backfill');
  expect(searchesOf(D2)).toEqual([1, 2]);
  expect(searchesOf(D1)).toEqual([1]);
  expect(await tenderEvents()).toEqual(before);
  // Nothing new ingested; the unmatched winners are dropped again, as read again.
  expect(status).toMatchObject({ recordsIngested: 4, recordsDropped: 4, errors: 0 });
});

test('a 429 waits its Retry-After and the day goes on at the page it stopped at; a malformed answer is named in the status and the other days go on', async () => {
  ted.searches.length = 0;
  ted.once(D2, 2, { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"Too Many Requests"}' });
  let status = await runTed('backfill');
  // Page 1 once, page 2 twice (the 429, then its retry); nothing counted twice, no error.
  expect(searchesOf(D2)).toEqual([1, 2, 2]);
  expect(status).toMatchObject({ recordsIngested: 4, recordsDropped: 6, errors: 0 });

  ted.searches.length = 0;
  ted.once(D2, 1, {
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: '<html><body>Service temporarily unavailable</body></html>',
  });
  status = await runTed('backfill');
  expect(status.errors).toBe(1);
  expect(status.lastError).toMatch(new RegExp(`^TED award notices of ${D2} \\(page 1\\): not JSON`));
  // D1 was read all the same; D2 waits for the next run, at the page that failed.
  expect(searchesOf(D1)).toEqual([1]);
  expect(
    await stack.db.query(`SELECT read_at IS NOT NULL AS read, next_page, last_error FROM ted_days WHERE day = $1`, [
      D2,
    ]),
  ).toEqual([{ read: false, next_page: 1, last_error: status.lastError }]);

  ted.searches.length = 0;
  status = await runTed();
  expect(searchesOf(D2)).toEqual([1, 2]);
  expect(
    await stack.db.query(`SELECT read_at IS NOT NULL AS read, last_error FROM ted_days WHERE day = $1`, [D2]),
  ).toEqual([{ read: true, last_error: null }]);
  expect(status.errors).toBe(1);
  expect(await tenderEvents()).toHaveLength(4);

  // A notice without a publication number cannot be linked to: named in the status, the page's others read.
  ted.publish(D1, [
    awardNotice({
      number: '700005-2026',
      day: D1,
      title: { eng: 'Spain – Cleaning services' },
      buyer: { spa: ['Ayuntamiento de Bilbao'] },
      winners: { lang: 'spa', names: [ACME] },
      countries: ['DEU'],
    }),
    { 'publication-date': `${D1}+01:00`, 'notice-title': { eng: 'No number' } },
  ]);
  status = await runTed('backfill');
  expect(status.errors).toBe(2);
  expect(status.lastError).toBe(`TED award notices of ${D1} (page 1): unreadable notices #2`);
  expect((await tenderEvents()).map((e: { id: string }) => e.id)).toContain('ted:700005-2026:co-acme-infra');
});

test('a run killed mid-way resumes from its cursor: the day under way is read to its end, the others by the next run, nothing twice', async () => {
  ted.searches.length = 0;
  let release!: () => void;
  ted.once(D2, 2, { hold: new Promise<void>((resolve) => (release = resolve)) });
  const before = await stack.services.sources.get('ted');
  const eventsBefore = await tenderEvents();
  await trigger('backfill');
  await waitFor(
    'the search of page 2',
    async () => searchesOf(D2),
    (pages) => pages.includes(2),
    { timeoutMs: 60_000 },
  );
  const scheduled = await stack.temporal.schedule.getHandle(stack.services.sources.schedules.idOf('ted')).describe();
  const running = scheduled.info.runningActions[0]!.workflow;
  await stack.temporal.workflow.getHandle(running.workflowId).terminate('killed mid-run by the test');
  expect((await stack.services.sources.get('ted')).running).toBe(true);
  release();
  // The killed run's last activity still finishes its day; the cursor is then past it.
  await waitFor(
    'the cursor past the held day',
    async () => (await stack.db.query(`SELECT state FROM sources WHERE name = 'ted'`))[0].state.cursor,
    (cursor) => cursor === `day-${D2}`,
  );
  expect(searchesOf(D1)).toEqual([]);

  const resumed = await runTed();
  expect(searchesOf(D2)).toEqual([1, 2]);
  expect(searchesOf(D1)).toEqual([1]);
  expect(await tenderEvents()).toEqual(eventsBefore);
  expect(resumed.recordsIngested).toBe(before.recordsIngested);
});

test('an award to a company an account watchlist watches by name becomes a public_tenders lead', async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Tender winners',
    status: 'active',
    config: { companies: ['Heron Bau GmbH'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toEqual([]);

  ted.publish(D1, [
    awardNotice({
      number: '710001-2026',
      day: D1,
      title: { deu: 'Deutschland – Hochbau – Schule Nord', eng: 'Germany – Building construction – North school' },
      buyer: { deu: ['Freie und Hansestadt Hamburg'] },
      value: 3_400_000,
      currency: 'EUR',
      winners: { lang: 'deu', names: ['Heron Bau GmbH'] },
      countries: ['DEU'],
    }),
  ]);
  await runTed('backfill');
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].signal).toMatchObject({
    type: 'account_watchlist',
    last_signal: 'Public Tenders Watchlist',
    last_signal_date: D1,
    news_title: 'Germany – Building construction – North school',
    news_url: 'https://ted.europa.eu/en/notice/-/detail/710001-2026',
    news_summary: 'Contract awarded to Heron Bau GmbH by Freie und Hansestadt Hamburg; total value 3,400,000 EUR.',
    announcement_date: D1,
  });
  expect(leads[0].company).toMatchObject({ name: 'Heron Bau GmbH' });
  expect(leads[0].contact).toBe('');
  expect(await stack.db.query(`SELECT id, hq_country_code FROM companies WHERE name = 'Heron Bau GmbH'`)).toEqual([
    { id: 'ted-heron-bau-gmbh-de', hq_country_code: 'DE' },
  ]);
});
