import fc from 'fast-check';
import {
  DAY_MS,
  DEFAULT_SCORING_MODEL,
  DISTINCT_TYPE_MIN_POINTS,
  SCORED_EVENT_TYPES,
  accountScore,
  eventOrder,
  scoreCrossings,
  type ScoredEvent,
  type ScoringModel,
} from '../../src/signal-types/kit/account-score';

/**
 * The account score is a pure function of (events, model, time) (issue 35, item 3): checked
 * against a recomputation from scratch written here from the documented formula alone, and
 * for the properties the decision page promises (decay only lowers, repeats level off, types
 * add up, the breakdown sums to the score, crossings need a fall below in between).
 */

const NOW = Date.parse('2026-11-28T12:00:00Z');
const TYPES = SCORED_EVENT_TYPES;

const rule = fc.record({
  points: fc.double({ min: 0, max: 100, noNaN: true }),
  halfLifeDays: fc.double({ min: 1, max: 3650, noNaN: true }),
  ceiling: fc.double({ min: 0, max: 100, noNaN: true }),
});
const model: fc.Arbitrary<ScoringModel> = fc.oneof(
  fc.constant(DEFAULT_SCORING_MODEL),
  fc
    .dictionary(fc.constantFrom(...TYPES), rule, { maxKeys: TYPES.length })
    .map((eventTypes) => ({ eventTypes }) as ScoringModel),
);
const scoredEvent: fc.Arbitrary<ScoredEvent> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 6 }),
  type: fc.constantFrom(...TYPES, 'unscored_kind'),
  occurredAt: fc.integer({ min: -800 * DAY_MS, max: 5 * DAY_MS }).map((offset) => new Date(NOW + offset)),
});
// Ids unique, as stored events' are; several at one instant still happen.
const events = fc
  .array(scoredEvent, { maxLength: 40 })
  .map((list) => list.map((e, i) => ({ ...e, id: `${e.id}-${i}` })));
const instant = fc.integer({ min: -400 * DAY_MS, max: 10 * DAY_MS }).map((offset) => new Date(NOW + offset));

/** The formula as docs/decisions/account-score.md writes it, with nothing shared with the module. */
function fromScratch(all: readonly ScoredEvent[], m: ScoringModel, at: Date) {
  let total = 0;
  let distinct = 0;
  for (const type of new Set(all.map((e) => e.type))) {
    const r = (m.eventTypes as Record<string, { points: number; halfLifeDays: number; ceiling: number }>)[type];
    if (!r || r.points <= 0) continue;
    let raw = 0;
    for (const e of all) {
      if (e.type !== type || e.occurredAt.getTime() > at.getTime()) continue;
      raw += r.points * 0.5 ** ((at.getTime() - e.occurredAt.getTime()) / DAY_MS / r.halfLifeDays);
    }
    const kept = Math.min(raw, r.ceiling);
    total += kept;
    if (kept >= DISTINCT_TYPE_MIN_POINTS) distinct += 1;
  }
  return { exact: Math.min(100, total), distinct };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

test('the score equals its recomputation from scratch, in any order of the events', () => {
  fc.assert(
    fc.property(events, model, instant, (all, m, at) => {
      const expected = fromScratch(all, m, at);
      const score = accountScore(all, m, at);
      expect(close(score.exact, expected.exact)).toBe(true);
      expect(score.distinctTypes).toBe(expected.distinct);
      expect(score.exact).toBeGreaterThanOrEqual(0);
      expect(score.exact).toBeLessThanOrEqual(100);
      const reversed = accountScore([...all].reverse(), m, at);
      expect(close(reversed.exact, score.exact)).toBe(true);
      expect(reversed.breakdown).toEqual(score.breakdown);
    }),
    { numRuns: 300 },
  );
});

test('decay only lowers the score: later, with no new event, it is never higher', () => {
  fc.assert(
    fc.property(events, model, instant, fc.integer({ min: 0, max: 900 * DAY_MS }), (all, m, at, wait) => {
      const later = new Date(at.getTime() + wait);
      // Only what had happened at `at`: the later score sees no new event.
      const past = all.filter((e) => e.occurredAt.getTime() <= at.getTime());
      expect(accountScore(past, m, later).exact).toBeLessThanOrEqual(accountScore(past, m, at).exact + 1e-9);
    }),
    { numRuns: 300 },
  );
});

test('an event never lowers the score; repeats of one type level off at its ceiling', () => {
  fc.assert(
    fc.property(events, scoredEvent, model, instant, (all, extra, m, at) => {
      const before = accountScore(all, m, at).exact;
      const after = accountScore([...all, extra], m, at).exact;
      expect(after).toBeGreaterThanOrEqual(before - 1e-9);
    }),
    { numRuns: 300 },
  );
  const at = new Date(NOW);
  const rounds = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `r${i}`, type: 'fundraising', occurredAt: at }));
  // Fundraising: 30 points, ceiling 40: the second round adds 10, the tenth nothing.
  expect(accountScore(rounds(1), DEFAULT_SCORING_MODEL, at).score).toBe(30);
  expect(accountScore(rounds(2), DEFAULT_SCORING_MODEL, at).score).toBe(40);
  expect(accountScore(rounds(10), DEFAULT_SCORING_MODEL, at).score).toBe(40);
  // A different type adds up: 40 + a new leader's 15.
  const withLeader = [...rounds(10), { id: 'l', type: 'new_decision_makers', occurredAt: at }];
  expect(accountScore(withLeader, DEFAULT_SCORING_MODEL, at)).toMatchObject({
    score: 55,
    grade: 'B',
    distinctTypes: 2,
  });
  // One half-life later the round gives half its points.
  const halfLife = new Date(NOW + 90 * DAY_MS);
  expect(accountScore(rounds(1), DEFAULT_SCORING_MODEL, halfLife).score).toBe(15);
});

