import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { SourceNameKey, sourceSyncScheduleId, sourceSyncWorkflowType, sourceTaskQueue } from '../../temporal/contract';
import { execute, rows } from '../../db/sql';

/**
 * One Temporal Schedule per source (the Web UI's Schedules page lists them), created by every
 * worker at start-up (the first one wins) like the signal reconciliation's. A run still going
 * when the next is due makes that one skip; after an outage one run catches up, not all.
 * Runs start on the sources' own task queue (`<TEMPORAL_TASK_QUEUE>-sources`).
 */
export class SourceSchedules {
  constructor(
    private readonly db: DataSource,
    private readonly config: { TEMPORAL_TASK_QUEUE: string },
    /** Each source's interval between runs, in milliseconds. */
    private readonly intervals: Readonly<Record<string, number>>,
    private readonly temporal?: Client,
  ) {}

  idOf(source: string): string {
    return sourceSyncScheduleId(source, this.config.TEMPORAL_TASK_QUEUE);
  }

  /** Where the runs go: the sources' own task queue. */
  get taskQueue(): string {
    return sourceTaskQueue(this.config);
  }

  /**
   * Creates each source's schedule unless it exists, paused when the source is disabled; keeps
   * the interval and the task queue current (a schedule made before the sources had their own
   * queue moves there).
   */
  async ensure(sources: readonly string[]): Promise<void> {
    // A source added by its folder and a registry line has no migration of its own: its state row starts here.
    await execute(this.db, `INSERT INTO sources (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [
      sources,
    ]);
    if (!this.temporal) return;
    const known = await rows<{ name: string; enabled: boolean }>(
      this.db,
      `SELECT name, enabled FROM sources WHERE name = ANY($1::text[])`,
      [sources],
    );
    for (const { name, enabled } of known) {
      const scheduleId = this.idOf(name);
      const every = this.intervals[name];
      if (!every) continue;
      try {
        await this.temporal.schedule.create({
          scheduleId,
          spec: { intervals: [{ every }] },
          action: {
            type: 'startWorkflow',
            workflowType: sourceSyncWorkflowType,
            workflowId: scheduleId,
            taskQueue: this.taskQueue,
            args: [name],
            typedSearchAttributes: [{ key: SourceNameKey, value: name }],
            staticSummary: `Sync of the ${name} source`,
          },
          policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
          state: { paused: !enabled, note: `Syncs the intent source ${name} (docs/sources.md).` },
        });
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
        const handle = this.temporal.schedule.getHandle(scheduleId);
        const { spec, action } = await handle.describe();
        const queue = action.type === 'startWorkflow' ? action.taskQueue : this.taskQueue;
        if (spec.intervals?.length !== 1 || spec.intervals[0]?.every !== every || queue !== this.taskQueue)
          await handle.update((previous) => ({
            ...previous,
            spec: { intervals: [{ every }] },
            action: { ...previous.action, taskQueue: this.taskQueue },
          }));
      }
    }
  }

  async setPaused(source: string, paused: boolean): Promise<void> {
    if (!this.temporal) return;
    const handle = this.temporal.schedule.getHandle(this.idOf(source));
    try {
      if (paused) await handle.pause('disabled by the operator');
      else await handle.unpause('enabled by the operator');
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }

  async trigger(source: string): Promise<void> {
    if (!this.temporal) return;
    const handle = this.temporal.schedule.getHandle(this.idOf(source));
    // A schedule names each run's workflow by the second it starts in: a trigger in the same
    // second as the last run would start nothing, so it waits for the next second.
    const last = (await handle.describe()).info.recentActions.at(-1)?.scheduledAt;
    const second = (at: number) => Math.floor(at / 1000);
    if (last && second(last.getTime()) >= second(Date.now()))
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
    // Buffered, not skipped: a run whose status already says finished may still be closing its
    // workflow, and a skipped trigger would drop the operator's run without a word.
    await handle.trigger(ScheduleOverlapPolicy.BUFFER_ONE);
  }

  async nextRunAt(source: string): Promise<Date | null> {
    if (!this.temporal) return null;
    try {
      const description = await this.temporal.schedule.getHandle(this.idOf(source)).describe();
      return description.info.nextActionTimes[0] ?? null;
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return null;
      throw err;
    }
  }

  /** Test and teardown helper: no schedule left firing. */
  async deleteAll(sources: readonly string[]): Promise<void> {
    if (!this.temporal) return;
    for (const source of sources) {
      await this.temporal.schedule
        .getHandle(this.idOf(source))
        .delete()
        .catch(() => undefined);
    }
  }
}
