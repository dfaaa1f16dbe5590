export const crmSyncWorkflowType = 'crmSyncWorkflow';

/** The Temporal Schedule syncing one CRM connection's records, on one task queue. */
export const crmSyncScheduleId = (connectionId: string, taskQueue: string) => `crm-sync:${connectionId}:${taskQueue}`;

/** How a run ended: records read, the connection broken or refusing, or the connection gone (the schedule then goes too). */
export type CrmSyncRunResult =
  | { state: 'synced'; records: number; full: boolean }
  | { state: 'broken' | 'failed'; error: string }
  | { state: 'gone' };