test('the breakdown names each counted event with its weight and decay, and its contributions sum to the score', () => {
  fc.assert(
    fc.property(events, model, instant, (all, m, at) => {
      const score = accountScore(all, m, at);
      const counted = all.filter(
        (e) =>
          e.occurredAt.getTime() <= at.getTime() &&
          ((m.eventTypes as Record<string, { points: number }>)[e.type]?.points ?? 0) > 0,
      );
      expect(score.breakdown).toHaveLength(counted.length);
      const sum = score.breakdown.reduce((total, part) => total + part.contribution, 0);
      // Each contribution is rounded to 0.01.
      expect(Math.abs(sum - score.exact)).toBeLessThanOrEqual(0.005 * counted.length + 1e-9);
      for (const part of score.breakdown) {
        expect(part.decay).toBeGreaterThanOrEqual(0);
        expect(part.decay).toBeLessThanOrEqual(1);
        expect(part.contribution).toBeLessThanOrEqual(part.weight * part.decay + 0.01);
      }
    }),
    { numRuns: 300 },
  );
});

test('crossings: each reaches the threshold from below, and two are at least the cooldown apart', () => {
  const crossing = fc.record({
    threshold: fc.integer({ min: 5, max: 90 }),
    minDistinctTypes: fc.integer({ min: 1, max: 3 }),
    cooldownDays: fc.integer({ min: 0, max: 60 }),
  });
  fc.assert(
    fc.property(events, model, crossing, (all, m, rule) => {
      const found = scoreCrossings(all, m, rule);
      const ordered = [...all].sort(eventOrder);
      let last: number | null = null;
      for (const id of found) {
        const index = ordered.findIndex((e) => e.id === id);
        const event = ordered[index];
        const at = event.occurredAt;
        const qualifies = (s: { exact: number; distinct: number }) =>
          s.exact >= rule.threshold && s.distinct >= rule.minDistinctTypes;
        expect(qualifies(fromScratch(ordered.slice(0, index + 1), m, at))).toBe(true);
        expect(qualifies(fromScratch(ordered.slice(0, index), m, at))).toBe(false);
        if (last !== null) expect(at.getTime() - last).toBeGreaterThanOrEqual(rule.cooldownDays * DAY_MS);
        last = at.getTime();
      }
    }),
    { numRuns: 200 },
  );
});
