import { z } from 'zod';
import { WATCHLIST_EVENT_KEYS } from '../../catalogue/watchlist-events';

/**
 * The account score (docs/decisions/account-score.md): each company's 0–100 from its events.
 * Per event type: points, a half-life and a ceiling. An event adds its points halved every
 * half-life; the events of one type add up to at most their ceiling (repeats level off) and
 * the types add up (different kinds of interest count more than more of one), to at most 100.
 * Pure: the same events, model and instant give the same score wherever it is computed. The
 * SQL twin the evaluation filters with is in migration 1732242750000 (a test holds them equal).
 */

export const SCORED_EVENT_TYPES = [...WATCHLIST_EVENT_KEYS, 'job_change'] as const;
export type ScoredEventType = (typeof SCORED_EVENT_TYPES)[number];

export const MAX_SCORE = 100;
export const DAY_MS = 86_400_000;
/** A type counts among the distinct types once its events give at least this much. */
export const DISTINCT_TYPE_MIN_POINTS = 1;

export const scoringRule = z.strictObject({
  points: z.number().min(0).max(100).meta({ description: 'What one fresh event of the type adds' }),
  halfLifeDays: z
    .number()
    .min(1)
    .max(3650)
    .meta({ description: 'Days after which an event adds half its points (then a quarter, ...)' }),
  ceiling: z.number().min(0).max(100).meta({ description: 'Most the events of this type add together' }),
});
export type ScoringRule = z.output<typeof scoringRule>;

export const scoringModelSchema = z
  .strictObject({
    eventTypes: z
      .partialRecord(z.enum(SCORED_EVENT_TYPES), scoringRule)
      .meta({ description: 'Rule per event type; a type left out scores nothing' }),
  })
  .meta({ id: 'ScoringModel' });
export type ScoringModel = z.output<typeof scoringModelSchema>;

const rule = (points: number, halfLifeDays: number, ceiling: number): ScoringRule => ({
  points,
  halfLifeDays,
  ceiling,
});

/**
 * The defaults: money and deals are strong and slow to fade, hiring and engagement weak and
 * fast (HubSpot's decay choices of 1, 3 and 6 months; docs/decisions/account-score.md).
 */
export const DEFAULT_SCORING_MODEL: ScoringModel = {
  eventTypes: {
    fundraising: rule(30, 90, 40),
    mergers_acquisitions: rule(25, 90, 30),
    forecasted_funding: rule(15, 60, 20),
    forecasted_ipo: rule(15, 90, 20),
    forecasted_acquisition: rule(15, 60, 20),
    forecasted_growth: rule(15, 60, 20),
    public_tenders: rule(15, 60, 25),
    job_offers: rule(5, 30, 25),
    recruitment_campaign: rule(10, 30, 20),
    new_decision_makers: rule(15, 60, 30),
    company_post_reactions: rule(3, 14, 10),
    competitor_social_reactions: rule(5, 14, 15),
    competitor_connections: rule(5, 30, 15),
    company_news: rule(5, 30, 15),
    job_change: rule(10, 60, 20),
  },
};

/** Grades by score band, best first. */
export const GRADES = [
  { grade: 'A', from: 75 },
  { grade: 'B', from: 50 },
  { grade: 'C', from: 25 },
  { grade: 'D', from: 0 },
] as const;

export function gradeOf(score: number): string {
  return (GRADES.find((band) => score >= band.from) ?? GRADES[GRADES.length - 1]).grade;
}

export interface ScoredEvent {
  id: string;
  type: string;
  occurredAt: Date;
}

export interface ScoreContribution {
  event_id: string;
  type: string;
  date: string;
  /** The type's points: what the event added when fresh. */
  weight: number;
  /** 0.5^(age / half-life), 1 when fresh. */
  decay: number;
  /** Its share of the score: weight × decay, scaled down with its type's others when they reach the ceiling (and with all when the sum passes 100). */
  contribution: number;
}

export interface AccountScore {
  /** Unrounded: what thresholds compare with. */
  exact: number;
  /** Rounded to 0.1, as answered. */
  score: number;
  grade: string;
  distinctTypes: number;
  breakdown: ScoreContribution[];
}

