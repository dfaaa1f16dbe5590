import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time';
import { IsNull, type DataSource } from 'typeorm';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { Signal } from '../../db/entities/signal';
import {
  SIGNAL_RECONCILIATION_INTERVAL,
  SignalIdKey,
  SignalStatusKey,
  signalReconciliationScheduleId,
  signalReconciliationWorkflowType,
  signalWorkflowType,
  type SignalReconciliationResult,
} from '../../temporal/contract';
import type { TemporalSignalLifecycle } from './temporal-lifecycle';

/** Signals started or resumed at once. */
const STARTS_AT_ONCE = 20;

/**
 * Mends what an activation or resume could not tell Temporal (it was unreachable): every active
 * signal gets its running, unpaused workflow. A Temporal Schedule runs it every 30 seconds on one
 * worker of the fleet, and each worker once at start-up (docs/decisions/signals.md).
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
   * paused. Temporal is asked before PostgreSQL: a signal activated in between is then at
   * worst resumed twice (an extra evaluation), never left out.
   */
  async reconcile(): Promise<SignalReconciliationResult> {
    if (!this.temporal) return { active: 0, started: [] };
    const running = await this.runningWorkflows(this.temporal);
    const active = await this.db
      .getRepository(Signal)
      .find({ where: { status: 'active', deletedAt: IsNull() }, order: { createdAt: 'ASC' } });
    const behind = active.filter((signal) => {
      const status = running.get(signal.id);
      return status === undefined || status === 'paused';
    });
    const started: string[] = [];
    const failed: Array<{ signalId: string; err: unknown }> = [];
    for (let i = 0; i < behind.length; i += STARTS_AT_ONCE) {
      await Promise.all(
        behind.slice(i, i + STARTS_AT_ONCE).map(async (signal) => {
          try {
            await this.lifecycle.startOrResume(signal);
            started.push(signal.id);
          } catch (err) {
            failed.push({ signalId: signal.id, err });
          }
        }),
      );
    }
    if (started.length > 0) this.logger.info({ signalIds: started }, 'signal workflows started or resumed');
    if (failed.length > 0) {
      this.logger.warn({ failed: failed.length, first: failed[0] }, 'could not start some signal workflows');
      throw new Error(`${failed.length} of ${behind.length} signal workflows could not be started or resumed`);
    }
    return { active: active.length, started };
  }

  /**
   * Creates the schedule unless it exists (every worker asks at start-up; the first one wins).
   * Skips a run while the last one runs; after an outage it runs once at once rather than every
   * run it missed.
   */
  async schedule(): Promise<void> {
    if (!this.temporal) return;
    const taskQueue = this.config.TEMPORAL_TASK_QUEUE;
    const scheduleId = signalReconciliationScheduleId(taskQueue);
    try {
      await this.temporal.schedule.create({
        scheduleId,
        spec: { intervals: [{ every: SIGNAL_RECONCILIATION_INTERVAL }] },
        action: {
          type: 'startWorkflow',
          workflowType: signalReconciliationWorkflowType,
          workflowId: scheduleId,
          taskQueue,
          args: [],
          workflowRunTimeout: '10 minutes',
          staticSummary: 'Every active signal has its running workflow',
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
        state: {
          note: `Starts or resumes the workflow of each active signal of task queue ${taskQueue} that lacks one (an activation made while Temporal was unreachable).`,
        },
      });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await this.keepInterval(scheduleId);
    }
  }

  /** A schedule an earlier version made with another interval takes this version's. */
  private async keepInterval(scheduleId: string): Promise<void> {
    const handle = this.temporal!.schedule.getHandle(scheduleId);
    const every = msToNumber(SIGNAL_RECONCILIATION_INTERVAL);
    const { spec } = await handle.describe();
    if (spec.intervals?.length === 1 && spec.intervals[0]?.every === every) return;
    await handle.update((previous) => ({ ...previous, spec: { intervals: [{ every }] } }));
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
