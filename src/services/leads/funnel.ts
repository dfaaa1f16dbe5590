import type { DataSource } from 'typeorm';
import type { Signal } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import { invalidRequest } from '../../errors';
import { duplicateWindowDays, evaluationPlan, leadsLeftToday } from './evaluation';

const DAY_MS = 86_400_000;
export const DEFAULT_FUNNEL_DAYS = 30;

export interface FunnelStage {
  /** The config field (or `duplicate`) that removes candidates at this stage. */
  filter: string;
  removed: number;
  remaining: number;
}

export interface SignalFunnel {
  signalId: string;
  from: string;
  to: string;
  candidates: number;
  stages: FunnelStage[];
  leads: number;
}

/** Stages after the config filters, the same for both signal types. */
const OUTCOME_STAGES = ['duplicate', 'dailyLeadLimit', 'credits'] as const;

/**
 * Where a signal's candidates of a time window go: how many each evaluation rule removes.
 *
 * A candidate is an event of the signal's kind (for the watchlist: at a watched company or of
 * a watched person) that occurred in [from, to). Stages are cumulative. A candidate that is
 * already a lead passes every stage: it got through when it was produced, even if the config
 * or the age window has moved since. The others pass a stage when they pass every rule up to
 * it; `duplicate` removes the ones whose subject the duplicate rule refuses, counting a later
 * event of a subject that is already waiting as a duplicate (producing the first refuses it);
 * `dailyLeadLimit` removes those beyond today's remaining capacity in production order (oldest
 * first, counting waiting candidates outside the window too); `credits` removes the rest while
 * the signal is marked out of credits. So the last `remaining` = leads + candidates the next
 * evaluation of the active signal produces.
 *
 * One SQL query per call: every rule is a boolean column from the shared evaluation plan, and
 * each stage is a `count(*) FILTER` over the conjunction of the rules up to it.
 */
export class Funnel {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async ofSignal(signal: Signal, window: { from?: Date; to?: Date } = {}): Promise<SignalFunnel> {
    const now = this.clock.now();
    const to = window.to ?? now;
    const from = window.from ?? new Date(to.getTime() - DEFAULT_FUNNEL_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) throw invalidRequest('`from` must be before `to`', { field: 'from' });

    const plan = evaluationPlan(signal, now);
    const { args } = plan;
    const fromArg = `$${args.push(from)}::timestamptz`;
    const toArg = `$${args.push(to)}::timestamptz`;
    const ruleColumns = plan.filters.map((filter, i) => `coalesce(${filter.sql}, false) AS rule_${i}`);
    const rules = plan.filters.map((_, i) => `rule_${i}`);
    const passedThrough = (index: number) => rules.slice(0, index + 1).join(' AND ');
    const repeatsAllowed = duplicateWindowDays(signal.duplicateHandling) === 0;
    const capacity = Math.max(leadsLeftToday(signal, this.clock.utcDay(now)), 0);
    // Once an evaluation ran out of credits, production stays stopped until one succeeds again.
    const creditsStop = signal.creditsExhaustedAt !== null;

    const capacityArg = `$${args.push(capacity)}::int`;
    const creditsStopArg = `$${args.push(creditsStop)}::boolean`;

    // What a candidate needs to get past each stage, in stage order.
    const reached = [
      ...plan.filters.map((_, i) => `is_lead OR (${passedThrough(i)})`),
      'is_lead OR next_of_subject',
      `is_lead OR (next_of_subject AND queue_position <= ${capacityArg})`,
      `is_lead OR (next_of_subject AND queue_position <= ${capacityArg} AND NOT ${creditsStopArg})`,
    ];
    const [row] = await this.db.query(
      `WITH flagged AS (
         SELECT e.id, e.occurred_at, ${plan.subject} AS subject,
           e.occurred_at >= ${fromArg} AND e.occurred_at < ${toArg} AS in_window,
           coalesce(${plan.watched}, false) AS watched,
           ${plan.isLead} AS is_lead,
           ${ruleColumns.join(',\n           ')},
           coalesce(${plan.subjectAllowed}, false) AS subject_allowed
         FROM ${plan.from}
         -- Rows outside the window are read only for their place in the production queue,
         -- and no row older than the age or lookback window (or newer than now) can wait in it.
         WHERE ${plan.kind}
           AND e.occurred_at >= least(${fromArg}, $${args.push(plan.eligibleSince)}::timestamptz)
           AND e.occurred_at <= greatest(${toArg}, $${args.push(now)}::timestamptz)
       ), candidates AS (
         SELECT *, NOT is_lead AND ${passedThrough(rules.length - 1)} AND subject_allowed AS waiting
         FROM flagged WHERE watched OR is_lead
       ), turns AS (
         -- Production takes a subject's oldest waiting event; the duplicate rule then refuses the later ones.
         SELECT *, waiting AND (${repeatsAllowed} OR row_number() OVER (PARTITION BY waiting, subject ORDER BY occurred_at, id) = 1) AS next_of_subject
         FROM candidates
       ), queue AS (
         SELECT *, row_number() OVER (PARTITION BY next_of_subject ORDER BY occurred_at, id) AS queue_position
         FROM turns
       )
       SELECT count(*) FILTER (WHERE in_window)::int AS candidates,
         ${reached.map((condition, i) => `count(*) FILTER (WHERE in_window AND (${condition}))::int AS reached_${i}`).join(',\n         ')},
         count(*) FILTER (WHERE in_window AND is_lead)::int AS leads
       FROM queue`,
      args,
    );

    const names = [...plan.filters.map((filter) => filter.field), ...OUTCOME_STAGES];
    let previous: number = row.candidates;
    const stages = names.map((filter, i) => {
      const remaining: number = row[`reached_${i}`];
      const stage = { filter, removed: previous - remaining, remaining };
      previous = remaining;
      return stage;
    });
    return { signalId: signal.id, from: from.toISOString(), to: to.toISOString(), candidates: row.candidates, stages, leads: row.leads };
  }
}
