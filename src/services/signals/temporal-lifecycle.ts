import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { DataSource } from 'typeorm';
import { AppError, conflict, notFound } from '../../errors';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { Signal, type SignalStatus } from '../../db/entities/signal';
import {
  AccountIdKey,
  SignalIdKey,
  SignalStatusKey,
  SignalTypeKey,
  deliveryTaskQueue,
  leadWorkflowId,
  signalWorkflowId,
  signalWorkflowMessages,
  signalWorkflowStateQuery,
  signalWorkflowType,
  type SignalWorkflowInput,
  type SignalWorkflowState,
} from '../../temporal/contract';
import type { SignalLifecycle } from './lifecycle';
import { cancelPendingDeliveries } from './delivery-cancellation';

/** How long a read waits for the signal workflow's own answer before answering from PostgreSQL alone. */
const LIVE_STATE_TIMEOUT_MS = 1_500;

/** Cancellation requests in flight at once when a deleted signal had many pending deliveries. */
const CANCELS_AT_ONCE = 20;

/**
 * Tells a signal's workflow what changed in PostgreSQL. Activation starts the workflow if it
 * is not running (signal-with-start, so a racing second activation cannot start two). When
 * Temporal is unreachable the change still stands: the signal reconciliation (a Temporal
 * Schedule, every 30 seconds) starts or resumes the workflow of each active signal that lacks one,
 * and each workflow re-reads its signal on every evaluation.
 */
export class TemporalSignalLifecycle implements SignalLifecycle {
  constructor(
    private readonly db: DataSource,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly temporal?: Client,
  ) {}

  async statusChanged(signal: Signal, previous: SignalStatus | null): Promise<void> {
    if (signal.status === 'active') await this.ensureRunning(signal);
    else if (previous === 'active') await this.tell(signal.id, 'pause');
  }

  async configChanged(signal: Signal): Promise<void> {
    await this.tell(signal.id, 'configChanged');
  }

  async deleted(signal: Signal): Promise<void> {
    const cancelled = await cancelPendingDeliveries(this.db, signal.id);
    await this.tell(signal.id, 'delete');
    // Replay sends belong to the replay workflow: they find their rows cancelled.
    const leadIds = new Set(
      cancelled.flatMap((delivery) => (delivery.kind === 'lead' && delivery.lead_id ? [delivery.lead_id] : [])),
    );
    await this.cancelLeadWorkflows([...leadIds]);
  }

  /**
   * Stops the workflows of leads whose deliveries were just cancelled, so one waiting out a
   * back-off (up to an hour) ends now rather than at its next attempt. Best effort: a workflow
   * not reached still ends at that attempt, which finds its row cancelled.
   */
  private async cancelLeadWorkflows(leadIds: string[]): Promise<void> {
    const temporal = this.temporal;
    if (!temporal) return;
    for (let i = 0; i < leadIds.length; i += CANCELS_AT_ONCE) {
      await Promise.all(
        leadIds.slice(i, i + CANCELS_AT_ONCE).map(async (leadId) => {
          try {
            await temporal.workflow.getHandle(leadWorkflowId(leadId)).cancel();
          } catch (err) {
            // Not started yet, or already over: nothing to stop.
            if (err instanceof WorkflowNotFoundError) return;
            this.logger.warn({ err, leadId }, 'could not cancel the lead workflow; it ends at its next attempt');
          }
        }),
      );
    }
  }

  /**
   * What only the signal's workflow knows (evaluating now, the next evaluation, leads started),
   * asked by a query; null when the workflow cannot answer within a moment (Temporal down, no
   * worker, no workflow), so that a read never fails because of Temporal.
   */
  async liveState(signalId: string): Promise<SignalWorkflowState | null> {
    if (!this.temporal) return null;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LIVE_STATE_TIMEOUT_MS)));
    const asked = this.temporal.workflow
      .getHandle(signalWorkflowId(signalId))
      .query(signalWorkflowStateQuery)
      .catch(() => null);
    try {
      return await Promise.race([asked, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The operator's "evaluate now": wakes (or starts) the workflow of an active signal. */
  async evaluateNow(signalId: string): Promise<void> {
    const signal = await this.db.getRepository(Signal).findOneBy({ id: signalId });
    if (!signal || signal.deletedAt) throw notFound('Signal');
    if (signal.status !== 'active')
      throw conflict('SIGNAL_NOT_ACTIVE', `The signal is ${signal.status}; only active signals evaluate`);
    if (!this.temporal)
      throw new AppError(503, 'TEMPORAL_UNAVAILABLE', 'Workflows are not reachable from this process');
    await this.temporal.workflow.signalWithStart(
      signalWorkflowType,
      this.startOptions(signal, signalWorkflowMessages.evaluateNow),
    );
  }

  workflowInput(signal: Signal): SignalWorkflowInput {
    return {
      signalId: signal.id,
      accountId: signal.accountId,
      signalTypeId: signal.signalTypeId,
      evaluationIntervalMs: this.config.SIGNAL_EVALUATION_INTERVAL,
      leadTaskQueue: deliveryTaskQueue(this.config),
    };
  }

  /** Starts the workflow unless it runs already, and resumes it; a failure is the reconciliation's to mend. */
  async ensureRunning(signal: Signal): Promise<void> {
    try {
      await this.startOrResume(signal);
    } catch (err) {
      this.logger.warn(
        { err, signalId: signal.id },
        'could not reach the signal workflow; the signal reconciliation starts it within a minute of Temporal answering',
      );
    }
  }

  /** Starts the workflow unless it runs already, and resumes it (an evaluation now); throws when Temporal does not answer. */
  async startOrResume(signal: Signal): Promise<void> {
    if (!this.temporal) return;
    await this.temporal.workflow.signalWithStart(
      signalWorkflowType,
      this.startOptions(signal, signalWorkflowMessages.resume),
    );
  }

  private startOptions(signal: Signal, message: SignalDefinition) {
    return {
      workflowId: signalWorkflowId(signal.id),
      taskQueue: this.config.TEMPORAL_TASK_QUEUE,
      args: [this.workflowInput(signal)] as [SignalWorkflowInput],
      signal: message,
      signalArgs: [] as [],
      typedSearchAttributes: [
        { key: SignalIdKey, value: signal.id },
        { key: AccountIdKey, value: signal.accountId },
        { key: SignalTypeKey, value: signal.signalTypeId },
        { key: SignalStatusKey, value: 'active' },
      ],
      staticSummary: `Signal "${signal.name.slice(0, 120)}" (${signal.signalTypeId})`,
      staticDetails: `Signal \`${signal.id}\` of account \`${signal.accountId}\`: evaluates every ${this.config.SIGNAL_EVALUATION_INTERVAL / 1000}s, produces leads in batches (each lead billed with its row) and starts a \`lead:{leadId}\` workflow per lead, which delivers it to its routes.`,
    };
  }

  private async tell(signalId: string, message: 'pause' | 'configChanged' | 'delete'): Promise<void> {
    if (!this.temporal) return;
    try {
      await this.temporal.workflow.getHandle(signalWorkflowId(signalId)).signal(signalWorkflowMessages[message]);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return;
      this.logger.warn(
        { err, signalId, message },
        'could not reach the signal workflow; it re-reads the signal on its next evaluation',
      );
    }
  }
}