/** The event counts at `at`: it has happened and the model scores its type. */
function counts(event: ScoredEvent, model: ScoringModel, at: Date): ScoringRule | undefined {
  const rule = model.eventTypes[event.type as ScoredEventType];
  return rule && rule.points > 0 && event.occurredAt.getTime() <= at.getTime() ? rule : undefined;
}

export function decayOf(rule: ScoringRule, occurredAt: Date, at: Date): number {
  return Math.pow(0.5, (at.getTime() - occurredAt.getTime()) / DAY_MS / rule.halfLifeDays);
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The company's score at `at` from its events (any order; events after `at` do not count yet). */
export function accountScore(events: readonly ScoredEvent[], model: ScoringModel, at: Date): AccountScore {
  const raw = new Map<string, number>();
  const parts: { event: ScoredEvent; rule: ScoringRule; decay: number }[] = [];
  for (const event of events) {
    const rule = counts(event, model, at);
    if (!rule) continue;
    const decay = decayOf(rule, event.occurredAt, at);
    parts.push({ event, rule, decay });
    raw.set(event.type, (raw.get(event.type) ?? 0) + rule.points * decay);
  }
  let sum = 0;
  let distinctTypes = 0;
  const capped = new Map<string, number>();
  for (const [type, value] of raw) {
    const kept = Math.min(value, model.eventTypes[type as ScoredEventType]!.ceiling);
    capped.set(type, kept);
    sum += kept;
    if (kept >= DISTINCT_TYPE_MIN_POINTS) distinctTypes += 1;
  }
  const exact = Math.min(MAX_SCORE, sum);
  const overall = sum > 0 ? exact / sum : 0;
  const breakdown = parts
    .map(({ event, rule, decay }) => {
      const typeRaw = raw.get(event.type)!;
      const typeShare = typeRaw > 0 ? capped.get(event.type)! / typeRaw : 0;
      return {
        event_id: event.id,
        type: event.type,
        date: event.occurredAt.toISOString(),
        weight: rule.points,
        decay: round(decay, 4),
        contribution: round(rule.points * decay * typeShare * overall, 2),
      };
    })
    .sort(
      (a, b) => b.contribution - a.contribution || a.date.localeCompare(b.date) || compareIds(a.event_id, b.event_id),
    );
  const score = round(exact, 1);
  return { exact, score, grade: gradeOf(score), distinctTypes, breakdown };
}

/** Byte order, as PostgreSQL's "C" collation orders ids: the tie-break of events at one instant. */
export function compareIds(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

export function eventOrder(a: ScoredEvent, b: ScoredEvent): number {
  return a.occurredAt.getTime() - b.occurredAt.getTime() || compareIds(a.id, b.id);
}

export interface CrossingRule {
  threshold: number;
  minDistinctTypes: number;
  cooldownDays: number;
}

const qualifies = (score: AccountScore, rule: CrossingRule) =>
  score.exact >= rule.threshold && score.distinctTypes >= rule.minDistinctTypes;

/**
 * The events at which the company's score crossed: with it the score (at the event's instant)
 * reaches the threshold with enough distinct types, just before it it did not, and the last
 * crossing is at least `cooldownDays` earlier. So a company that stays above gives one
 * crossing; it gives another only after it fell below (decay or a changed model) and the
 * cooldown passed.
 */
export function scoreCrossings(events: readonly ScoredEvent[], model: ScoringModel, rule: CrossingRule): string[] {
  const ordered = [...events].sort(eventOrder);
  const crossings: string[] = [];
  let lastCrossing: number | null = null;
  for (let i = 0; i < ordered.length; i++) {
    const event = ordered[i];
    if (!counts(event, model, event.occurredAt)) continue;
    const at = event.occurredAt;
    const after = accountScore(ordered.slice(0, i + 1), model, at);
    if (!qualifies(after, rule)) continue;
    const before = accountScore(ordered.slice(0, i), model, at);
    if (qualifies(before, rule)) continue;
    if (lastCrossing !== null && at.getTime() - lastCrossing < rule.cooldownDays * DAY_MS) continue;
    crossings.push(event.id);
    lastCrossing = at.getTime();
  }
  return crossings;
}
