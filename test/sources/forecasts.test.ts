import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { ingest } from '../leads/fixtures';
import { readForecasts } from '../../src/sources/forecasts/forecast-reading';
import { likelyToRaise } from '../../src/sources/forecasts/likely-to-raise';
import { pathToIpo } from '../../src/sources/forecasts/path-to-ipo';
import { acquisitionTarget } from '../../src/sources/forecasts/acquisition-target';
import { expectedToScale } from '../../src/sources/forecasts/expected-to-scale';
import type { ForecastRule } from '../../src/sources/forecasts/forecast-rule';
import { History, days } from './forecast-histories';

let stack: Stack;

// The rules' histories end on AS_OF (mid-2025); the backtest's lie in 2017-2019, so neither sees the other.
const AS_OF = new Date('2025-06-30T23:59:59.999Z');
const rules = new History('rule');
const bt = new History('bt');

// --- likely to raise
const raiseHiring = rules.company('raise-hiring');
const raiseHiringRound = rules.round(raiseHiring, '2024-03-01', {
  funding_type: 'Series A',
  funding_amount_usd: 12_000_000,
});
const raiseHiringPostings = ['2025-04-05', '2025-04-20', '2025-05-10', '2025-05-25'].map((d) =>
  rules.posting(raiseHiring, d),
);
rules.posting(raiseHiring, '2025-01-10');
const raiseTooSoon = rules.company('raise-too-soon');
rules.round(raiseTooSoon, '2025-01-15', { funding_type: 'Seed' });
['2025-04-05', '2025-04-20', '2025-05-10', '2025-05-25'].forEach((d) => rules.posting(raiseTooSoon, d));
const raiseCfo = rules.company('raise-cfo', { name: 'Müller Präzision GmbH', hqCountryCode: 'DE' });
// A German title naming the CFO in brackets, as the register prints it.
const raiseCfoLeader = rules.leader(raiseCfo, '2025-05-10', 'Finanzvorstand (CFO)');
const raiseFlat = rules.company('raise-flat');
// A round with neither stage nor amount (an allotment with the amount blank).
rules.round(raiseFlat, '2024-01-01', { funding_amount_usd: '' });
['2025-01-10', '2025-02-10', '2025-04-10', '2025-05-10'].forEach((d) => rules.posting(raiseFlat, d));

// --- path to IPO
const ipoLate = rules.company('ipo-late');
rules.round(ipoLate, '2024-09-01', { funding_type: 'Series D', funding_amount_usd: 120_000_000 });
const ipoPosting = rules.posting(ipoLate, '2025-05-01', 'Director, Investor Relations');
rules.leader(ipoLate, '2025-06-01', 'Independent Non-Executive Director');
const ipoEarly = rules.company('ipo-early');
rules.round(ipoEarly, '2024-09-01', { funding_type: 'Series A', funding_amount_usd: 8_000_000 });
rules.posting(ipoEarly, '2025-05-01', 'Investor Relations Manager');
const ipoFiling = rules.company('ipo-filing');
const ipoFilingNews = rules.news(
  ipoFiling,
  '2025-06-10',
  'funding',
  '',
  'The company confidentially submitted a draft registration statement on Form S-1 to the SEC.',
);

// --- likely acquisition target
const acqStalled = rules.company('acq-stalled');
rules.round(acqStalled, '2021-05-01', { funding_type: 'Series B' });
['2024-08-10', '2024-09-10', '2024-10-10'].forEach((d) => rules.posting(acqStalled, d));
const acqLayoffs = rules.news(
  acqStalled,
  '2025-05-20',
  'restructuring',
  'Acq Stalled announces layoffs of 20% of staff',
);
const acqRecentRound = rules.company('acq-recent-round');
rules.round(acqRecentRound, '2023-06-01', { funding_type: 'Series B' });
rules.news(acqRecentRound, '2025-05-20', 'restructuring', 'Acq Recent Round restructures its sales team');
const acqHiring = rules.company('acq-hiring');
rules.round(acqHiring, '2021-05-01', { funding_type: 'Series A' });
['2024-08-10', '2025-05-10'].forEach((d) => rules.posting(acqHiring, d));

