import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import type { SignalWorkflowState } from '../../temporal/contract';
import type { Signals } from './signals';

/** `GET /api/v1/signals/{signalId}/activity`: what the signal is doing now. */
export interface SignalActivity {
  signalId: string;
  /** The signal's stored status: `draft`, `active` or `paused`. */
  status: string;
  /**
   * `workflow`: the live fields come from the signal's workflow. `database`: the workflow did
   * not answer in time (Temporal unreachable, no worker, or a signal never activated), so they
   * are null and only PostgreSQL's figures are given.
   */
  source: 'workflow' | 'database';
  /** `active`, `paused` or `credits_exhausted`, as the workflow's SignalStatus search attribute shows it. */
  workflowStatus: string | null;
  evaluating: boolean | null;
  lastEvaluatedAt: string | null;
  nextEvaluationAt: string | null;
  /** Lead workflows started by the evaluation under way, or the last one. */
  leadsStartedThisEvaluation: number | null;
  /** Leads with a route still pending (being sent, or waiting to be retried), from PostgreSQL. */
  leadsBeingDelivered: number;
  leadsToday: number;
  leadsTotal: number;
}

/** Asks the signal's workflow what only it knows, and answers from PostgreSQL alone when it cannot. */
export class SignalActivityReader {
  constructor(
    private readonly db: DataSource,
    private readonly signals: Signals,
    private readonly liveState: (signalId: string) => Promise<SignalWorkflowState | null>,
  ) {}

  async read(accountId: string, signalId: string): Promise<SignalActivity> {
    const signal = await this.signals.get(accountId, signalId);
    const [live, [delivering]] = await Promise.all([
      signal.status === 'draft' ? Promise.resolve(null) : this.liveState(signalId),
      rows<{ n: number }>(
        this.db,
        `SELECT count(DISTINCT lead_id)::int AS n FROM deliveries WHERE signal_id = $1 AND kind = 'lead' AND status = 'pending'`,
        [signalId],
      ),
    ]);
    return {
      signalId,
      status: signal.status,
      source: live ? 'workflow' : 'database',
      workflowStatus: live?.status ?? null,
      evaluating: live?.evaluating ?? null,
      lastEvaluatedAt: live?.lastEvaluatedAt ?? null,
      nextEvaluationAt: live?.nextEvaluationAt ?? null,
      leadsStartedThisEvaluation: live?.leadsStartedThisEvaluation ?? null,
      leadsBeingDelivered: delivering.n,
      leadsToday: signal.leadsToday,
      leadsTotal: signal.leadsTotal,
    };
  }
}
