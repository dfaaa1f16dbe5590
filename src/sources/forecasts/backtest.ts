import type { Queryable } from '../../db/sql';
import { invalidRequest } from '../../errors';
import type { ForecastRule } from './forecast-rule';
import { companiesMoved, outcomesOf, readForecasts } from './forecast-reading';
import { FORECAST_RULES, FORECAST_SPACING_DAYS } from './rules';

const DAY_MS = 86_400_000;
/** A replay of more days than this is refused: ten years of days, or of weeks. */
const MAX_STEPS = 3660;

export interface BacktestRequest {
  /** First day replayed, `YYYY-MM-DD` (UTC). */
  from: string;
  /** Last day replayed, inclusive. */
  to: string;
  /** The history is replayed as of the end of every day, or of every 7th day from `from`. */
  step?: 'day' | 'week';
  /** Outcomes after this instant are not known yet (default now): a forecast whose horizon ends later and has not come true is open. */
  now?: Date;
}

export interface RuleBacktest {
  rule: string;
  version: number;
  eventType: string;
  horizonDays: number;
  cameTrueWhen: string;
  forecasts: number;
  cameTrue: number;
  /** Horizon over, nothing came. */
  missed: number;
  /** Horizon not over yet, nothing came so far. */
  open: number;
  /** cameTrue / (cameTrue + missed); null when nothing is settled. */
  share: number | null;
  /** Median days from forecast to the event that made it true; null when none came true. */
  medianLeadDays: number | null;
}

export interface BacktestAnswer {
  from: string;
  to: string;
  step: 'day' | 'week';
  daysReplayed: number;
  rules: RuleBacktest[];
}

/**
 * Replays the stored history (docs/decisions/forecasts.md, "Backtest"): as of the end of each
 * day (or week) from `from` to `to`, each rule looks at the companies the day moved, as the
 * schedule's run does, with one forecast per company per rule per 90 days; then each forecast's
 * outcome is looked for within its horizon. Reads only: nothing is stored.
 */
export async function backtestForecasts(
  db: Queryable,
  request: BacktestRequest,
  rules: readonly ForecastRule<any>[] = FORECAST_RULES,
): Promise<BacktestAnswer> {
  const step = request.step ?? 'week';
  const from = dayStart(request.from, 'from');
  const to = dayStart(request.to, 'to');
  if (to < from)
    throw invalidRequest('to must not be before from', { details: [{ field: 'to', message: 'is before from' }] });
  const stride = (step === 'week' ? 7 : 1) * DAY_MS;
  const steps = Math.floor((to.getTime() - from.getTime()) / stride) + 1;
  if (steps > MAX_STEPS) {
    throw invalidRequest(`${steps} ${step}s to replay; at most ${MAX_STEPS}`, {
      details: [{ field: 'to', message: `at most ${MAX_STEPS} ${step}s after from` }],
    });
  }
  const now = request.now ?? new Date();
  const answer: RuleBacktest[] = [];
  for (const rule of rules) {
    const made: { companyId: string; asOf: Date }[] = [];
    const lastMade = new Map<string, number>();
    let since: Date | null = null;
    for (let k = 0; k < steps; k++) {
      const asOf = new Date(from.getTime() + k * stride + DAY_MS - 1);
      const moved = await companiesMoved(
        db,
        rule,
        since ?? new Date(asOf.getTime() - rule.lookbackDays * DAY_MS),
        asOf,
      );
      since = asOf;
      const open = moved.filter((company) => {
        const last = lastMade.get(company);
        return last === undefined || asOf.getTime() - last >= FORECAST_SPACING_DAYS * DAY_MS;
      });
      for (let start = 0; start < open.length; start += 2000) {
        for (const forecast of await readForecasts(db, rule, open.slice(start, start + 2000), asOf)) {
          made.push({ companyId: forecast.companyId, asOf });
          lastMade.set(forecast.companyId, asOf.getTime());
        }
      }
    }
    const outcomes = await outcomesOf(db, rule, made);
    const leads: number[] = [];
    let missed = 0;
    let open = 0;
    outcomes.forEach((outcome, i) => {
      const forecast = made[i]!;
      if (outcome) leads.push((outcome.occurredAt.getTime() - forecast.asOf.getTime()) / DAY_MS);
      else if (forecast.asOf.getTime() + rule.horizonDays * DAY_MS <= now.getTime()) missed++;
      else open++;
    });
    answer.push({
      rule: rule.id,
      version: rule.version,
      eventType: rule.eventType,
      horizonDays: rule.horizonDays,
      cameTrueWhen: rule.cameTrueWhen,
      forecasts: made.length,
      cameTrue: leads.length,
      missed,
      open,
      share: leads.length + missed > 0 ? round(leads.length / (leads.length + missed), 3) : null,
      medianLeadDays: leads.length ? round(median(leads), 1) : null,
    });
  }
  return { from: request.from, to: request.to, step, daysReplayed: steps, rules: answer };
}

function dayStart(day: string, field: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day) {
    throw invalidRequest(`${field} must be a day "YYYY-MM-DD"`, {
      details: [{ field, message: 'must be a day "YYYY-MM-DD"' }],
    });
  }
  return at;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