// --- expected to scale
const scaleUp = rules.company('scale-up');
rules.posting(scaleUp, '2025-01-15');
['2025-04-02', '2025-04-20', '2025-05-12'].forEach((d) => rules.posting(scaleUp, d, 'Software Engineer'));
['2025-04-05', '2025-05-02', '2025-06-01'].forEach((d) =>
  rules.posting(scaleUp, d, 'Account Executive', 'Berlin, Germany'),
);
const scaleOneTeam = rules.company('scale-one-team');
['2025-04-02', '2025-04-20', '2025-05-12', '2025-05-20', '2025-06-02', '2025-06-10'].forEach((d) =>
  rules.posting(scaleOneTeam, d, 'Backend Engineer'),
);
const scaleFlat = rules.company('scale-flat');
['2025-01-05', '2025-01-20', '2025-02-05', '2025-02-20'].forEach((d) =>
  rules.posting(scaleFlat, d, 'Software Engineer'),
);
['2025-04-05', '2025-04-20', '2025-05-05', '2025-05-20', '2025-06-05'].forEach((d, i) =>
  rules.posting(scaleFlat, d, i % 2 ? 'Software Engineer' : 'Account Executive'),
);

const ALL = rules.records.filter((r) => r.kind === 'company').map((r) => r.id);

// --- the backtest's history: some forecasts come true, some do not (docs/decisions/forecasts.md)
const btRaiseTrue = bt.company('raise-true');
bt.round(btRaiseTrue, '2017-03-01', { funding_type: 'Seed' });
bt.posting(btRaiseTrue, '2018-01-10');
['2018-04-05', '2018-04-20', '2018-05-10', '2018-05-25'].forEach((d) => bt.posting(btRaiseTrue, d));
bt.round(btRaiseTrue, '2018-10-15', { funding_type: 'Series A' });
// Hiring grows before the round is a year old; nothing new comes when it is: time alone moves it (the rule's agedSql).
const btRaiseAged = bt.company('raise-aged');
bt.round(btRaiseAged, '2017-07-01', { funding_type: 'Seed' });
['2018-01-10', '2018-05-01', '2018-05-15', '2018-05-25', '2018-06-20'].forEach((d) => bt.posting(btRaiseAged, d));
const btRaiseMissed = bt.company('raise-missed');
bt.leader(btRaiseMissed, '2018-05-10', 'Chief Financial Officer');
const btIpo = bt.company('ipo-true');
bt.round(btIpo, '2017-09-01', { funding_type: 'Series D', funding_amount_usd: 150_000_000 });
bt.posting(btIpo, '2018-05-15', 'Investor Relations Manager');
bt.news(btIpo, '2019-03-01', 'funding', 'Ipo True Labs prices its initial public offering');
const btAcqTrue = bt.company('acq-true');
bt.round(btAcqTrue, '2014-05-01', { funding_type: 'Series A' });
['2017-09-10', '2017-10-10', '2017-11-10'].forEach((d) => bt.posting(btAcqTrue, d));
bt.news(btAcqTrue, '2018-05-20', 'restructuring', 'Acq True Labs announces layoffs');
bt.deal(btAcqTrue, '2018-12-01', 'acquiree');
const btAcqMissed = bt.company('acq-missed');
bt.round(btAcqMissed, '2014-01-01', { funding_type: 'Seed' });
bt.news(btAcqMissed, '2018-05-25', 'restructuring', 'Acq Missed Labs restructures');
// The company buys another: not the deal its forecast looks for.
bt.deal(btAcqMissed, '2018-11-01', 'acquirer');
const btScaleTrue = bt.company('scale-true');
const btScaleMissed = bt.company('scale-missed');
for (const id of [btScaleTrue, btScaleMissed]) {
  bt.posting(id, '2018-01-15');
  ['2018-03-10', '2018-04-10', '2018-05-10'].forEach((d) => bt.posting(id, d, 'Software Engineer'));
  ['2018-03-20', '2018-04-20', '2018-05-30'].forEach((d) => bt.posting(id, d, 'Account Executive', 'Berlin, Germany'));
}
days('2018-09-01', 9).forEach((d) => bt.posting(btScaleTrue, d));
days('2018-09-01', 2).forEach((d) => bt.posting(btScaleMissed, d));

beforeAll(async () => {
  stack = await startStack({ worker: false });
  await ingest(stack, rules.records);
  await ingest(stack, bt.records);
});

afterAll(async () => {
  await stack?.stop();
});

const fired = async (rule: ForecastRule<any>) =>
  Object.fromEntries((await readForecasts(stack.db, rule, ALL, AS_OF)).map((f) => [f.companyId, f]));

