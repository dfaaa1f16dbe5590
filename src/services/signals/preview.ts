import type { DataSource } from 'typeorm';
import { execute, rows } from '../../db/sql';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import { analysisBusy } from '../../db/analysis-pool';
import type { LookupSlots } from '../enrichment/lookup-slots';
import type { SignalTypeId } from '../../signal-types/registry';
import { candidateCondition, evaluationPlan } from '../leads/evaluation';
import { DAY_MS, duplicateWindowDays } from '../../signal-types/kit/evaluation-rules';
import type { Funnel, FunnelStage } from '../leads/funnel';
import { reviewSettings } from './settings-review';
import type { SignalWarning } from '../../signal-types/kit/settings-warnings';
import { checkedDraft, type CreateSignalInput, type SignalDraft, type Signals } from './signals';

export const PREVIEW_WINDOW_DAYS = 30;

export interface SignalPreview {
  /** Days of stored events the preview read (by when they were stored, as the funnel counts). */
  windowDays: number;
  /** Events stored in the window that the signal would take: every filter and the suppression list passed. */
  matchingEvents: number;
  /**
   * The leads those events make (one per person or company unless repeats are allowed) that the
   * daily cap lets through in the window: the funnel's last `remaining`, and 30 × `expectedLeadsPerDay`.
   */
  expectedLeads: number;
  /** Leads the cap still held back at the window's end: later days produce them (while young enough). */
  heldByCap: number;
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

/** Who asks: the account, and the API key (or dashboard member) whose cap of previews in flight counts it. */
export interface PreviewCaller {
  accountId: string;
  keyId: string;
}

/** PostgreSQL's `query_canceled`: here, the statement time-out set on the preview's transaction. */
const QUERY_CANCELED = '57014';

const previewTimeout = (limitMs: number) =>
  new AppError(
    504,
    'PREVIEW_TIMEOUT',
    `The preview read for longer than ${limitMs / 1000} s and was stopped; narrow the filters (fewer companies, titles or locations) and try again`,
    { limitMs },
  );

/**
 * The preview's funnel with the cap applied as the preview applies it, day by day over the
 * window: the stored funnel's `dailyLeadLimit` stage is one evaluation's (today's capacity),
 * which would end the funnel at another number than `expectedLeads`. A preview is never out of
 * credits, so the stages after it remove nothing more.
 */
function withCapOverTheWindow(stages: FunnelStage[], produced: number): FunnelStage[] {
  const cap = stages.findIndex((stage) => stage.filter === 'dailyLeadLimit');
  if (cap < 0) return stages;
  const before = cap === 0 ? produced : stages[cap - 1]!.remaining;
  const remaining = Math.min(before, produced);
  return stages.map((stage, i) =>
    i < cap ? stage : { filter: stage.filter, removed: i === cap ? before - remaining : 0, remaining },
  );
}

/**
 * The stage that decides what is left: the one that removed the last candidates when none is
 * left (a later, small filter, not the biggest), else the one that removed the most. Undefined
 * when no stage removed anything.
 */
export function decisiveStage(stages: readonly FunnelStage[]): { stage: FunnelStage; emptied: boolean } | undefined {
  const removing = stages.filter((stage) => stage.removed > 0);
  if (removing.length === 0) return undefined;
  const last = stages[stages.length - 1]!;
  if (last.remaining === 0) return { stage: removing[removing.length - 1]!, emptied: true };
  return { stage: [...removing].sort((a, b) => b.removed - a.removed)[0]!, emptied: false };
}

/**
 * What a signal would produce and cost, before it exists: the create request's rows are written
 * inside a transaction, the evaluation and the funnel read them as they will read the real
 * signal, and the transaction is rolled back. Nothing is produced, charged or kept.
 *
 * A preview reads a 30-day window and takes seconds on a large store, for a `read` key. So it
 * can never starve the API: it runs on the analysis pool (`analysisDb`, not the API's
 * connections), each statement under a time-out, and at most `slots`' cap per key at once.
 */
export class SignalPreviews {
  constructor(
    private readonly analysisDb: () => Promise<DataSource>,
    private readonly deps: {
      clock: Clock;
      funnel: Pick<Funnel, 'ofSignal'>;
      signals: Pick<Signals, 'insertDraft'>;
      slots: Pick<LookupSlots, 'hold'>;
      statementTimeoutMs: number;
    },
  ) {}

  async preview(caller: PreviewCaller, typeId: SignalTypeId, input: CreateSignalInput): Promise<SignalPreview> {
    const draft = checkedDraft(typeId, { ...input, status: 'draft' });
    return this.deps.slots.hold(caller.keyId, async () => {
      try {
        return await this.evaluate(caller.accountId, draft);
      } catch (err) {
        const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code;
        if (code === QUERY_CANCELED || (err as { code?: string }).code === QUERY_CANCELED)
          throw previewTimeout(this.deps.statementTimeoutMs);
        throw analysisBusy(err) ?? err;
      }
    });
  }

  private async evaluate(accountId: string, draft: SignalDraft): Promise<SignalPreview> {
    const runner = (await this.analysisDb()).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const tx = runner.manager;
      // Every statement below, the evaluation's and the funnel's reads too, stops at the time-out.
      await execute(tx, `SELECT set_config('statement_timeout', $1, true)`, [String(this.deps.statementTimeoutMs)]);
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
      const uncapped = days.reduce((sum, day) => sum + Number(day.leads), 0);
      const personShare = uncapped ? days.reduce((sum, day) => sum + Number(day.person_leads), 0) / uncapped : 0;
      const getEmails = Boolean((signal.config as { getEmails?: boolean }).getEmails);
      const credits =
        produced * draft.type.creditsPerLead +
        (getEmails ? produced * personShare * draft.type.creditsPerEmailFound : 0);
      return {
        windowDays: PREVIEW_WINDOW_DAYS,
        matchingEvents: days.reduce((sum, day) => sum + Number(day.events), 0),
        expectedLeads: produced,
        heldByCap: uncapped - produced,
        expectedLeadsPerDay: twoDecimals(produced / PREVIEW_WINDOW_DAYS),
        expectedCreditsPerDay: twoDecimals(credits / PREVIEW_WINDOW_DAYS),
        capLimited: held,
        funnel: withCapOverTheWindow(funnel.stages, produced),
        applied,
        warnings,
      };
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }
}
