import { matchPersona } from '../../src/catalogue/personas';
import { isKnownIndustry } from '../../src/catalogue/industries';
import { resolveLocation } from '../../src/catalogue/locations';
import { WATCHLIST_EVENT_KEYS } from '../../src/catalogue/watchlist-events';
import { createLogger } from '../../src/logger';
import { ingestionSink } from '../../src/providers/data/data-provider';
import { DemoDataProvider, DemoStore, startDemoFeed } from '../../src/providers/data/demo-provider';
import { DEMO_HISTORY, DemoRecords, type DemoCompanyRef } from '../../src/providers/data/demo-records';
import { EVENT_TYPES, RECORD_SCHEMAS, type RecordKind } from '../../src/providers/data/records';
import { backtestForecasts } from '../../src/sources/forecasts/backtest';
import { startStack, type Stack } from '../setup/stack';

const NOW = new Date('2025-03-14T12:00:00Z');
const history = new DemoRecords().history(NOW) as unknown as ({ kind: RecordKind; id: string } & Record<string, any>)[];
const ofKind = (kind: RecordKind) => history.filter((r) => r.kind === kind);

/** The lead `signal` fields each event type must carry. */
const EXPECTED_FIELDS: Record<string, string[]> = {
  job_change: [
    'previous_title',
    'previous_company',
    'new_title',
    'new_company',
    'new_job_started_on',
    'new_job_start_month',
    'change_type',
  ],
  fundraising: ['funding_type', 'funding_amount_usd', 'announcement_date'],
  mergers_acquisitions: ['deal_type', 'watchlist_role', 'announcement_date'],
  forecasted_funding: ['funding_type'],
  forecasted_ipo: [],
  forecasted_acquisition: ['deal_type', 'watchlist_role'],
  forecasted_growth: [],
  public_tenders: ['news_title', 'news_url', 'announcement_date'],
  job_offers: [
    'job_offer_url',
    'job_offer_title',
    'job_offer_location',
    'job_offer_description',
    'job_offer_source',
    'job_offer_date',
    'job_offer_published_date',
    'matched_keywords',
  ],
  recruitment_campaign: ['job_offer_url', 'job_offer_title', 'job_offer_source', 'job_offer_published_date'],
  new_decision_makers: ['new_job_started_on', 'new_job_start_month'],
  company_post_reactions: ['post_url', 'post_date', 'engagement_type'],
  competitor_social_reactions: ['post_url', 'post_date', 'engagement_type'],
  competitor_connections: ['post_date', 'engagement_type'],
  company_news: [
    'news_event_type',
    'news_event_label',
    'news_event_date',
    'news_headline',
    'news_url',
    'news_title',
    'news_summary',
  ],
};

describe('demo records', () => {
  test('every generated record passes the ingestion schemas', () => {
    expect(history).toHaveLength(DEMO_HISTORY.companies + DEMO_HISTORY.people + DEMO_HISTORY.events);
    const failures = history.flatMap((record) => {
      const parsed = RECORD_SCHEMAS[record.kind].safeParse(record);
      return parsed.success ? [] : [{ id: record.id, issues: parsed.error.issues }];
    });
    expect(failures).toEqual([]);
  });

  test('the same seed gives the same records, record by record', () => {
    expect(new DemoRecords().history(NOW)).toEqual(history);
    expect(new DemoRecords().company(42)).toEqual(history.find((r) => r.id === 'demo-company-42'));
  });

  test('companies use the taxonomy, real places, every size band and unique names', () => {
    const companies = ofKind('company');
    expect(companies.every((c) => isKnownIndustry(c.industry))).toBe(true);
    expect(new Set(companies.map((c) => c.industry)).size).toBeGreaterThan(40);
    expect(
      companies.every((c) => resolveLocation(`${c.hqCity}, ${c.hqCountryCode}`)?.countryCode === c.hqCountryCode),
    ).toBe(true);
    expect(new Set(companies.map((c) => c.name)).size).toBe(companies.length);
    expect(new Set(companies.map((c) => c.domain)).size).toBe(companies.length);
    const counts = companies.map((c) => c.employeeCount as number);
    expect(Math.min(...counts)).toBeLessThanOrEqual(10);
    expect(Math.max(...counts)).toBeGreaterThan(5000);
  });

  test('texts end with one full stop, and a job change stays in the department of the new role (issue 38)', () => {
    const companies = ofKind('company');
    expect(companies.filter((c) => /\.\.$/.test(c.metaDescription ?? '')).map((c) => c.metaDescription)).toEqual([]);
    expect(companies.some((c) => c.hqCity === 'Washington, D.C.')).toBe(true);
    const changes = ofKind('event').filter((e) => e.type === 'job_change');
    const departments = changes
      .map((e) => [matchPersona(e.data.previous_title)?.department, matchPersona(e.data.new_title)?.department])
      .filter(([before, after]) => before && after);
    expect(departments.length / changes.length).toBeGreaterThan(0.8);
    expect(departments.filter(([before, after]) => before !== after)).toEqual([]);
  });

  test('people have titles the persona catalogue recognises, in real cities', () => {
    const people = ofKind('person');
    const matched = people.filter((p) => matchPersona(p.title));
    expect(matched.length / people.length).toBeGreaterThan(0.9);
    expect(new Set(matched.map((p) => matchPersona(p.title)!.name)).size).toBeGreaterThan(30);
    const located = people.filter((p) => resolveLocation(`${p.city}, ${p.countryCode}`)?.countryCode === p.countryCode);
    expect(located.length / people.length).toBeGreaterThan(0.95);
    const companies = new Set(ofKind('company').map((c) => c.id));
    expect(people.every((p) => companies.has(p.companyId))).toBe(true);
  });

  test('every event type occurs, with its data fields, inside the last 120 days', () => {
    const events = ofKind('event');
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    expect(EVENT_TYPES).toHaveLength(1 + WATCHLIST_EVENT_KEYS.length);
    for (const event of events) {
      for (const field of EXPECTED_FIELDS[event.type]) {
        expect([event.type, field, event.data[field] === undefined || event.data[field] === '']).toEqual([
          event.type,
          field,
          false,
        ]);
      }
    }
    const news = events.filter((e) => e.type === 'company_news');
    expect(new Set(news.map((e) => e.data.news_event_type)).size).toBeGreaterThanOrEqual(6);
    for (const e of news.filter((n) => n.data.news_event_type === 'event_participation')) {
      expect(e.data.news_event_name).toBeTruthy();
      expect(e.data.news_event_location).toBeTruthy();
    }
    expect(
      events.filter((e) => e.type === 'fundraising').every((e) => typeof e.data.funding_amount_usd === 'number'),
    ).toBe(true);
    const times = events.map((e) => Date.parse(e.occurredAt));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - 120 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
    // A job change happens in the month the person started.
    const people = new Map(ofKind('person').map((p) => [p.id, p]));
    for (const e of events.filter((x) => x.type === 'job_change')) {
      expect(e.data.new_job_start_month).toBe(people.get(e.personId)!.startedOn);
      expect(e.occurredAt.slice(0, 7)).toBe(e.data.new_job_start_month);
    }
  });

  test('a live tick adds joiners with their events and events dated now', () => {
    const companies = ofKind('company').slice(0, 20) as unknown as DemoCompanyRef[];
    const at = new Date('2025-03-14T12:30:00Z');
    const tick = new DemoRecords().tick(at, { companies, people: [] }, { company: 300, person: 1500 });
    const events = tick.records.filter((r) => r.kind === 'event') as { occurredAt: string; type: string }[];
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events.length).toBeLessThanOrEqual(20);
    expect(events.every((e) => at.getTime() - Date.parse(e.occurredAt) <= 15_000)).toBe(true);
    const failures = tick.records.filter((r) => !RECORD_SCHEMAS[r.kind].safeParse(r).success);
    expect(failures).toEqual([]);
    expect(tick.records.filter((r) => r.kind === 'person')).toHaveLength(tick.people);
  });
});

