import type { DataSource } from 'typeorm';
import { rows, type Queryable } from '../../db/sql';
import type { Signal } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import { invalidRequest } from '../../errors';
import { analysisBusy } from '../../db/analysis-pool';
import { evaluationPlan, leadsLeftToday } from './evaluation';
import { duplicateWindowDays } from '../../signal-types/kit/evaluation-rules';

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

interface FunnelRow {
  candidates: number;
  leads: number;
  [stage: `reached_${number}`]: number;
}

/** Stages after the config filters, the same for both signal types. */
const OUTCOME_STAGES = ['duplicate', 'dailyLeadLimit', 'credits'] as const;

/**
 * What a signal's evaluations in a time window considered and produced: how many candidates
 * each evaluation rule removed, and the leads.
 *
 * The window [from, to) is one of evaluation time, not of the events' dates, so that `leads`
 * equals the leads the signal produced in the window: a lead counts when its `created_at`
 * (when production stored and billed it) is in the window. A candidate that is no lead counts
 * when an evaluation in the window could consider it: it was in the store (`ingested_at`)
 * before `to` and, where the age window slides (job changes), it was still young enough at
 * some moment of the window after it arrived. Leads produced before `from` or from `to` on
 * belong to other windows. The rules are applied as an evaluation at the end of the window
 * applies them, so a candidate that aged out meanwhile is removed by the age rule.
 *
 * Stages are cumulative. A lead passes every stage: it got through when it was produced,
 * even if the config or the age window has moved since. The others pass a stage when they
 * pass every rule up to it; `duplicate` removes the ones whose subject the duplicate rule
 * refuses, counting a later event of a subject that is already waiting as a duplicate
 * (producing the first refuses it); `dailyLeadLimit` removes those beyond today's remaining
 * capacity in production order (oldest first, counting waiting candidates outside the window
 * too); `credits` removes the rest while the signal is marked out of credits. So with the
 * default window the last `remaining` = leads + candidates the next evaluation of the active
 * signal produces.
 *
 * One SQL query per call: every rule is a boolean column from the shared evaluation plan, and
 * each stage is a `count(*) FILTER` over the conjunction of the rules up to it.
 */
export class Funnel {
  /** `reads` is the pool a funnel reads on: the analysis pool, apart from the API's connections (db/analysis-pool.ts). */
  constructor(
    private readonly reads: () => Promise<DataSource>,
    private readonly clock: Clock,
  ) {}

  /** `db` is a transaction's when the signal exists only there (a cost preview). */
  async ofSignal(signal: Signal, window: { from?: Date; to?: Date } = {}, db?: Queryable): Promise<SignalFunnel> {
    const now = this.clock.now();
    const to = window.to ?? now;
    const from = window.from ?? new Date(to.getTime() - DEFAULT_FUNNEL_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) throw invalidRequest('`from` must be before `to`', { field: 'from' });

    // The rules as the window's last evaluation applied them (the current one for a window up to now).
    const at = to.getTime() < now.getTime() ? to : now;
    const plan = evaluationPlan(signal, at);
    const { args } = plan;
    const fromArg = `$${args.push(from)}::timestamptz`;
    const toArg = `$${args.push(to)}::timestamptz`;
    const ageArg = plan.maxAgeDays === null ? '' : `make_interval(days => $${args.push(plan.maxAgeDays)}::int)`;
    // An event no evaluation of the window could consider: in the store too late, or too old by then.
    const considered =
      plan.maxAgeDays === null
        ? `e.ingested_at < ${toArg}`
        : `e.ingested_at < ${toArg} AND e.occurred_at >= greatest(e.ingested_at, ${fromArg}) - ${ageArg}`;
    const scanSince =
      plan.maxAgeDays === null
        ? `least(${fromArg}, $${args.push(plan.eligibleSince)}::timestamptz)`
        : `${fromArg} - ${ageArg}`;
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
    // One row: counts of the whole queue; `reached_i` those through stage i.
    const [row] = await rows<FunnelRow>(
      db ?? (await this.reads()),
      `WITH flagged AS (
         SELECT e.id, e.occurred_at, ${plan.subject} AS subject,
           CASE WHEN produced.lead_at IS NOT NULL THEN produced.lead_at >= ${fromArg} AND produced.lead_at < ${toArg}
                ELSE ${considered} END AS in_window,
           coalesce(${plan.watched}, false) AS watched,
           produced.lead_at IS NOT NULL AS is_lead,
           ${ruleColumns.join(',\n           ')},
           coalesce(${plan.subjectAllowed}, false) AS subject_allowed
         FROM events e ${plan.joins}
         LEFT JOIN LATERAL (SELECT min(l.created_at) AS lead_at FROM leads l WHERE l.signal_id = $1 AND l.event_id = e.id) produced ON TRUE
         -- Rows outside the window are read only for their place in the production queue,
         -- and no row older than the age or lookback window (or newer than now) can wait in it.
         WHERE ${plan.kind}
           AND e.occurred_at >= ${scanSince}
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
    ).catch((err: unknown) => {
      throw analysisBusy(err) ?? err;
    });

    const names = [...plan.filters.map((filter) => filter.field), ...OUTCOME_STAGES];
    let previous = row.candidates;
    const stages = names.map((filter, i) => {
      const remaining = row[`reached_${i}`];
      const stage = { filter, removed: previous - remaining, remaining };
      previous = remaining;
      return stage;
    });
    return {
      signalId: signal.id,
      from: from.toISOString(),
      to: to.toISOString(),
      candidates: row.candidates,
      stages,
      leads: row.leads,
    };
  }
}
