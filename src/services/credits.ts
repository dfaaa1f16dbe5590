import { DataSource, EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { changed, execute, firstRow, rows } from '../db/sql';
import { AppError, insufficientCredits } from '../errors';
import type { ArrivalAnnouncements } from './signals/arrivals';

export interface Charge {
  accountId: string;
  credits: number;
  operation: string;
  idempotencyKey: string;
  signalId?: string | null;
  leadId?: string | null;
}

export interface UsageItem {
  id: string;
  at: string;
  operation: string;
  signalId?: string;
  leadId?: string;
  credits: number;
}

/** numeric(14,1): pg answers it as a string. */
interface BalanceRow {
  credit_balance: string;
}

export type ChargeOutcome = 'charged' | 'already_charged' | 'insufficient';

/**
 * The credit ledger. Every movement is one row with a unique idempotency key, and the
 * account's balance moves in the same statement batch, so a retried activity never
 * bills twice and the balance never drifts from the ledger.
 */
export class Credits {
  constructor(
    private readonly db: DataSource,
    /** Credits added wake the account's signals: one deferred for lack of credits can now produce. */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
  ) {}

  async balance(accountId: string): Promise<number> {
    const account = await firstRow<BalanceRow>(this.db, `SELECT credit_balance FROM accounts WHERE id = $1`, [
      accountId,
    ]);
    if (!account) throw new AppError(404, 'NOT_FOUND', 'Account not found');
    return Number(account.credit_balance);
  }

  async usage(
    accountId: string,
    filter: { from?: Date; to?: Date; signalId?: string; limit: number; offset: number },
  ): Promise<{ items: UsageItem[]; total: number; limit: number; offset: number; hasMore: boolean }> {
    const where = ['account_id = $1'];
    const args: unknown[] = [accountId];
    if (filter.from) where.push(`created_at >= $${args.push(filter.from)}`);
    if (filter.to) where.push(`created_at < $${args.push(filter.to)}`);
    if (filter.signalId) where.push(`signal_id = $${args.push(filter.signalId)}`);
    const clause = where.join(' AND ');
    const [{ total }] = await rows<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM credit_ledger WHERE ${clause}`,
      args,
    );
    const entries = await rows<{
      id: string;
      created_at: Date;
      operation: string;
      signal_id: string | null;
      lead_id: string | null;
      credits: string;
    }>(
      this.db,
      `SELECT id, created_at, operation, signal_id, lead_id, credits FROM credit_ledger WHERE ${clause}
       ORDER BY created_at DESC, id DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, filter.limit, filter.offset],
    );
    const items = entries.map((row) => ({
      id: row.id,
      at: row.created_at.toISOString(),
      operation: row.operation,
      ...(row.signal_id ? { signalId: row.signal_id } : {}),
      ...(row.lead_id ? { leadId: row.lead_id } : {}),
      credits: Number(row.credits),
    }));
    return { items, total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + items.length < total };
  }

  /**
   * Adds credits; inside the caller's transaction when `within` is given (a confirmed sign-up:
   * account, grant and member, all or none). Its signals are told once its own transaction
   * committed; within a caller's, the caller tells after its commit (a new account has no signals).
   */
  async grant(
    accountId: string,
    credits: number,
    idempotencyKey = `grant:${randomUUID()}`,
    within?: EntityManager,
  ): Promise<number> {
    const granted = async (tx: EntityManager) => {
      const outcome = await this.apply(tx, { accountId, credits, operation: 'grant', idempotencyKey });
      if (outcome === 'insufficient') throw insufficientCredits();
      return { outcome, balance: await this.balanceIn(tx, accountId) };
    };
    if (within) return (await granted(within)).balance;
    const { outcome, balance } = await this.db.transaction(granted);
    if (outcome === 'charged' && credits > 0) this.arrivals?.tell({ accountId });
    return balance;
  }

  /**
   * Debits inside the caller's transaction (lead production inserts the lead in the same one).
   * Never takes the balance below zero.
   */
  async charge(tx: EntityManager, charge: Charge): Promise<ChargeOutcome> {
    return this.apply(tx, { ...charge, credits: -Math.abs(charge.credits) });
  }

  /**
   * Charges of one account in one statement each for the ledger and the balance, all or none:
   * 'insufficient' leaves no ledger row when the balance cannot cover the new ones together.
   * Charges already in the ledger (same idempotency key) are not charged again.
   */
  async chargeAll(
    tx: EntityManager,
    accountId: string,
    charges: Omit<Charge, 'accountId'>[],
  ): Promise<'charged' | 'insufficient'> {
    if (charges.length === 0) return 'charged';
    const inserted = await rows<{ id: string }>(
      tx,
      `INSERT INTO credit_ledger (account_id, credits, operation, signal_id, lead_id, idempotency_key)
       SELECT $1, -abs(c.credits), c.operation, c.signal_id, c.lead_id, c.idempotency_key
       FROM unnest($2::numeric[], $3::text[], $4::uuid[], $5::uuid[], $6::text[]) AS c(credits, operation, signal_id, lead_id, idempotency_key)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING id`,
      [
        accountId,
        charges.map((c) => c.credits),
        charges.map((c) => c.operation),
        charges.map((c) => c.signalId ?? null),
        charges.map((c) => c.leadId ?? null),
        charges.map((c) => c.idempotencyKey),
      ],
    );
    if (inserted.length === 0) return 'charged';
    const ids = inserted.map((row) => row.id);
    // Summed by PostgreSQL, in numeric: no float rounding on money.
    const updated = await changed(
      tx,
      `WITH charged AS (SELECT sum(credits) AS total FROM credit_ledger WHERE id = ANY($2::uuid[]))
       UPDATE accounts SET credit_balance = credit_balance + charged.total FROM charged
       WHERE accounts.id = $1 AND credit_balance + charged.total >= 0`,
      [accountId, ids],
    );
    if (updated.count === 0) {
      await execute(tx, `DELETE FROM credit_ledger WHERE id = ANY($1::uuid[])`, [ids]);
      return 'insufficient';
    }
    return 'charged';
  }

  private async apply(tx: EntityManager, entry: Charge): Promise<ChargeOutcome> {
    const inserted = await rows<{ id: string }>(
      tx,
      `INSERT INTO credit_ledger (account_id, credits, operation, signal_id, lead_id, idempotency_key)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING id`,
      [
        entry.accountId,
        entry.credits,
        entry.operation,
        entry.signalId ?? null,
        entry.leadId ?? null,
        entry.idempotencyKey,
      ],
    );
    if (inserted.length === 0) return 'already_charged';
    const updated = await changed(
      tx,
      `UPDATE accounts SET credit_balance = credit_balance + $2
       WHERE id = $1 AND credit_balance + $2 >= 0`,
      [entry.accountId, entry.credits],
    );
    if (updated.count === 0) {
      // Undo the ledger row we just wrote: a refused charge leaves no trace.
      await execute(tx, `DELETE FROM credit_ledger WHERE id = $1`, [inserted[0].id]);
      return 'insufficient';
    }
    return 'charged';
  }

  /** The balance, with the account's row locked until the transaction ends: a batch's charges fit it. */
  async lockedBalance(tx: EntityManager, accountId: string): Promise<number> {
    const account = await firstRow<BalanceRow>(tx, `SELECT credit_balance FROM accounts WHERE id = $1 FOR UPDATE`, [
      accountId,
    ]);
    return Number(account?.credit_balance ?? 0);
  }

  async balanceIn(tx: EntityManager, accountId: string): Promise<number> {
    const [account] = await rows<BalanceRow>(tx, `SELECT credit_balance FROM accounts WHERE id = $1`, [accountId]);
    return Number(account.credit_balance);
  }
}
