import type { Page } from 'playwright-core';
import { call } from '../setup/http';
import { company, daysAgo, evaluateNow, event, ingest, person, settled, startLeadsStack, uid } from '../leads/fixtures';
import {
  DEFAULT_SCORING_MODEL,
  SCORED_EVENT_TYPES,
  accountScore,
  type ScoringModel,
} from '../../src/signal-types/kit/account-score';
import { screenshot, signUp, tableRows, textOf, useBrowserStack, watchPage } from './browser';

/**
 * Issue 35 in Chromium: the "Account score" page (the model's defaults, an edit saved and the
 * score it gives, a bad value refused with its reason and nothing changed) and a lead's "Why
 * this lead" page, opened from the lead row on the signal's page, for a hiring lead and an
 * account_score lead with its breakdown.
 */
const bed = useBrowserStack(() => startLeadsStack());
let page: Page;
let apiKey: string;
let seen: ReturnType<typeof watchPage>;

beforeAll(async () => {
  page = await bed.freshPage();
  seen = watchPage(page);
  await signUp(page, bed.stack.url, `${uid('scoring')}@example.com`);
  await page.goto(`${bed.stack.url}/api-keys`);
  await page.fill('#keyName', 'Scoring key');
  await page.click('button:has-text("Create key")');
  await page.waitForSelector('#new-api-key');
  apiKey = ((await page.textContent('#new-api-key')) ?? '').trim();
});

const rest = (path: string, init: { method?: string; body?: unknown } = {}) =>
  call(`${bed.stack.url}/api/v1${path}`, { token: apiKey, ...init });
const inputValue = (type: string, field: string) => page.inputValue(`input[name="${type}.${field}"]`);
/** The page's model as its inputs hold it, the types with points only (as the page saves it). */
const modelOnPage = async (): Promise<ScoringModel> => {
  const eventTypes: ScoringModel['eventTypes'] = {};
  for (const type of SCORED_EVENT_TYPES) {
    const points = Number(await inputValue(type, 'points'));
    if (points > 0)
      eventTypes[type] = {
        points,
        halfLifeDays: Number(await inputValue(type, 'halfLifeDays')),
        ceiling: Number(await inputValue(type, 'ceiling')),
      };
  }
  return { eventTypes } as ScoringModel;
};

