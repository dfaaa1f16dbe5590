import type { DataSource, EntityManager } from 'typeorm';
import { Signal, type SignalStatus } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import type { Credits } from '../credits';
import { signalType } from '../signals/signal-types';
import type { StoredWatchlistConfig } from '../signals/config';
import type { Candidate } from './candidate';
import { duplicateWindowDays, findCandidates, leadsLeftToday } from './evaluation';
import { leadIdFor } from './lead-identity';
import { buildLeadPayload } from './payload';

export interface ProductionBatch {
  state: SignalStatus | 'deleted';
  /** Leads produced and not yet handed to their lead workflow, oldest first (from this and earlier batches). */
  pendingLeadIds: string[];
  produced: number;
  /** True when this batch stopped at its size and more candidates may wait. */
  more: boolean;
  deferredBy?: 'dailyLeadLimit' | 'credits';
}

type LeadOutcome = 'produced' | 'skipped' | 'cap' | 'credits' | 'inactive';

/**
 * Turns a signal's candidates into leads, one transaction per lead: the lead row (unique per
 * signal, event and subject), its charge in the ledger and the signal's counters commit
 * together or not at all. Candidates past the daily cap or the credits are left for a later
 * evaluation, oldest first.
 */
export class LeadProduction {
  constructor(
    private readonly db: DataSource,
    private readonly credits: Credits,
    private readonly clock: Clock,
  ) {}

  async produceBatch(signalId: string, batchSize = 100): Promise<ProductionBatch> {
    const signal = await this.db.getRepository(Signal).findOneBy({ id: signalId });
    if (!signal || signal.deletedAt) return { state: 'deleted', pendingLeadIds: [], produced: 0, more: false };
    const pending = () => this.pendingLeadIds(signalId);
    if (signal.status !== 'active') return { state: signal.status, pendingLeadIds: await pending(), produced: 0, more: false };

    const now = this.clock.now();
    if (!signal.firstEvaluatedAt) {
      await this.db.query(`UPDATE signals SET first_evaluated_at = $2 WHERE id = $1 AND first_evaluated_at IS NULL`, [signalId, now]);
      signal.firstEvaluatedAt = now;
    }
    const remainingToday = leadsLeftToday(signal, this.clock.utcDay(now));
    if (remainingToday <= 0) return { state: 'active', pendingLeadIds: await pending(), produced: 0, more: false, deferredBy: 'dailyLeadLimit' };

    const limit = Math.min(batchSize, remainingToday);
    const candidates = await findCandidates(this.db.manager, signal, now, limit);
    let produced = 0;
    let stop: LeadOutcome | undefined;
    for (const candidate of candidates) {
      const outcome = await this.produceOne(signal, candidate, now);
      if (outcome === 'produced') produced++;
      if (outcome === 'cap' || outcome === 'credits' || outcome === 'inactive') {
        stop = outcome;
        break;
      }
    }
    if (stop === 'credits') await this.markCreditsExhausted(signalId, now);
    else if (produced > 0 && signal.creditsExhaustedAt) await this.db.query(`UPDATE signals SET credits_exhausted_at = NULL WHERE id = $1`, [signalId]);

    const deferredBy = stop === 'credits' ? 'credits' : stop === 'cap' ? 'dailyLeadLimit' : undefined;
    return {
      state: stop === 'inactive' ? 'paused' : 'active',
      pendingLeadIds: await pending(),
      produced,
      // A full batch may hide more candidates; skipped repeats leave cap unused for them.
      more: !stop && candidates.length === limit && produced < remainingToday,
      ...(deferredBy ? { deferredBy } : {}),
    };
  }

  private async produceOne(signal: Signal, candidate: Candidate, now: Date): Promise<LeadOutcome> {
    return this.db.transaction(async (tx) => {
      // The row lock orders concurrent producers of one signal and fixes the day's count.
      const [locked] = await tx.query(
        `SELECT status, deleted_at, leads_today, leads_day::text AS leads_day, daily_lead_limit FROM signals WHERE id = $1 FOR UPDATE`,
        [signal.id],
      );
      if (!locked || locked.deleted_at || locked.status !== 'active') return 'inactive';
      const today = this.clock.utcDay(now);
      const leadsToday = locked.leads_day === today ? locked.leads_today : 0;
      if (leadsToday >= locked.daily_lead_limit) return 'cap';
      if (await this.isRepeatedSubject(tx, signal, candidate.subject_key, now)) return 'skipped';

      const leadId = leadIdFor(signal.id, candidate.event_id, candidate.subject_key);
      const payload = buildLeadPayload(
        leadId,
        now,
        { id: signal.id, name: signal.name, signalTypeId: signal.signalTypeId, getPhones: Boolean((signal.config as StoredWatchlistConfig).getPhones) },
        candidate,
      );
      const inserted = await tx.query(
        `INSERT INTO leads (id, signal_id, account_id, event_id, subject_key, payload, email_status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT DO NOTHING RETURNING id`,
        [leadId, signal.id, signal.accountId, candidate.event_id, candidate.subject_key, JSON.stringify(payload),
          (signal.config as { getEmails?: boolean }).getEmails && candidate.person_id ? 'pending' : 'not_requested', now],
      );
      if (inserted.length === 0) return 'skipped';
      const charge = await this.credits.charge(tx, {
        accountId: signal.accountId,
        credits: signalType(signal.signalTypeId).creditsPerLead,
        operation: 'lead',
        idempotencyKey: `lead:${leadId}`,
        signalId: signal.id,
        leadId,
      });
      if (charge === 'insufficient') {
        // Throwing rolls back the lead row too: an unpaid lead does not exist.
        throw new CreditsExhausted();
      }
      await tx.query(
        `UPDATE signals SET leads_today = $2, leads_day = $3, leads_total = leads_total + 1, last_lead_at = $4 WHERE id = $1`,
        [signal.id, leadsToday + 1, today, now],
      );
      return 'produced';
    }).catch((err) => {
      if (err instanceof CreditsExhausted) return 'credits' as const;
      throw err;
    });
  }

  private async isRepeatedSubject(tx: EntityManager, signal: Signal, subjectKey: string, now: Date): Promise<boolean> {
    const days = duplicateWindowDays(signal.duplicateHandling);
    if (days === 0) return false;
    const since = Number.isFinite(days) ? new Date(now.getTime() - days * 86_400_000) : new Date(0);
    const rows = await tx.query(`SELECT 1 FROM leads WHERE signal_id = $1 AND subject_key = $2 AND created_at > $3 LIMIT 1`, [
      signal.id,
      subjectKey,
      since,
    ]);
    return rows.length > 0;
  }

  private async markCreditsExhausted(signalId: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE signals SET credits_exhausted_at = coalesce(credits_exhausted_at, $2) WHERE id = $1`, [signalId, now]);
  }

  async pendingLeadIds(signalId: string, limit = 500): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM leads WHERE signal_id = $1 AND handed_off_at IS NULL ORDER BY created_at, id LIMIT $2`,
      [signalId, limit],
    );
    return rows.map((r) => r.id);
  }

  async markHandedOff(leadIds: string[]): Promise<void> {
    if (leadIds.length === 0) return;
    await this.db.query(`UPDATE leads SET handed_off_at = now() WHERE id = ANY($1::uuid[]) AND handed_off_at IS NULL`, [leadIds]);
  }
}

class CreditsExhausted extends Error {}
