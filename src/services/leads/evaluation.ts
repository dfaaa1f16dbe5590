import { In, type DataSource, type EntityManager } from 'typeorm';
import { rows } from '../../db/sql';
import { Signal } from '../../db/entities/signal';
import { signalType } from '../../signal-types/registry';
import { CANDIDATE_COLUMNS, type Candidate } from '../../signal-types/kit/candidate';
import type { EvaluationPlan } from '../../signal-types/kit/evaluation-rules';
import { suppressionFilter } from './suppression-rule';
import { crmExclusionFilter } from './crm-exclusion-rule';

/** A place in the evaluation's order (occurred_at, event id); the time as PostgreSQL writes it, to the microsecond. */
export interface ReadPosition {
  at: string;
  eventId: string;
}

/** Where production may take candidates from after a refresh: the backlog, up to `upTo` while the full read is still under way. */
export interface BacklogRead {
  upTo: ReadPosition | null;
}

/** Leads the signal may still produce today (UTC day of the service clock); 0 or less once the cap is reached. */
export function leadsLeftToday(
  signal: Pick<Signal, 'dailyLeadLimit' | 'leadsDay' | 'leadsToday'>,
  today: string,
): number {
  return signal.dailyLeadLimit - (signal.leadsDay === today ? signal.leadsToday : 0);
}

/**
 * The evaluation of this signal at `now`: its type's plan, then the account's suppression list
 * (the funnel's `suppressed` stage) and, when the signal sets them, its CRM exclusions (`crmExcluded`). Each call builds fresh bind values, so callers may append
 * their own.
 */
export function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const plan = signalType(signal.signalTypeId).evaluationPlan(signal, now);
  const crm = crmExclusionFilter(signal.crmExclusions ?? null, plan.args);
  return {
    ...plan,
    filters: [...plan.filters, suppressionFilter(signal.accountId, plan.args), ...(crm ? [crm] : [])],
  };
}

/**
 * The oldest candidates first, so deferred ones are produced before newer ones on later days:
 * of the whole window, or of the signal's backlog (`backlog`, as its refresh left it).
 */
export async function findCandidates(
  tx: EntityManager,
  signal: Signal,
  now: Date,
  limit: number,
  backlog?: BacklogRead,
): Promise<Candidate[]> {
  const { sql, args } = candidateQuery(signal, now, limit, backlog);
  return rows<Candidate>(tx, sql, args);
}

/** The candidate query with its bind values (the bench EXPLAINs the same text). */
export function candidateQuery(
  signal: Signal,
  now: Date,
  limit: number,
  backlog?: BacklogRead,
): { sql: string; args: unknown[] } {
  const plan = evaluationPlan(signal, now);
  const { args } = plan;
  const where = [candidateCondition(plan)];
  if (backlog?.upTo) {
    const at = `$${args.push(backlog.upTo.at)}::timestamptz`;
    where.push(
      `e.occurred_at <= ${at} AND (e.occurred_at, e.id) <= (${at}, $${args.push(backlog.upTo.eventId)}::text)`,
    );
  }
  const from = backlog ? `signal_backlog b JOIN events e ON e.id = b.event_id AND b.signal_id = $1` : `events e`;
  const sql = `SELECT ${CANDIDATE_COLUMNS}, ${plan.matchedKeywords ?? `''`} AS matched_keywords${plan.leadData ? `, ${plan.leadData} AS lead_data` : ''}
      FROM ${from} ${plan.joins}
      WHERE ${where.join(' AND ')}
      ORDER BY e.occurred_at, e.id LIMIT $${args.push(limit)}`;
  return { sql, args };
}

/** What makes a row of the plan a candidate: every rule, no lead yet for the event, and the duplicate rule. */
export function candidateCondition(plan: EvaluationPlan): string {
  const where = [
    plan.kind,
    plan.watched,
    ...plan.filters.map((filter) => filter.sql),
    `NOT ${plan.isLead}`,
    plan.subjectAllowed,
  ];
  return where.map((condition) => `(${condition})`).join('\n AND ');
}

/**
 * Whether one of these just-written events passes the signal's plan at `now` (its kind, what it
 * watches, every filter, suppressions and CRM exclusions included). Wake on arrival tells only
 * such signals (docs/decisions/wake-on-arrival.md). A company-wide plan (an account score: an
 * earlier event can move the crossing) asks the same of every event of the events' companies.
 * The lead and duplicate rules are left out: they only hold a lead back, and what frees it is
 * told or timed.
 */
export async function arrivalsMayConcern(
  db: EntityManager,
  signal: Signal,
  events: readonly { id: string; companyId: string }[],
  now: Date,
): Promise<boolean> {
  const plan = evaluationPlan(signal, now);
  const { args } = plan;
  const arrived = plan.companyWide
    ? `e.company_id = ANY($${args.push([...new Set(events.map((event) => event.companyId))])}::text[])`
    : `e.id = ANY($${args.push(events.map((event) => event.id))}::text[])`;
  const passes = [plan.kind, plan.watched, ...plan.filters.map((filter) => filter.sql)].map((sql) => `(${sql})`);
  // Named though never evaluated (TRUE OR ...), so every bind value of the plan has a type.
  const unused = `(TRUE OR ${plan.isLead} OR (${plan.subjectAllowed}))`;
  const found = await rows(
    db,
    `SELECT 1 FROM events e ${plan.joins} WHERE ${arrived} AND ${passes.join(' AND ')} AND ${unused} LIMIT 1`,
    args,
  );
  return found.length > 0;
}

/** Screens at once per process: each is one short read. */
const SCREENS_AT_ONCE = 4;

/**
 * Of these signals, the ones just-inserted events may concern (`arrivalsMayConcern`), at the
 * service clock's now. An event dated ahead passes no window yet, so its batch concerns them all:
 * their evaluations then know when it comes due.
 */
export async function signalsArrivalsMayConcern(
  db: DataSource,
  signalIds: readonly string[],
  events: readonly { id: string; companyId: string; occurredAt: string }[],
  now: Date,
): Promise<Set<string>> {
  if (events.some((event) => Date.parse(event.occurredAt) > now.getTime())) return new Set(signalIds);
  const signals = await db.getRepository(Signal).findBy({ id: In([...signalIds]) });
  const concerned = new Set<string>();
  let next = 0;
  const screen = async () => {
    while (next < signals.length) {
      const signal = signals[next++]!;
      if (await arrivalsMayConcern(db.manager, signal, events, now)) concerned.add(signal.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCREENS_AT_ONCE, signals.length) }, screen));
  return concerned;
}
