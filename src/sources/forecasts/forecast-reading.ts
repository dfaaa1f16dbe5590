import type { Queryable } from '../../db/sql';
import { rows } from '../../db/sql';
import type { ForecastFinding, ForecastRule } from './forecast-rule';

/** One rule's forecast for one company as of one instant. */
export interface ForecastMade extends ForecastFinding {
  companyId: string;
  asOf: Date;
}

/**
 * What `rule` forecasts of `companies` as of `asOf`, from the events stored up to then: the same
 * read for the schedule's run and the backtest's replay.
 */
export async function readForecasts(
  db: Queryable,
  rule: ForecastRule<any>,
  companies: readonly string[],
  asOf: Date,
): Promise<ForecastMade[]> {
  if (companies.length === 0) return [];
  const found = await rows<{ company_id: string }>(db, rule.findingsSql, [
    companies,
    asOf,
    ...(rule.findingsParams ?? []),
  ]);
  return found
    .map((row) => ({ companyId: row.company_id, asOf, ...rule.finding(row) }))
    .sort((a, b) => (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0));
}

/**
 * The companies with an event of the rule's kinds in `(since, asOf]`, and those whose finding
 * time alone may have changed then (a round's anniversary): who a replayed day looks at.
 */
export async function companiesMoved(
  db: Queryable,
  rule: ForecastRule<any>,
  since: Date,
  asOf: Date,
): Promise<string[]> {
  const moved = await rows<{ company_id: string }>(
    db,
    `SELECT DISTINCT company_id FROM events WHERE type = ANY($3::text[]) AND occurred_at > $1 AND occurred_at <= $2
     ${rule.agedSql ? `UNION ${rule.agedSql}` : ''}`,
    [since, asOf, rule.inputTypes],
  );
  return moved.map((row) => row.company_id).sort();
}

/** For each forecast, the event that made it come true within the rule's horizon, if any. */
export async function outcomesOf(
  db: Queryable,
  rule: ForecastRule<any>,
  forecasts: readonly { companyId: string; asOf: Date }[],
): Promise<({ eventId: string; occurredAt: Date } | null)[]> {
  const answer: ({ eventId: string; occurredAt: Date } | null)[] = forecasts.map(() => null);
  const BATCH = 5000;
  for (let start = 0; start < forecasts.length; start += BATCH) {
    const part = forecasts.slice(start, start + BATCH);
    const found = await rows<{ i: string; event_id: string; occurred_at: Date }>(db, rule.outcomeSql, [
      part.map((f) => f.companyId),
      part.map((f) => f.asOf),
      rule.horizonDays,
    ]);
    for (const row of found) answer[start + Number(row.i) - 1] = { eventId: row.event_id, occurredAt: row.occurred_at };
  }
  return answer;
}
