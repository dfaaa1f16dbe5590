import type { DataSource } from 'typeorm';
import { changed, firstRow, rows } from '../../db/sql';

/** What a signal's workflow is told to match its stored state. */
export type WorkflowMessage = 'resume' | 'pause' | 'delete';

/** A signal whose last change Temporal has not confirmed, as the outbox lists it. */
export interface UnconfirmedSignal {
  id: string;
  status: string;
  deleted: boolean;
}

/**
 * The signal workflows' outbox (migration 1732242760000): a change of status or deletion marks
 * the signal's row in its own transaction; a message that tells the workflow the stored state
 * clears the mark, unless the row changed again meanwhile (docs/decisions/signals.md, "The outbox").
 */
export class SignalWorkflowOutbox {
  constructor(private readonly db: DataSource) {}

  /**
   * The row's change number when its stored state is what `message` tells, read before the
   * message is sent; null when the state says otherwise (a later change will be told or mended).
   */
  async changeTold(signalId: string, message: WorkflowMessage): Promise<string | null> {
    const row = await firstRow<{ change: string; status: string; deleted: boolean }>(
      this.db,
      `SELECT workflow_change::text AS change, status, deleted_at IS NOT NULL AS deleted FROM signals WHERE id = $1`,
      [signalId],
    );
    if (!row) return null;
    return messageFor(row) === message ? row.change : null;
  }

  /** Clears the mark once Temporal took the message, if the row is still at the change it was told. */
  async confirm(signalId: string, change: string): Promise<boolean> {
    const { count } = await changed(
      this.db,
      `UPDATE signals SET workflow_unconfirmed_since = NULL
        WHERE id = $1 AND workflow_change = $2::bigint AND workflow_unconfirmed_since IS NOT NULL`,
      [signalId, change],
    );
    return count === 1;
  }

  /** The oldest unconfirmed signals first. */
  async unconfirmed(limit: number): Promise<UnconfirmedSignal[]> {
    return rows<UnconfirmedSignal>(
      this.db,
      `SELECT id, status, deleted_at IS NOT NULL AS deleted FROM signals
        WHERE workflow_unconfirmed_since IS NOT NULL ORDER BY workflow_unconfirmed_since LIMIT $1`,
      [limit],
    );
  }
}

/** The message that makes a workflow match the stored state. */
export function messageFor(state: { status: string; deleted: boolean }): WorkflowMessage {
  if (state.deleted) return 'delete';
  return state.status === 'active' ? 'resume' : 'pause';
}