test('the scoring model: defaults shown, an edit saved and scored with, a bad value refused and nothing changed', async () => {
  const slug = uid('scored');
  const co = company(slug);
  const roundAt = daysAgo(90);
  await ingest(bed.stack, [co, event(`sec-form-d:${slug}`, 'fundraising', roundAt, co.id)]);

  await page.goto(`${bed.stack.url}/scoring`);
  expect(await textOf(page, 'main .card .hint')).toMatch(/^The defaults\./);
  expect(await modelOnPage()).toEqual(DEFAULT_SCORING_MODEL);
  // One round of 90 days under the defaults: 30 points halved once.
  await page.fill('#companyId', co.id);
  await page.click('button:has-text("Score it")');
  expect(await textOf(page, '.score')).toBe('15');
  expect(await tableRows(page, 'table.score-breakdown')).toEqual([
    ['fundraising', roundAt.slice(0, 10), '30', '0.5', '15'],
  ]);

  // A round worth 40 points that halves every 180 days: the same round now scores 40 × 0.5^(90/180).
  await page.fill('input[name="fundraising.points"]', '40');
  await page.fill('input[name="fundraising.halfLifeDays"]', '180');
  await page.fill('input[name="fundraising.ceiling"]', '50');
  await page.click('button:has-text("Save the model")');
  expect(await textOf(page, '.notice.ok')).toContain('Scoring model saved');
  expect(await textOf(page, 'main .card .hint')).toMatch(/^Your own, saved \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
  const saved = {
    eventTypes: { ...DEFAULT_SCORING_MODEL.eventTypes, fundraising: { points: 40, halfLifeDays: 180, ceiling: 50 } },
  };
  const stored = await rest('/scoring-model');
  expect(stored.body).toMatchObject({ source: 'account', model: saved });
  expect(await modelOnPage()).toEqual(saved);
  await page.goto(`${bed.stack.url}/scoring?companyId=${encodeURIComponent(co.id)}`);
  const expected = accountScore(
    [{ id: `sec-form-d:${slug}`, type: 'fundraising', occurredAt: new Date(roundAt) }],
    saved as ScoringModel,
    new Date(),
  );
  expect(Number(await textOf(page, '.score'))).toBeCloseTo(expected.score, 0);
  expect(await textOf(page, 'main')).toContain(`grade ${expected.grade}`);
  expect((await tableRows(page, 'table.score-breakdown'))[0]!.slice(0, 3)).toEqual([
    'fundraising',
    roundAt.slice(0, 10),
    '40',
  ]);

  // A half-life of 0 days (the field allows it, the model does not): the reason shown, the typed values kept, nothing stored.
  await page.goto(`${bed.stack.url}/scoring`);
  await page.fill('input[name="job_offers.halfLifeDays"]', '0');
  await page.fill('input[name="job_change.points"]', '12');
  await page.click('button:has-text("Save the model")');
  const refusal = await textOf(page, '.notice.error');
  expect(refusal).toContain('eventTypes.job_offers.halfLifeDays');
  expect(await inputValue('job_offers', 'halfLifeDays')).toBe('0');
  expect(await inputValue('job_change', 'points')).toBe('12');
  const after = await rest('/scoring-model');
  expect(after.body).toEqual(stored.body);
  // Points over 100 are refused as well.
  await page.goto(`${bed.stack.url}/scoring`);
  await page.fill('input[name="company_news.points"]', '150');
  await page.click('button:has-text("Save the model")');
  expect(await textOf(page, '.notice.error')).toContain('eventTypes.company_news.points');
  expect((await rest('/scoring-model')).body).toEqual(stored.body);
  await screenshot(page, 'scoring-refused');

  // Back to the defaults for the next test's leads.
  expect((await rest('/scoring-model', { method: 'PUT', body: DEFAULT_SCORING_MODEL })).status).toBe(200);
  expect(seen.errors).toEqual([]);
});

/** Opens the signal's page, expands the lead row of `companyName` and follows its "Why this lead". */
async function openWhy(signalId: string, companyName: string): Promise<void> {
  await page.goto(`${bed.stack.url}/signals/${signalId}`);
  const row = page.locator('details.lead', { hasText: companyName });
  expect(await row.count()).toBe(1);
  await row.locator('summary').click();
  await row.locator('a:has-text("Why this lead")').click();
  await page.waitForURL(/\/leads\/[0-9a-f-]{36}$/);
  expect(await textOf(page, 'h1')).toBe('Why this lead');
}

/** The conditions list as field → what it says. */
const conditionsOnPage = async (): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await page.evaluate(
      `[...document.querySelectorAll('dl.lead-facts dt')].map((dt) => [dt.textContent.trim(), dt.nextElementSibling.textContent.replace(/\\s+/g, ' ').trim()])`,
    )) as [string, string][],
  );

test('"Why this lead" opens from the lead row: the event, its date, source and record, the conditions met', async () => {
  const slug = uid('whyhire');
  const co = company(slug);
  const postedAt = daysAgo(2);
  const postingUrl = `https://boards.greenhouse.io/${slug}/jobs/1`;
  await ingest(bed.stack, [
    co,
    event(`greenhouse:${slug}:1`, 'job_offers', postedAt, co.id, {
      data: {
        job_offer_url: postingUrl,
        job_offer_title: 'Senior Data Engineer',
        job_offer_location: 'Austin, Texas, United States',
        job_offer_description: `Snowflake pipelines at ${slug}.`,
      },
    }),
  ]);
  const created = await rest('/signals/hiring', {
    method: 'POST',
    body: { name: 'Data hires', status: 'active', config: { keywords: [slug] } },
  });
  expect(created.status).toBe(201);
  await settled(bed.stack, created.body.id);

  await openWhy(created.body.id, co.name);
  expect(await textOf(page, 'main h2')).toBe(`${co.name} · ${await leadLabel(created.body.id)}`);
  expect(await tableRows(page, 'table.evidence-events')).toEqual([
    [
      'job offers',
      `${postedAt.slice(0, 19).replace('T', ' ')} UTC`,
      'job-boards',
      postingUrl,
      expect.stringMatching(/ UTC$/),
    ],
  ]);
  expect(await page.getAttribute('table.evidence-events a', 'href')).toBe(postingUrl);
  const conditions = await conditionsOnPage();
  expect(conditions.type).toBe('hiring');
  expect(conditions.keywords).toBe(slug);
  expect(await page.locator('table.score-breakdown').count()).toBe(0);
  // The page's link back goes to the signal.
  expect(await page.getAttribute('main .hint a', 'href')).toBe(`/signals/${created.body.id}`);
  expect(seen.errors).toEqual([]);
});

