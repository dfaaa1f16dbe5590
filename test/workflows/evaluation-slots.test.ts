import { randomUUID } from 'node:crypto';
import { evaluationPhaseMs, nextEvaluationSlot } from '../../workflows/evaluation-slots';

const INTERVAL = 15 * 60_000;

test('signals created together fall due spread over the interval', () => {
  const minutes = new Array<number>(15).fill(0);
  for (let i = 0; i < 15_000; i++) minutes[Math.floor(evaluationPhaseMs(randomUUID(), INTERVAL) / 60_000)]!++;
  // 1,000 expected in each minute; ±20 % is more than six standard deviations.
  for (const count of minutes) expect(count).toBeGreaterThan(800);
  for (const count of minutes) expect(count).toBeLessThan(1_200);
});

test('a signal keeps to its slots: one interval apart, never closer than half nor further than one and a half', () => {
  const signalId = randomUUID();
  const phase = evaluationPhaseMs(signalId, INTERVAL);
  expect(evaluationPhaseMs(signalId, INTERVAL)).toBe(phase);

  let last = Date.parse('2026-11-25T10:00:00Z') + Math.floor(Math.random() * INTERVAL);
  const first = nextEvaluationSlot(signalId, INTERVAL, last);
  expect(first % INTERVAL).toBe(phase);
  expect(first - last).toBeGreaterThanOrEqual(INTERVAL / 2);
  expect(first - last).toBeLessThanOrEqual((3 * INTERVAL) / 2);

  // On its slot, with evaluations that take a few seconds: exactly one interval each time.
  last = first + 4_000;
  expect(nextEvaluationSlot(signalId, INTERVAL, last)).toBe(first + INTERVAL);
  // Started late (a backlog): the next one is back on the slots.
  last = first + INTERVAL + 6 * 60_000;
  expect(nextEvaluationSlot(signalId, INTERVAL, last)).toBe(first + 2 * INTERVAL);
  last = first + 2 * INTERVAL + 9 * 60_000;
  expect(nextEvaluationSlot(signalId, INTERVAL, last)).toBe(first + 4 * INTERVAL);
});
