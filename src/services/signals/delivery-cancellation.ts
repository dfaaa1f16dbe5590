import type { DataSource } from 'typeorm';
import { changed } from '../../db/sql';

/**
 * A deleted signal sends nothing more: its pending deliveries are cancelled here, and the signal
 * lifecycle then cancels their leads' workflows (the answered rows); a workflow it misses still ends
 * at its next attempt, which finds the row no longer pending. A function of the database alone
 * so that the signal lifecycle needs no delivery service.
 */
export async function cancelPendingDeliveries(
  db: DataSource,
  signalId: string,
): Promise<Array<{ id: string; kind: string; lead_id: string | null }>> {
  const cancelled = await changed<{ id: string; kind: string; lead_id: string | null }>(
    db,
    `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = now()
     WHERE signal_id = $1 AND status = 'pending' RETURNING id, kind, lead_id`,
    [signalId],
  );
  return cancelled.rows;
}
