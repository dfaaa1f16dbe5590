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
import { SignalWorkflowOutbox, type WorkflowMessage } from './workflow-outbox';
import type { SignalWarning } from '../../signal-types/kit/settings-warnings';

/** How long a read waits for the signal workflow's own answer before answering from PostgreSQL alone. */
const LIVE_STATE_TIMEOUT_MS = 1_500;

/** Cancellation requests in flight at once when a deleted signal had many pending deliveries. */
const CANCELS_AT_ONCE = 20;

/**
 * Tells a signal's workflow what changed in PostgreSQL. Activation starts the workflow if it
 * is not running (signal-with-start, so a racing second activation cannot start two). When
 * Temporal is unreachable the change still stands and the answer comes within a second with a
 * warning: the signal reconciliation (a Temporal Schedule, every 30 seconds) starts or resumes
 * the workflow of each active signal that lacks one and tells the others their pause or
 * deletion, and each workflow re-reads its signal on every evaluation.
 */
export class TemporalSignalLifecycle implements SignalLifecycle {
  readonly outbox: SignalWorkflowOutbox;

  constructor(
    private readonly db: DataSource,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly temporal?: Client,
  ) {
    this.outbox = new SignalWorkflowOutbox(db);
  }

  async statusChanged(signal: Signal, previous: SignalStatus | null): Promise<SignalWarning | undefined> {
    if (signal.status === 'active')
      return this.withinAnswerWait(signal.id, 'activate', () => this.startOrResume(signal));
    if (previous === 'active') return this.withinAnswerWait(signal.id, 'pause', () => this.tell(signal.id, 'pause'));
    return undefined;
  }

  async configChanged(signal: Signal): Promise<SignalWarning | undefined> {
    return this.withinAnswerWait(signal.id, 'config', () => this.tell(signal.id, 'configChanged'));
  }

  async deleted(signal: Signal): Promise<SignalWarning | undefined> {
    const cancelled = await cancelPendingDeliveries(this.db, signal.id);
    // Replay sends belong to the replay workflow: they find their rows cancelled.
    const leadIds = new Set(
      cancelled.flatMap((delivery) => (delivery.kind === 'lead' && delivery.lead_id ? [delivery.lead_id] : [])),
    );
    return this.withinAnswerWait(signal.id, 'delete', async () => {
      await this.tell(signal.id, 'delete');
      await this.cancelLeadWorkflows([...leadIds]);
    });
  }

  /**
   * Gives Temporal `TEMPORAL_ANSWER_WAIT_MS` (1 s) to take a change already saved in PostgreSQL,
   * so an answer never waits out the client's retries while Temporal is away (about 20 s). Past
   * it the call goes on by itself and the answer carries a warning; the signal reconciliation
   * mends whatever the call could not tell (docs/decisions/signals.md).
   */
  private async withinAnswerWait(
    signalId: string,
    change: WorkflowChange,
    work: () => Promise<void>,
  ): Promise<SignalWarning | undefined> {
    if (!this.temporal) return undefined;
    const taken = work().then(
      () => true,
      (err: unknown) => {
        this.logger.warn(
          { err, signalId, change },
          'could not reach the signal workflow; the signal reconciliation tells it within a minute of Temporal answering',
        );
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>(
      (resolve) => (timer = setTimeout(() => resolve('waited'), this.config.TEMPORAL_ANSWER_WAIT_MS)),
    );
    try {
      const answer = await Promise.race([taken, waited]);
      if (answer === true) return undefined;
      if (answer === 'waited') {
        this.logger.warn(
          { signalId, change, waitedMs: this.config.TEMPORAL_ANSWER_WAIT_MS },
          'Temporal did not take the change in time; answered with a warning, the call goes on',
        );
      }
      return workflowPendingWarning(change, this.config.TEMPORAL_ANSWER_WAIT_MS);
    } finally {
      clearTimeout(timer);
    }
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

  /**
   * Starts the workflow unless it runs already, and resumes it (an evaluation now); throws when
   * Temporal does not answer. Taken, it confirms the signal's activation in the outbox.
   */
  async startOrResume(signal: Signal): Promise<void> {
    const temporal = this.temporal;
    if (!temporal) return;
    await this.confirming(signal.id, 'resume', () =>
      temporal.workflow.signalWithStart(signalWorkflowType, this.startOptions(signal, signalWorkflowMessages.resume)),
    );
  }

  /** Sends a message that makes the workflow match the stored state, then clears the outbox's mark if it still stands for that state. */
  private async confirming(signalId: string, message: WorkflowMessage, send: () => Promise<unknown>): Promise<void> {
    const change = await this.outbox.changeTold(signalId, message);
    await send();
    if (change !== null) await this.outbox.confirm(signalId, change);
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

  /** Sends the workflow a message; one that is not running has nothing to hear. Throws when Temporal does not answer. */
  async tell(signalId: string, message: 'pause' | 'configChanged' | 'delete'): Promise<void> {
    if (!this.temporal) return;
    const send = () => this.message(signalId, message);
    // A new config is read at the next evaluation whether or not it was heard: nothing to confirm.
    if (message === 'configChanged') await send();
    else await this.confirming(signalId, message, send);
  }

  /** Rows the signal may want arrived (docs/decisions/wake-on-arrival.md); nothing to confirm. */
  async wake(signalId: string): Promise<void> {
    await this.message(signalId, 'eventsArrived');
  }

  /** A message to the signal's workflow; one with no running workflow has nothing to hear (the outbox starts it). */
  private async message(signalId: string, message: keyof typeof signalWorkflowMessages): Promise<void> {
    if (!this.temporal) return;
    try {
      await this.temporal.workflow.getHandle(signalWorkflowId(signalId)).signal(signalWorkflowMessages[message]);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
}

/** What an answer tells Temporal, in the words of its warning. */
type WorkflowChange = 'activate' | 'pause' | 'config' | 'delete';

/** A change saved but not yet confirmed by Temporal: what happens meanwhile and when it lands. */
export function workflowPendingWarning(change: WorkflowChange, waitedMs: number): SignalWarning {
  const unconfirmed = `Saved, but Temporal did not confirm within ${waitedMs} ms that the signal's workflow`;
  const message = {
    activate: `${unconfirmed} runs: it is started as soon as Temporal answers, by the signal reconciliation within a minute at the latest; nothing is evaluated until then`,
    pause: `${unconfirmed} heard of the pause: it produces nothing meanwhile (each evaluation reads the stored status first) and is told as soon as Temporal answers`,
    config: `${unconfirmed} heard of the change: its next evaluation reads the new settings`,
    delete: `${unconfirmed} and its leads' workflows stopped: pending deliveries are cancelled and nothing more is billed; the workflows end as soon as Temporal answers`,
  }[change];
  return {
    code: 'WORKFLOW_PENDING',
    field: change === 'config' ? 'config' : 'status',
    severity: 'warning',
    message,
    values: [change],
  };
}
