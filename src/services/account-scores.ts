import type { DataSource } from 'typeorm';
import { changed, firstRow, rows } from '../db/sql';
import type { Clock } from '../clock';
import { notFound } from '../errors';
import type { ArrivalAnnouncements } from './signals/arrivals';
import {
  DEFAULT_SCORING_MODEL,
  SCORED_EVENT_TYPES,
  accountScore,
  type AccountScore,
  type ScoringModel,
} from '../signal-types/kit/account-score';

export interface ScoringModelAnswer {
  /** `default` until the account stores its own. */
  source: 'default' | 'account';
  updatedAt: string | null;
  model: ScoringModel;
}

export interface CompanyScoreAnswer {
  companyId: string;
  companyName: string;
  at: string;
  score: number;
  grade: string;
  distinctTypes: number;
  modelSource: 'default' | 'account';
  breakdown: AccountScore['breakdown'];
}

/**
 * Each account's scoring model and the scores it gives (docs/decisions/account-score.md). The
 * formula is `accountScore` (src/signal-types/kit), the one the account_score signal's leads
 * are explained with; this reads the events and the model it is applied to.
 */
export class AccountScores {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    /** A model set or reset wakes the account's account_score signals: their window scores differently. */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
  ) {}

  async model(accountId: string): Promise<ScoringModelAnswer> {
    const stored = await firstRow<{ model: ScoringModel; updated_at: Date }>(
      this.db,
      `SELECT model, updated_at FROM scoring_models WHERE account_id = $1`,
      [accountId],
    );
    return stored
      ? { source: 'account', updatedAt: stored.updated_at.toISOString(), model: stored.model }
      : { source: 'default', updatedAt: null, model: DEFAULT_SCORING_MODEL };
  }

  /** Replaces the account's model; its account_score signals then read their window again (a trigger). */
  async setModel(accountId: string, model: ScoringModel): Promise<ScoringModelAnswer> {
    await rows(
      this.db,
      `INSERT INTO scoring_models (account_id, model, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (account_id) DO UPDATE SET model = EXCLUDED.model, updated_at = EXCLUDED.updated_at RETURNING 1`,
      [accountId, JSON.stringify(model)],
    );
    this.tellScoreSignals(accountId);
    return this.model(accountId);
  }

  /** Back to the defaults. */
  async resetModel(accountId: string): Promise<ScoringModelAnswer> {
    // changed(): a DELETE answers [rows, count], which rows() refuses.
    const removed = await changed(this.db, `DELETE FROM scoring_models WHERE account_id = $1`, [accountId]);
    if (removed.count > 0) this.tellScoreSignals(accountId);
    return this.model(accountId);
  }

  private tellScoreSignals(accountId: string): void {
    this.arrivals?.tell({ accountId, signalTypeId: 'account_score' });
  }

  /**
   * The company's score now by the account's model. A company known only through other
   * accounts' claims (docs/decisions/claims.md) is answered only to an account that watches its domain.
   */
  async companyScore(accountId: string, companyId: string): Promise<CompanyScoreAnswer> {
    const company = await firstRow<{ id: string; name: string }>(
      this.db,
      `SELECT c.id, c.name FROM companies c WHERE c.id = $1 AND (c.provenance = 'trusted' OR EXISTS (
         SELECT 1 FROM watched_companies w JOIN signals s ON s.id = w.signal_id
         WHERE s.account_id = $2 AND w.kind = 'company' AND w.domain = c.domain))`,
      [companyId, accountId],
    );
    if (!company) throw notFound('Company');
    const { model, source } = await this.model(accountId);
    const at = this.clock.now();
    const events = await rows<{ id: string; type: string; occurred_at: Date }>(
      this.db,
      `SELECT id, type, occurred_at FROM events WHERE company_id = $1 AND type = ANY($2::text[]) AND occurred_at <= $3`,
      [companyId, SCORED_EVENT_TYPES, at],
    );
    const score = accountScore(
      events.map((e) => ({ id: e.id, type: e.type, occurredAt: e.occurred_at })),
      model,
      at,
    );
    return {
      companyId: company.id,
      companyName: company.name,
      at: at.toISOString(),
      score: score.score,
      grade: score.grade,
      distinctTypes: score.distinctTypes,
      modelSource: source,
      breakdown: score.breakdown,
    };
  }
}
