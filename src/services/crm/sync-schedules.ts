import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import { rows } from '../../db/sql';
import { AccountIdKey, crmSyncScheduleId, crmSyncWorkflowType } from '../../temporal/contract';

/** How often a connection's CRM is asked for what changed. */
export const CRM_SYNC_EVERY = '15 minutes';

/**
 * One Temporal Schedule per CRM connection a signal excludes from (the Web UI's Schedules page
 * lists them): made, and run at once, when a signal first asks for exclusions from the
 * connection; removed on disconnect (and by a run that finds the connection gone). A run still
 * going when the next is due makes that one skip.
 */
export class CrmSyncSchedules {
  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
    private readonly temporal?: Client,
  ) {}

  idOf(connectionId: string): string {
    return crmSyncScheduleId(connectionId, this.config.TEMPORAL_TASK_QUEUE);
  }

  async ensure(accountId: string, connectionId: string): Promise<void> {
    if (!this.temporal) return;
    const scheduleId = this.idOf(connectionId);
    try {
      await this.temporal.schedule.create({
        scheduleId,
        spec: { intervals: [{ every: CRM_SYNC_EVERY }] },
        action: {
          type: 'startWorkflow',
          workflowType: crmSyncWorkflowType,
          workflowId: scheduleId,
          taskQueue: this.config.TEMPORAL_TASK_QUEUE,
          args: [connectionId],
          typedSearchAttributes: [{ key: AccountIdKey, value: accountId }],
          staticSummary: `Sync of CRM connection ${connectionId} for exclusions`,
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
        state: {
          note: "Syncs a CRM connection's contact emails and company domains (docs/decisions/integrations.md).",
        },
      });
      await this.temporal.schedule.getHandle(scheduleId).trigger(ScheduleOverlapPolicy.SKIP);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }

  /** At a worker's start: every connection a live signal excludes from has its schedule (made again if lost). */
  async ensureForSignals(): Promise<void> {
    const used = await rows<{ account_id: string; id: string }>(
      this.db,
      `SELECT DISTINCT c.account_id, c.id FROM signals s
       JOIN crm_connections c ON c.id = (s.crm_exclusions->>'connectionId')::uuid AND c.account_id = s.account_id
       WHERE s.crm_exclusions IS NOT NULL AND s.deleted_at IS NULL`,
    );
    for (const connection of used) await this.ensure(connection.account_id, connection.id);
  }

  /** Runs the sync now (a run already going makes this one skip). */
  async trigger(connectionId: string): Promise<void> {
    if (!this.temporal) return;
    await this.temporal.schedule.getHandle(this.idOf(connectionId)).trigger(ScheduleOverlapPolicy.SKIP);
  }

  async remove(connectionId: string): Promise<void> {
    if (!this.temporal) return;
    try {
      await this.temporal.schedule.getHandle(this.idOf(connectionId)).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
}