/** The label the lead's payload carries as its last signal (the heading shows it). */
async function leadLabel(signalId: string): Promise<string> {
  const leads = await rest(`/signals/${signalId}/leads`);
  return String(leads.body.leads[0].signal.last_signal);
}

test('"Why this lead" of an account_score lead: every event of the score with its source, the conditions and the breakdown', async () => {
  const slug = uid('whyscore');
  const co = company(slug);
  const roundAt = daysAgo(20);
  const leaderAt = daysAgo(1);
  const newsAt = daysAgo(10);
  const newsUrl = `https://news.example.com/${slug}`;
  await ingest(bed.stack, [
    co,
    person(`${slug}-cfo`, co.id, { title: 'CFO' }),
    event(`sec-form-d:${slug}`, 'fundraising', roundAt, co.id, {
      data: { funding_type: 'Equity', funding_amount_usd: 8_000_000, announcement_date: roundAt.slice(0, 10) },
    }),
    event(`news:${slug}`, 'company_news', newsAt, co.id, {
      data: { news_url: newsUrl, news_headline: `${co.name} opens an office` },
    }),
    // 30 points halved over 20 days and 5 over 10: below 40 until the new leader.
    event(`companies-house:appointment:${slug}`, 'new_decision_makers', leaderAt, co.id, {
      personId: `pe-${slug}-cfo`,
    }),
  ]);
  // The signal from its dashboard form, as a person makes it.
  await page.goto(`${bed.stack.url}/signals/new/account-score`);
  await page.fill('#name', 'Hot accounts');
  await page.fill('#threshold', '40');
  await page.fill('#minDistinctTypes', '2');
  await page.fill('#cooldownDays', '30');
  await page.check('input[name=activate]');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const signalId = /\/signals\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await settled(bed.stack, signalId);
  await evaluateNow(bed.stack, signalId);

  await openWhy(signalId, co.name);
  expect(await textOf(page, 'main h2')).toBe(`${co.name} · Account Score Crossed`);
  const when = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  const rows = await tableRows(page, 'table.evidence-events');
  const read = expect.stringMatching(/ UTC$/);
  // The crossing event first, then the other events of the breakdown.
  expect(rows[0]).toEqual([
    'new decision makers',
    when(new Date(leaderAt).toISOString()),
    'companies-house',
    `companies-house:appointment:${slug}`,
    read,
  ]);
  expect(rows.slice(1)).toEqual(
    expect.arrayContaining([
      ['fundraising', when(new Date(roundAt).toISOString()), 'sec-form-d', `sec-form-d:${slug}`, read],
      ['company news', when(new Date(newsAt).toISOString()), 'news', newsUrl, read],
    ]),
  );
  expect(rows).toHaveLength(3);
  expect(await page.getAttribute('table.evidence-events a', 'href')).toBe(newsUrl);

  const expected = accountScore(
    [
      { id: `sec-form-d:${slug}`, type: 'fundraising', occurredAt: new Date(roundAt) },
      { id: `news:${slug}`, type: 'company_news', occurredAt: new Date(newsAt) },
      { id: `companies-house:appointment:${slug}`, type: 'new_decision_makers', occurredAt: new Date(leaderAt) },
    ],
    DEFAULT_SCORING_MODEL,
    new Date(leaderAt),
  );
  const conditions = await conditionsOnPage();
  expect(conditions).toMatchObject({
    type: 'account_score',
    threshold: `40 (had ${expected.score})`,
    minDistinctTypes: `2 (had ${expected.distinctTypes})`,
    cooldownDays: '30',
  });
  expect(await textOf(page, 'main h3:has-text("The score")')).toBe(
    `The score: ${expected.score} (grade ${expected.grade})`,
  );
  expect(await tableRows(page, 'table.score-breakdown')).toEqual(
    expected.breakdown.map((p) => [
      p.type.replace(/_/g, ' '),
      p.date.slice(0, 10),
      String(p.weight),
      String(p.decay),
      String(p.contribution),
    ]),
  );
  await screenshot(page, 'why-this-lead-score');

  // Another account's person gets the not-found page for this lead.
  const leadUrl = page.url();
  const stranger = await bed.freshPage();
  await signUp(stranger, bed.stack.url, `${uid('stranger')}@example.com`);
  const answer = await stranger.goto(leadUrl);
  expect(answer?.status()).toBe(404);
  expect(await textOf(stranger, 'main')).toContain('There is nothing here');
  expect(seen.errors).toEqual([]);
});
