import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time';
import { In, IsNull, type DataSource } from 'typeorm';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { Signal } from '../../db/entities/signal';
import { rows } from '../../db/sql';
import {
  SIGNAL_RECONCILIATION_INTERVAL,
  SignalIdKey,
  SignalStatusKey,
  signalReconciliationScheduleId,
  signalReconciliationWorkflowType,
  signalSweepScheduleId,
  signalWorkflowType,
  type SignalReconciliationResult,
  type SignalReconciliationScope,
} from '../../temporal/contract';
import type { TemporalSignalLifecycle } from './temporal-lifecycle';
import { messageFor } from './workflow-outbox';

/** Signals started or resumed at once. */
const STARTS_AT_ONCE = 20;
/** Unconfirmed signals one outbox run mends; the rest wait 30 s for the next. */
const UNCONFIRMED_PER_RUN = 1_000;

/**
 * Mends what an activation, pause or deletion could not tell Temporal (it was unreachable).
 * Every 30 seconds a Temporal Schedule mends the outbox: the signals whose last change Temporal
 * has not confirmed. Daily (`SIGNAL_SWEEP_INTERVAL`), and on each worker at start-up, a sweep
 * checks every active signal against the running workflows (docs/decisions/signals.md).
 */
export class SignalReconciliation {
  constructor(
    private readonly db: DataSource,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly lifecycle: TemporalSignalLifecycle,
    private readonly temporal?: Client,
  ) {}

  /**
   * Starts the workflow of each active signal that has none running, and resumes one shown
   * paused; tells a running workflow its signal's pause (shown producing while PostgreSQL says
   * otherwise) or its deletion, a message Temporal missed while it was away. Temporal is asked
   * before PostgreSQL: a signal activated in between is then at worst resumed twice (an extra
   * evaluation), never left out.
   */
  async reconcile(scope: SignalReconciliationScope = 'all'): Promise<SignalReconciliationResult> {
    if (!this.temporal) return { scope, active: 0, started: [] };
    if (scope === 'unconfirmed') return this.mendUnconfirmed();
    const running = await this.runningWorkflows(this.temporal);
    const active = await this.db
      .getRepository(Signal)
      .find({ where: { status: 'active', deletedAt: IsNull() }, order: { createdAt: 'ASC' } });
    const behind = active.filter((signal) => {
      const status = running.get(signal.id);
      return status === undefined || status === 'paused';
    });
    const notActive = await this.notActive(running, new Set(active.map((signal) => signal.id)));
    return { scope, active: active.length, ...(await this.mend(behind, notActive)) };
  }

  /**
   * The outbox: each signal whose last change Temporal has not confirmed is told its stored
   * state (started or resumed, paused, deleted), which confirms it. Nothing else is read.
   */
  private async mendUnconfirmed(): Promise<SignalReconciliationResult> {
    const unconfirmed = await this.lifecycle.outbox.unconfirmed(UNCONFIRMED_PER_RUN);
    const toResume = unconfirmed.filter((signal) => messageFor(signal) === 'resume').map((signal) => signal.id);
    const resumed =
      toResume.length > 0 ? await this.db.getRepository(Signal).find({ where: { id: In(toResume) } }) : [];
    const others = unconfirmed.flatMap((signal) => {
      const message = messageFor(signal);
      return message === 'resume' ? [] : [{ signalId: signal.id, message }];
    });
    return { scope: 'unconfirmed', active: unconfirmed.length, ...(await this.mend(resumed, others)) };
  }

  private async mend(
    behind: Signal[],
    notActive: Array<{ signalId: string; message: 'pause' | 'delete' }>,
  ): Promise<{ started: string[]; told?: string[] }> {
    const started: string[] = [];
    const told: string[] = [];
    const failed: Array<{ signalId: string; err: unknown }> = [];
    const work: Array<{ signalId: string; step: () => Promise<void> }> = [
      ...behind.map((signal) => ({
        signalId: signal.id,
        step: async () => {
          await this.lifecycle.startOrResume(signal);
          started.push(signal.id);
        },
      })),
      ...notActive.map(({ signalId, message }) => ({
        signalId,
        step: async () => {
          await this.lifecycle.tell(signalId, message);
          told.push(signalId);
        },
      })),
    ];
    for (let i = 0; i < work.length; i += STARTS_AT_ONCE) {
      await Promise.all(
        work.slice(i, i + STARTS_AT_ONCE).map(async ({ signalId, step }) => {
          try {
            await step();
          } catch (err) {
            failed.push({ signalId, err });
          }
        }),
      );
    }
    if (started.length > 0) this.logger.info({ signalIds: started }, 'signal workflows started or resumed');
    if (told.length > 0) this.logger.info({ signalIds: told }, 'signal workflows told a pause or deletion they missed');
    if (failed.length > 0) {
      this.logger.warn({ failed: failed.length, first: failed[0] }, 'could not reach some signal workflows');
      throw new Error(`${failed.length} of ${work.length} signal workflows could not be started, resumed or told`);
    }
    return { started, ...(told.length > 0 ? { told } : {}) };
  }

