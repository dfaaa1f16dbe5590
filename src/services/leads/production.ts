import type { DataSource, EntityManager } from 'typeorm';
import { execute, firstRow, rows } from '../../db/sql';
import { Signal, type CrmExclusions, type SignalStatus } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import type { Credits } from '../credits';
import { signalType } from '../../signal-types/registry';
import type { Candidate } from '../../signal-types/kit/candidate';
import { findCandidates, leadsLeftToday } from './evaluation';
import { EvaluationBacklog } from './evaluation-backlog';
import { nextCapDay, nextDueByTime } from './next-due';
import { duplicateWindowDays } from '../../signal-types/kit/evaluation-rules';
import { leadIdFor } from './lead-identity';
import { suppressionFilter } from './suppression-rule';
import { crmExclusionFilter } from './crm-exclusion-rule';
import { buildLeadPayload } from './payload';
import { leadSummary } from './lead-summary';
import { LEAD_DELIVERIES_SQL, planLeadDeliveries } from '../deliveries/lead-deliveries';
import { LEADS_PER_BATCH, type LeadDelivery, type ProducedLead } from '../../temporal/contract';

export interface ProductionBatch {
  state: SignalStatus | 'deleted';
  /**
   * Leads produced but not yet handed off, oldest first: this batch's, and any an earlier try
   * produced but never reported (a crash between commit and answer) or whose hand-off is not
   * yet recorded.
   */
  leads: ProducedLead[];
  produced: number;
  /** True when this batch stopped at its size and more candidates may wait. */
  more: boolean;
  deferredBy?: 'dailyLeadLimit' | 'credits';
  /**
   * The earliest instant after now (ISO) at which passing time alone may give the signal a lead:
   * its cap day ends, an event dated ahead comes, a duplicate window runs out (next-due.ts). May
   * be early, never late; absent when none, or while `more` (the next batch answers).
   */
  nextDueAt?: string;
}

type StopReason = 'cap' | 'credits' | 'inactive';

/** How an evaluation reads its candidates (EVALUATION_READ). */
export type EvaluationRead = 'incremental' | 'full';

/**
 * Turns a signal's candidates into leads, one transaction per batch: the lead rows (unique per
 * signal, event and subject), their charges in the ledger and the signal's counters commit
 * together or not at all. Candidates past the daily cap or the credits are left for a later
 * evaluation, oldest first.
 */
export class LeadProduction {
  private readonly backlog: EvaluationBacklog | null;

  /**
   * `read: 'incremental'` (the default) reads what changed since the signal's last evaluation
   * into its backlog and produces from there; `'full'` reads the whole window every time (the
   * reference the property test compares with).
   */
  constructor(
    private readonly db: DataSource,
    private readonly credits: Credits,
    private readonly clock: Clock,
    options: { read?: EvaluationRead } = {},
  ) {
    this.backlog = options.read === 'full' ? null : new EvaluationBacklog(db);
  }

  async produceBatch(signalId: string, batchSize = LEADS_PER_BATCH): Promise<ProductionBatch> {
    const signal = await this.db.getRepository(Signal).findOneBy({ id: signalId });
    if (!signal || signal.deletedAt) return { state: 'deleted', leads: [], produced: 0, more: false };
    const pending = () => this.pendingLeads(signal);
    if (signal.status !== 'active') return { state: signal.status, leads: await pending(), produced: 0, more: false };

    const now = this.clock.now();
    if (!signal.firstEvaluatedAt) {
      await execute(
        this.db,
        `UPDATE signals SET first_evaluated_at = $2 WHERE id = $1 AND first_evaluated_at IS NULL`,
        [signalId, now],
      );
      signal.firstEvaluatedAt = now;
    }
    const remainingToday = leadsLeftToday(signal, this.clock.utcDay(now));
    if (remainingToday <= 0)
      return {
        state: 'active',
        leads: await pending(),
        produced: 0,
        more: false,
        deferredBy: 'dailyLeadLimit',
        nextDueAt: nextCapDay(this.clock, now).toISOString(),
      };

    const limit = Math.min(batchSize, remainingToday);
    const read = this.backlog ? await this.backlog.refresh(signal, now, limit) : undefined;
    const candidates = await findCandidates(this.db.manager, signal, now, limit, read);
    const { produced, stop } = await this.produceAll(signal, candidates, now).catch((err) => {
      if (err instanceof CreditsExhausted) return { produced: 0, stop: 'credits' as const };
      throw err;
    });
    if (stop === 'credits') await this.markCreditsExhausted(signalId, now);
    else if (produced > 0 && signal.creditsExhaustedAt)
      await execute(this.db, `UPDATE signals SET credits_exhausted_at = NULL WHERE id = $1`, [signalId]);

    const deferredBy = stop === 'credits' ? 'credits' : stop === 'cap' ? 'dailyLeadLimit' : undefined;
    // A full batch may hide more candidates; skipped repeats leave cap unused for them.
    const more = !stop && candidates.length === limit && produced < remainingToday;
    const nextDueAt =
      stop === 'inactive' || more
        ? null
        : await this.nextDue(signal, now, stop === 'cap' || produced >= remainingToday);
    return {
      state: stop === 'inactive' ? 'paused' : 'active',
      leads: await pending(),
      produced,
      more,
      ...(deferredBy ? { deferredBy } : {}),
      ...(nextDueAt ? { nextDueAt: nextDueAt.toISOString() } : {}),
    };
  }