describe('demo provider against the store', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: false });
  });
  afterAll(() => stack.stop());

  const logger = createLogger('silent');
  const totals = async () =>
    (
      await stack.db.query(
        `SELECT (SELECT count(*)::int FROM companies) AS companies, (SELECT count(*)::int FROM people) AS people, (SELECT count(*)::int FROM events) AS events`,
      )
    )[0];

  test('seeding twice adds nothing, and a live tick is accepted whole', async () => {
    const provider = new DemoDataProvider(new DemoStore(stack.db), logger, {
      intervalMs: 60_000,
      clock: stack.services.clock,
    });
    const sink = ingestionSink(stack.services.ingestion);
    const first = await provider.seedHistory(sink);
    // The history and the forecast stories' 50 older events (src/providers/data/demo-forecast-stories.ts).
    expect(first).toMatchObject({ accepted: 3050, duplicates: 0, rejected: 0 });
    expect(await totals()).toEqual({ companies: 300, people: 1500, events: 1250 });

    expect(await provider.seedHistory(sink)).toBeNull();
    const forced = await sink(new DemoRecords().history(stack.services.clock.now()));
    expect(forced).toMatchObject({ accepted: 0, duplicates: 3000, rejected: 0 });
    expect(await totals()).toEqual({ companies: 300, people: 1500, events: 1250 });

    const fed = await provider.feed(sink);
    expect(fed.rejected).toBe(0);
    expect(fed.accepted).toBeGreaterThanOrEqual(6);
    const [{ recent }] = await stack.db.query(
      `SELECT count(*)::int AS recent FROM events WHERE occurred_at > now() - interval '1 minute'`,
    );
    expect(recent).toBeGreaterThanOrEqual(5);
  });

  test('the demo history is made so that some forecasts come true and some do not', async () => {
    const dayBefore = (days: number) =>
      new Date(stack.services.clock.now().getTime() - days * 86_400_000).toISOString().slice(0, 10);
    const answer = await backtestForecasts(stack.db, { from: dayBefore(600), to: dayBefore(400) });
    const byRule = Object.fromEntries(answer.rules.map((r) => [r.rule, { cameTrue: r.cameTrue, missed: r.missed }]));
    expect(byRule).toEqual({
      'likely-to-raise': { cameTrue: 1, missed: 1 },
      'path-to-ipo': { cameTrue: 1, missed: 0 },
      'acquisition-target': { cameTrue: 1, missed: 1 },
      'expected-to-scale': { cameTrue: 1, missed: 1 },
    });
  });

  test('the running feed keeps adding events until stopped', async () => {
    const before = (await totals()).events;
    const feed = await startDemoFeed(stack.services, logger, { intervalMs: 100 });
    const deadline = Date.now() + 10_000;
    while ((await totals()).events < before + 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await feed.stop();
    const stopped = (await totals()).events;
    expect(stopped).toBeGreaterThanOrEqual(before + 20);
    await new Promise((r) => setTimeout(r, 300));
    expect((await totals()).events).toBe(stopped);
  });
});