test('likely to raise: a round 12-30 months ago with hiring growing, or a new finance leader; not a recent round, not flat hiring', async () => {
  const found = await fired(likelyToRaise);
  expect(Object.keys(found).sort()).toEqual([raiseCfo, raiseHiring].sort());
  expect(found[raiseHiring]).toMatchObject({
    confidence: 0.65,
    data: { funding_type: 'Series B' },
    summary:
      'Likely to raise within 365 days: last round (Series A) on 2024-03-01; 4 postings in the last 90 days against 1 before.',
  });
  expect(found[raiseHiring]!.evidence.map((e) => e.eventId)).toEqual([
    raiseHiringRound,
    ...raiseHiringPostings.reverse(),
  ]);
  expect(found[raiseHiring]!.evidence[0]).toEqual({
    eventId: raiseHiringRound,
    type: 'fundraising',
    date: '2024-03-01',
    source: 'sec-form-d',
    url: null,
    what: 'Series A',
  });
  expect(found[raiseHiring]!.evidence[1]).toMatchObject({
    type: 'job_offers',
    date: '2025-05-25',
    source: 'job-boards',
    url: expect.stringMatching(/^https:\/\/boards\.greenhouse\.io\//),
    what: 'Software Engineer',
  });
  expect(found[raiseCfo]).toMatchObject({
    confidence: 0.4,
    data: {},
    summary: 'Likely to raise within 365 days: a new finance leader since 2025-05-10.',
    evidence: [expect.objectContaining({ eventId: raiseCfoLeader, what: 'new_decision_makers' })],
  });
});

test('path to IPO: a late-stage company hiring investor relations and adding independent directors, or a registration statement; not an early one', async () => {
  const found = await fired(pathToIpo);
  expect(Object.keys(found).sort()).toEqual([ipoFiling, ipoLate].sort());
  expect(found[ipoLate]).toMatchObject({
    confidence: 0.75,
    summary: expect.stringContaining('late stage (a Series D round)'),
  });
  expect(found[ipoLate]!.evidence.map((e) => e.type)).toEqual(['fundraising', 'new_decision_makers', 'job_offers']);
  expect(found[ipoLate]!.evidence[2]!.eventId).toBe(ipoPosting);
  expect(found[ipoFiling]).toMatchObject({
    confidence: 0.8,
    evidence: [
      expect.objectContaining({ eventId: ipoFilingNews, url: expect.stringContaining('https://news.example.com/') }),
    ],
  });
});

test('likely acquisition target: no round for 3 years and hiring stopped or restructuring; not after a recent round, not while hiring', async () => {
  const found = await fired(acquisitionTarget);
  expect(Object.keys(found)).toEqual([acqStalled]);
  expect(found[acqStalled]).toMatchObject({
    confidence: 0.65,
    data: { deal_type: 'Acquisition', watchlist_role: 'acquiree' },
    summary:
      'Likely acquisition target within 365 days: no round since 2021-05-01; no posting in 90 days after 3 in the 9 months before; 1 restructuring article(s).',
  });
  expect(found[acqStalled]!.evidence.map((e) => e.eventId)).toContain(acqLayoffs);
});

test('expected to scale: postings doubled across departments, a new place; not one team, not a mild rise', async () => {
  const found = await fired(expectedToScale);
  expect(Object.keys(found)).toEqual([scaleUp]);
  expect(found[scaleUp]).toMatchObject({
    confidence: 0.7,
    summary:
      'Expected to scale within 180 days: 6 postings in the last 90 days against 1 before, in 2 departments; 1 new place(s).',
  });
});

test('stored forecasts: an event of its kind with its reason, a row with rule, version, confidence, horizon and evidence; one per company per rule per 90 days', async () => {
  const { forecasts } = stack.services;
  expect(await forecasts.forecast(likelyToRaise, ALL, AS_OF)).toBe(2);
  const [event] = await stack.db.query(
    `SELECT id, type, occurred_at, data FROM events WHERE company_id = $1 AND type = 'forecasted_funding'`,
    [raiseHiring],
  );
  expect(event).toMatchObject({
    id: `forecast:likely-to-raise:2025-06-30:${raiseHiring}`,
    occurred_at: AS_OF,
    data: {
      funding_type: 'Series B',
      news_summary: expect.stringMatching(
        /^Likely to raise within 365 days: .* \(rule likely-to-raise v1, confidence 0\.65\)$/,
      ),
    },
  });
  const [row] = await stack.db.query(`SELECT * FROM forecasts WHERE event_id = $1`, [event.id]);
  expect(row).toMatchObject({
    company_id: raiseHiring,
    rule: 'likely-to-raise',
    rule_version: 1,
    event_type: 'forecasted_funding',
    confidence: '0.65',
    horizon_days: 365,
  });
  expect(row.evidence).toHaveLength(5);

  // A month later the rules still fire, and make nothing; past 90 days the stalled company is forecast again.
  const later = (days: number) => new Date(AS_OF.getTime() + days * 86_400_000);
  expect(await forecasts.forecast(likelyToRaise, ALL, later(30))).toBe(0);
  expect(await forecasts.forecast(acquisitionTarget, ALL, AS_OF)).toBe(1);
  expect(await forecasts.forecast(acquisitionTarget, [acqStalled], later(89))).toBe(0);
  expect(await forecasts.forecast(acquisitionTarget, [acqStalled], later(91))).toBe(1);
  expect(
    await stack.db.query(`SELECT rule, as_of FROM forecasts WHERE company_id = $1 ORDER BY as_of`, [acqStalled]),
  ).toEqual([
    { rule: 'acquisition-target', as_of: AS_OF },
    { rule: 'acquisition-target', as_of: later(91) },
  ]);
});

const backtest = (query: string) =>
  call(`${stack.url}/admin/v1/forecasts/backtest?${query}`, { token: TEST_ADMIN_TOKEN });

test('the backtest replays the written history week by week: per rule, forecasts, come true, share and median lead time', async () => {
  const answer = await backtest('from=2018-06-01&to=2018-08-24');
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ from: '2018-06-01', to: '2018-08-24', step: 'week', daysReplayed: 13 });
  const counts = Object.fromEntries(
    answer.body.rules.map((r: any) => [r.rule, [r.forecasts, r.cameTrue, r.missed, r.open, r.share, r.medianLeadDays]]),
  );
  expect(counts).toEqual({
    'likely-to-raise': [3, 1, 2, 0, 0.333, 135],
    // The IPO article came at 08:00.
    'path-to-ipo': [1, 1, 0, 0, 1, 272.3],
    'acquisition-target': [2, 1, 1, 0, 0.5, 182],
    'expected-to-scale': [2, 1, 1, 0, 0.5, 99],
  });
  expect(answer.body.rules[0]).toMatchObject({ version: 1, eventType: 'forecasted_funding', horizonDays: 365 });
  // Replayed day by day the same history makes the same forecasts (the aged round on its anniversary, not its week's end).
  const daily = await backtest('from=2018-06-01&to=2018-08-24&step=day');
  expect(daily.body.rules.map((r: any) => r.forecasts)).toEqual([3, 1, 2, 2]);
  // The backtest reads only.
  expect((await stack.db.query(`SELECT count(*)::int AS n FROM forecasts WHERE as_of < '2020-01-01'`))[0].n).toBe(0);
});

test('npm run admin -- backtest-forecasts answers the same from a terminal', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.resolve(__dirname, '../../scripts/admin.js'),
      'backtest-forecasts',
      '--from',
      '2018-06-01',
      '--to',
      '2018-08-24',
    ],
    { env: { ...process.env, API_URL: stack.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN } },
  );
  expect(JSON.parse(stdout)).toEqual((await backtest('from=2018-06-01&to=2018-08-24')).body);
});

test('a bad backtest request gets the error envelope', async () => {
  expect((await call(`${stack.url}/admin/v1/forecasts/backtest?from=2018-01-01&to=2018-02-01`)).status).toBe(401);
  const badDay = await backtest('from=2018-02-30&to=2018-03-01');
  expect(badDay.status).toBe(400);
  expect(badDay.body.error.message).toContain('from');
  const reversed = await backtest('from=2018-03-01&to=2018-02-01');
  expect(reversed.status).toBe(400);
  expect(reversed.body.error.message).toBe('to must not be before from');
  const badStep = await backtest('from=2018-01-01&to=2018-02-01&step=month');
  expect(badStep.status).toBe(400);
  expect((await backtest('from=1900-01-01&to=2020-01-01&step=day')).body.error.message).toMatch(/at most 3660/);
});