  /**
   * When passing time alone may next give the signal a lead. At its cap (refused by it, or its
   * last lead of the day taken with candidates possibly left beyond the batch), nothing produces
   * before the day ends; otherwise the next event dated ahead or duplicate window running out.
   */
  private async nextDue(signal: Signal, now: Date, capReached: boolean): Promise<Date | null> {
    if (capReached) return nextCapDay(this.clock, now);
    return nextDueByTime(this.db.manager, signal, now);
  }

  /**
   * The batch's leads in one transaction: the lead rows (unique per signal, event and subject),
   * their charges in the ledger, a delivery per route of each, and the signal's counters commit
   * together or not at all. The
   * signal's and the account's rows are locked first, so the day's count and the balance
   * decide how many of the candidates, oldest first, become leads; the rest wait.
   */
  private async produceAll(
    signal: Signal,
    candidates: Candidate[],
    now: Date,
  ): Promise<{ produced: number; stop?: StopReason }> {
    if (candidates.length === 0) return { produced: 0 };
    return this.db.transaction(async (tx) => {
      // The row lock orders concurrent producers of one signal and fixes the day's count.
      const locked = await firstRow<LockedSignalRow>(
        tx,
        `SELECT status, deleted_at, leads_today, leads_day::text AS leads_day, daily_lead_limit, webhook_url, destinations, crm_exclusions
         FROM signals WHERE id = $1 FOR UPDATE`,
        [signal.id],
      );
      if (!locked || locked.deleted_at || locked.status !== 'active') return { produced: 0, stop: 'inactive' as const };
      const today = this.clock.utcDay(now);
      const leadsToday = locked.leads_day === today ? locked.leads_today : 0;
      let stop: StopReason | undefined;
      let chosen = await this.withoutSuppressed(
        tx,
        signal,
        locked.crm_exclusions,
        await this.withoutRepeatedSubjects(tx, signal, candidates, now),
      );
      if (chosen.length > locked.daily_lead_limit - leadsToday) {
        chosen = chosen.slice(0, Math.max(0, locked.daily_lead_limit - leadsToday));
        stop = 'cap';
      }
      const price = signalType(signal.signalTypeId).creditsPerLead;
      const balance = await this.credits.lockedBalance(tx, signal.accountId);
      const affordable = Math.floor(balance / price + 1e-9);
      if (chosen.length > affordable) {
        chosen = chosen.slice(0, affordable);
        stop = 'credits';
      }
      if (chosen.length === 0) return { produced: 0, ...(stop ? { stop } : {}) };

      const getEmails = Boolean((signal.config as { getEmails?: boolean }).getEmails);
      const leadInfo = {
        id: signal.id,
        name: signal.name,
        signalTypeId: signal.signalTypeId,
        getPhones: Boolean((signal.config as { getPhones?: boolean }).getPhones),
      };
      const drafted = chosen.map((candidate) => {
        const leadId = leadIdFor(signal.id, candidate.event_id, candidate.subject_key);
        return { leadId, candidate, payload: JSON.stringify(buildLeadPayload(leadId, now, leadInfo, candidate)) };
      });
      const inserted = await rows<{ id: string; event_id: string }>(
        tx,
        `INSERT INTO leads (id, signal_id, account_id, event_id, subject_key, payload, email_status, created_at)
         SELECT l.id, $1, $2, l.event_id, l.subject_key, l.payload::json, l.email_status, $3
         FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[]) AS l(id, event_id, subject_key, payload, email_status)
         ON CONFLICT DO NOTHING RETURNING id, event_id`,
        [
          signal.id,
          signal.accountId,
          now,
          drafted.map((r) => r.leadId),
          drafted.map((r) => r.candidate.event_id),
          drafted.map((r) => r.candidate.subject_key),
          drafted.map((r) => r.payload),
          drafted.map((r) => (getEmails && r.candidate.person_id ? 'pending' : 'not_requested')),
        ],
      );
      if (inserted.length === 0) return { produced: 0, ...(stop ? { stop } : {}) };
      await EvaluationBacklog.removeProduced(
        tx,
        signal.id,
        inserted.map((lead) => lead.event_id),
      );
      const charge = await this.credits.chargeAll(
        tx,
        signal.accountId,
        inserted.map(({ id }) => ({
          credits: price,
          operation: 'lead',
          idempotencyKey: `lead:${id}`,
          signalId: signal.id,
          leadId: id,
        })),
      );
      // Throwing rolls back the lead rows too: an unpaid lead does not exist.
      if (charge === 'insufficient') throw new CreditsExhausted();
      await planLeadDeliveries(
        tx,
        {
          id: signal.id,
          accountId: signal.accountId,
          webhookUrl: locked.webhook_url,
          destinations: locked.destinations,
        },
        inserted.map(({ id }) => id),
      );
      await execute(
        tx,
        `UPDATE signals SET leads_today = $2, leads_day = $3, leads_total = leads_total + $5, last_lead_at = $4 WHERE id = $1`,
        [signal.id, leadsToday + inserted.length, today, now, inserted.length],
      );
      return { produced: inserted.length, ...(stop ? { stop } : {}) };
    });
  }