  /**
   * Running workflows whose signal is not active: deleted (or gone) ones are told `delete`; paused
   * or draft ones still shown producing are told `pause`.
   */
  private async notActive(
    running: Map<string, string | undefined>,
    activeIds: Set<string>,
  ): Promise<Array<{ signalId: string; message: 'pause' | 'delete' }>> {
    const others = [...running.keys()].filter((signalId) => !activeIds.has(signalId));
    if (others.length === 0) return [];
    const stored = await rows<{ id: string; deleted: boolean }>(
      this.db,
      `SELECT id, deleted_at IS NOT NULL AS deleted FROM signals WHERE id = ANY($1::uuid[])`,
      [others],
    );
    const deleted = new Map(stored.map((row) => [row.id, row.deleted]));
    return others.flatMap((signalId): Array<{ signalId: string; message: 'pause' | 'delete' }> => {
      if (deleted.get(signalId) !== false) return [{ signalId, message: 'delete' }];
      return running.get(signalId) === 'paused' ? [] : [{ signalId, message: 'pause' }];
    });
  }

  /**
   * Creates the two schedules unless they exist (every worker asks at start-up; the first one
   * wins): the outbox every 30 s and the sweep every `SIGNAL_SWEEP_INTERVAL`. Each skips a run
   * while the last one runs; after an outage it runs once at once rather than every run it missed.
   */
  async schedule(): Promise<void> {
    const taskQueue = this.config.TEMPORAL_TASK_QUEUE;
    await this.ensureSchedule(
      signalReconciliationScheduleId(taskQueue),
      msToNumber(SIGNAL_RECONCILIATION_INTERVAL),
      'unconfirmed',
      {
        summary: 'Every signal change Temporal missed reaches its workflow',
        note: `Tells the workflow of each signal of task queue ${taskQueue} whose last change Temporal did not confirm (made while it was unreachable) its stored state.`,
      },
    );
    await this.ensureSchedule(signalSweepScheduleId(taskQueue), this.config.SIGNAL_SWEEP_INTERVAL, 'all', {
      summary: 'Every active signal has its running workflow',
      note: `Starts or resumes the workflow of each active signal of task queue ${taskQueue} that lacks one, and tells running workflows a pause or deletion they missed.`,
    });
  }

  private async ensureSchedule(
    scheduleId: string,
    every: number,
    scope: SignalReconciliationScope,
    text: { summary: string; note: string },
  ): Promise<void> {
    if (!this.temporal) return;
    try {
      await this.temporal.schedule.create({
        scheduleId,
        spec: { intervals: [{ every }] },
        action: {
          type: 'startWorkflow',
          workflowType: signalReconciliationWorkflowType,
          workflowId: scheduleId,
          taskQueue: this.config.TEMPORAL_TASK_QUEUE,
          args: [scope],
          workflowRunTimeout: '10 minutes',
          staticSummary: text.summary,
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
        state: { note: text.note },
      });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await this.keepVersion(scheduleId, every, scope);
    }
  }

  /** A schedule an earlier version made with another interval or scope takes this version's. */
  private async keepVersion(scheduleId: string, every: number, scope: SignalReconciliationScope): Promise<void> {
    const handle = this.temporal!.schedule.getHandle(scheduleId);
    const { spec, action } = await handle.describe();
    const sameInterval = spec.intervals?.length === 1 && spec.intervals[0]?.every === every;
    const sameScope = action.type === 'startWorkflow' && action.args?.[0] === scope;
    if (sameInterval && sameScope) return;
    await handle.update((previous) => ({
      ...previous,
      spec: { intervals: [{ every }] },
      action: { ...previous.action, args: [scope] },
    }));
  }

  /** The signal workflows running on this task queue, by signal id, with the status they show. */
  private async runningWorkflows(temporal: Client): Promise<Map<string, string | undefined>> {
    const running = new Map<string, string | undefined>();
    const query = `WorkflowType = '${signalWorkflowType}' AND ExecutionStatus = 'Running' AND TaskQueue = '${this.config.TEMPORAL_TASK_QUEUE}'`;
    for await (const execution of temporal.workflow.list({ query })) {
      const signalId = execution.typedSearchAttributes.get(SignalIdKey);
      if (signalId) running.set(signalId, execution.typedSearchAttributes.get(SignalStatusKey));
    }
    return running;
  }
}
