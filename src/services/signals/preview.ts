import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import type { Clock } from '../../clock';
import type { SignalTypeId } from '../../signal-types/registry';
import { candidateCondition, evaluationPlan } from '../leads/evaluation';
import { DAY_MS, duplicateWindowDays } from '../leads/evaluation-rules';
import type { Funnel, FunnelStage } from '../leads/funnel';
import { reviewSettings } from './settings-review';
import type { SignalWarning } from './settings-warnings';
import { checkedDraft, type CreateSignalInput, type Signals } from './signals';

export const PREVIEW_WINDOW_DAYS = 30;

export interface SignalPreview {
  /** Days of stored events the preview read (by when they were stored, as the funnel counts). */
  windowDays: number;
  /** Events stored in the window that the signal would take: every filter and the suppression list passed. */
  matchingEvents: number;
  /** The leads those events make: one per person or company unless repeats are allowed. */
  expectedLeads: number;
  expectedLeadsPerDay: number;
  /** Lead prices, and the email price for each person lead when emails are asked for (the most it can cost). */
  expectedCreditsPerDay: number;
  /** On some day of the window the daily cap held leads back for a later day. */
  capLimited: boolean;
  funnel: FunnelStage[];
  applied: Record<string, unknown>;
  warnings: SignalWarning[];
}

interface DayRow {
  day: string;
  events: string;
  leads: string;
  person_leads: string;
}

const twoDecimals = (n: number) => Math.round(n * 100) / 100;

/**
 * The window's days as production lives them: each day's new leads join what the cap held back,
 * and at most the cap of them is produced. Answers the leads produced in the window and whether
 * the cap ever held one back.
 */
export function underTheCap(
  arrivals: ReadonlyMap<string, number>,
  from: Date,
  to: Date,
  cap: number,
): { produced: number; held: boolean } {
  let waiting = 0;
  let produced = 0;
  let held = false;
  for (let day = new Date(from); day.getTime() <= to.getTime(); day = new Date(day.getTime() + DAY_MS)) {
    waiting += arrivals.get(day.toISOString().slice(0, 10)) ?? 0;
    const today = Math.min(waiting, cap);
    produced += today;
    waiting -= today;
    held ||= waiting > 0;
  }
  return { produced, held };
}

/**
 * What a signal would produce and cost, before it exists: the create request's rows are written
 * inside a transaction, the evaluation and the funnel read them as they will read the real
 * signal, and the transaction is rolled back. Nothing is produced, charged or kept.
 */
export class SignalPreviews {
  constructor(
    private readonly db: DataSource,
    private readonly deps: { clock: Clock; funnel: Pick<Funnel, 'ofSignal'>; signals: Pick<Signals, 'insertDraft'> },
  ) {}

  async preview(accountId: string, typeId: SignalTypeId, input: CreateSignalInput): Promise<SignalPreview> {
    const draft = checkedDraft(typeId, { ...input, status: 'draft' });
    const runner = this.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const tx = runner.manager;
      const { signal } = await this.deps.signals.insertDraft(tx, accountId, draft, null);
      const now = this.deps.clock.now();
      const windowStart = new Date(now.getTime() - PREVIEW_WINDOW_DAYS * DAY_MS);
      const plan = evaluationPlan(signal, now);
      const { args } = plan;
      const repeats = duplicateWindowDays(signal.duplicateHandling) === 0;
      // What the evaluation would take now of the events stored in the window, counted by the
      // day each arrived; a lead a subject (its oldest event, as production takes it) unless
      // repeats are allowed.
      const days = await rows<DayRow>(
        tx,
        `WITH matching AS (
           SELECT e.id, e.occurred_at, e.ingested_at, ${plan.subject} AS subject, p.id IS NOT NULL AS has_person
           FROM events e ${plan.joins}
           WHERE ${candidateCondition(plan)} AND e.ingested_at >= $${args.push(windowStart)}
         ), leads AS (
           SELECT *, ${repeats} OR row_number() OVER (PARTITION BY subject ORDER BY occurred_at, id) = 1 AS is_lead
           FROM matching
         )
         SELECT to_char(ingested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS events,
           count(*) FILTER (WHERE is_lead) AS leads, count(*) FILTER (WHERE is_lead AND has_person) AS person_leads
         FROM leads GROUP BY 1 ORDER BY 1`,
        args,
      );
      const funnel = await this.deps.funnel.ofSignal(signal, { from: windowStart, to: now }, tx);
      const { applied, warnings } = reviewSettings(signal);

      const arrivals = new Map(days.map((day) => [day.day, Number(day.leads)]));
      const { produced, held } = underTheCap(arrivals, windowStart, now, signal.dailyLeadLimit);
      const expectedLeads = days.reduce((sum, day) => sum + Number(day.leads), 0);
      const personShare = expectedLeads
        ? days.reduce((sum, day) => sum + Number(day.person_leads), 0) / expectedLeads
        : 0;
      const getEmails = Boolean((signal.config as { getEmails?: boolean }).getEmails);
      const credits =
        produced * draft.type.creditsPerLead +
        (getEmails ? produced * personShare * draft.type.creditsPerEmailFound : 0);
      return {
        windowDays: PREVIEW_WINDOW_DAYS,
        matchingEvents: days.reduce((sum, day) => sum + Number(day.events), 0),
        expectedLeads,
        expectedLeadsPerDay: twoDecimals(produced / PREVIEW_WINDOW_DAYS),
        expectedCreditsPerDay: twoDecimals(credits / PREVIEW_WINDOW_DAYS),
        capLimited: held,
        funnel: funnel.stages,
        applied,
        warnings,
      };
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }
}
