import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { execute, rows } from '../db/sql';

/** One budget to spend an attempt from: at most `limit` attempts per window of `windowSeconds`. */
export interface Budget {
  /** What is counted, such as `sign-in-email` or `sign-up-address`. */
  kind: string;
  /** Whose budget it is (an email, a client address); stored only as its SHA-256. */
  owner: string;
  limit: number;
  windowSeconds: number;
}

/** Attempts counted by one reserve call, for handing one back or clearing a budget later. */
export interface Reservation {
  counted: Array<{ budget: string; window: string }>;
}

/** The answer of a reserve call: the reservation, or how long until the first spent budget refills. */
export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; retryAfterMs: number };

/** Expired rows are deleted now and then by a reserve call rather than by a job of its own. */
const SWEEP_PROBABILITY = 0.01;

/**
 * Attempt budgets in PostgreSQL (table `sign_in_attempts`). An attempt is counted before the
 * work it guards, by one upsert that answers the new counts, so parallel attempts each see the
 * others' and no burst gets more than the limit. A refused attempt gives back what it counted
 * in the budgets that still had room. Fixed windows: a budget's window starts at its first
 * attempt and refills whole when it ends.
 */
export class AttemptBudgets {
  constructor(private readonly db: DataSource) {}

  async reserve(budgets: Budget[]): Promise<ReserveResult> {
    // Rows are locked in the order of their keys, so two reserve calls never wait on each other in a cycle.
    const ordered = budgets
      .map((b) => ({ budget: budgetKey(b), limit: b.limit, windowSeconds: b.windowSeconds }))
      .sort((a, b) => (a.budget < b.budget ? -1 : a.budget > b.budget ? 1 : 0));
    const counted = await rows<{ budget: string; attempts: number; window: string; ms_left: number }>(
      this.db,
      `INSERT INTO sign_in_attempts AS a (budget, attempts, window_ends_at)
       SELECT budget, 1, now() + make_interval(secs => seconds)
         FROM unnest($1::text[], $2::int[]) AS r(budget, seconds)
       ON CONFLICT (budget) DO UPDATE SET
         attempts = CASE WHEN a.window_ends_at <= now() THEN 1 ELSE a.attempts + 1 END,
         window_ends_at = CASE WHEN a.window_ends_at <= now() THEN excluded.window_ends_at ELSE a.window_ends_at END
       RETURNING budget, attempts, window_ends_at::text AS window,
         ceil(extract(epoch FROM window_ends_at - now()) * 1000)::float8 AS ms_left`,
      [ordered.map((r) => r.budget), ordered.map((r) => r.windowSeconds)],
    );
    const limitOf = new Map(ordered.map((r) => [r.budget, r.limit]));
    const spent = counted.filter((c) => c.attempts > (limitOf.get(c.budget) ?? 0));
    if (Math.random() < SWEEP_PROBABILITY) await this.sweep();
    if (spent.length === 0)
      return { ok: true, reservation: { counted: counted.map(({ budget, window }) => ({ budget, window })) } };
    const withRoom = counted.filter((c) => !spent.includes(c));
    await this.giveBack({ counted: withRoom });
    return { ok: false, retryAfterMs: Math.max(1000, ...spent.map((s) => s.ms_left)) };
  }

  /** Hands back the attempts of a reservation, in the windows they were counted in. */
  async giveBack(reservation: Reservation, kinds?: string[]): Promise<void> {
    for (const { budget, window } of reservation.counted) {
      if (kinds && !kinds.some((kind) => budget.startsWith(`${kind}:`))) continue;
      await execute(
        this.db,
        `UPDATE sign_in_attempts SET attempts = attempts - 1
          WHERE budget = $1 AND window_ends_at = $2::timestamptz AND attempts > 0`,
        [budget, window],
      );
    }
  }

  /** Refills one budget now. */
  async clear(budget: Omit<Budget, 'limit' | 'windowSeconds'>): Promise<void> {
    await execute(this.db, `DELETE FROM sign_in_attempts WHERE budget = $1`, [budgetKey(budget)]);
  }

  private async sweep(): Promise<void> {
    await execute(this.db, `DELETE FROM sign_in_attempts WHERE window_ends_at < now()`);
  }
}

/** Emails and addresses are not kept in the clear, and a huge form value still makes a short key. */
const budgetKey = (b: Pick<Budget, 'kind' | 'owner'>) =>
  `${b.kind}:${createHash('sha256').update(b.owner).digest('base64url')}`;