  /**
   * Candidates whose subject has no lead inside the signal's duplicate window, and each subject
   * once in the batch (its oldest event). The evaluation left out subjects with a lead already;
   * this repeats the check under the signal's lock.
   */
  private async withoutRepeatedSubjects(
    tx: EntityManager,
    signal: Signal,
    candidates: Candidate[],
    now: Date,
  ): Promise<Candidate[]> {
    const days = duplicateWindowDays(signal.duplicateHandling);
    if (days === 0) return candidates;
    const since = Number.isFinite(days) ? new Date(now.getTime() - days * 86_400_000) : new Date(0);
    const repeated = await rows<{ subject_key: string }>(
      tx,
      `SELECT DISTINCT subject_key FROM leads WHERE signal_id = $1 AND subject_key = ANY($2::text[]) AND created_at > $3`,
      [signal.id, candidates.map((c) => c.subject_key), since],
    );
    const seen = new Set(repeated.map((r) => r.subject_key));
    return candidates.filter(
      (candidate) => !seen.has(candidate.subject_key) && Boolean(seen.add(candidate.subject_key)),
    );
  }

  /**
   * Candidates no suppression entry names now and, with the signal's CRM exclusions as locked,
   * not in the CRM's synced records: the evaluation left them out; this repeats the check
   * inside the production transaction, so an entry or record added since is honoured.
   */
  private async withoutSuppressed(
    tx: EntityManager,
    signal: Signal,
    crmExclusions: CrmExclusions | null,
    candidates: Candidate[],
  ): Promise<Candidate[]> {
    if (candidates.length === 0) return candidates;
    const args: unknown[] = [signal.id];
    const crm = crmExclusionFilter(crmExclusions, args);
    const sql = [suppressionFilter(signal.accountId, args).sql, ...(crm ? [crm.sql] : [])].join(' AND ');
    const allowed = await rows<{ i: number }>(
      tx,
      `SELECT x.i FROM unnest($${args.push(candidates.map((c) => c.company_id))}::text[],
           $${args.push(candidates.map((c) => c.person_id))}::text[]) WITH ORDINALITY AS x(company_id, person_id, i)
         JOIN companies c ON c.id = x.company_id LEFT JOIN people p ON p.id = x.person_id
       WHERE ${sql}`,
      args,
    );
    const kept = new Set(allowed.map((row) => Number(row.i) - 1));
    return candidates.filter((_, index) => kept.has(index));
  }

  private async markCreditsExhausted(signalId: string, now: Date): Promise<void> {
    await execute(
      this.db,
      `UPDATE signals SET credits_exhausted_at = coalesce(credits_exhausted_at, $2) WHERE id = $1`,
      [signalId, now],
    );
  }

  /** The signal's leads not yet handed off, with what their workflows need (deliveries) and show (summary). */
  private async pendingLeads(signal: Signal, limit = 5 * LEADS_PER_BATCH): Promise<ProducedLead[]> {
    const pending = await rows<SummaryRow & { id: string; email_pending: boolean; deliveries: LeadDelivery[] }>(
      this.db,
      `SELECT id, email_status = 'pending' AS email_pending, payload->'contact'->>'first_name' AS first_name, payload->'contact'->>'last_name' AS last_name,
           payload->'contact'->>'title' AS title, payload->'company'->>'name' AS company, payload->'signal'->>'last_signal' AS last_signal,
           ${LEAD_DELIVERIES_SQL} AS deliveries
         FROM leads WHERE signal_id = $1 AND handed_off_at IS NULL ORDER BY created_at, id LIMIT $2`,
      [signal.id, limit],
    );
    return pending.map((row) => {
      const routes = row.deliveries.map((delivery) => delivery.route);
      return {
        leadId: row.id,
        deliveries: row.deliveries,
        routes,
        summary: leadSummary(row, routes),
        emailPending: row.email_pending,
      };
    });
  }

  /** The hand-off: these leads' workflows were started, so production answers them no more. Idempotent. */
  async recordHandOff(leadIds: string[]): Promise<void> {
    if (leadIds.length === 0) return;
    await execute(
      this.db,
      `UPDATE leads SET handed_off_at = now() WHERE id = ANY($1::uuid[]) AND handed_off_at IS NULL`,
      [leadIds],
    );
  }
}

class CreditsExhausted extends Error {}

/** The signal's row as production locks it; `leads_day` read as text (YYYY-MM-DD), as the clock's day is. */
interface LockedSignalRow {
  status: SignalStatus;
  deleted_at: Date | null;
  leads_today: number;
  leads_day: string | null;
  daily_lead_limit: number;
  webhook_url: string | null;
  destinations: Record<string, unknown>;
  crm_exclusions: CrmExclusions | null;
}

interface SummaryRow {
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company: string | null;
  last_signal: string | null;
}
