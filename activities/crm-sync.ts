import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import type { Services } from '../src/services';
import { OutboundHttpError } from '../src/providers/outbound-error';
import type { CrmSyncRunResult } from '../src/temporal/contract';

/** A CRM connection's record sync: one activity per run, heartbeating per page. */
export function crmSyncActivities(services: Pick<Services, 'crmRecordSync' | 'crmSyncSchedules'>) {
  const { crmRecordSync, crmSyncSchedules } = services;
  return {
    async syncCrmRecords(connectionId: string): Promise<CrmSyncRunResult> {
      try {
        return await crmRecordSync.run(connectionId, () => heartbeat());
      } catch (err) {
        // The vendor's Retry-After becomes this activity's next retry delay.
        if (err instanceof OutboundHttpError && err.retryAfterSeconds !== undefined) {
          throw ApplicationFailure.create({
            message: err.message,
            type: 'CrmThrottled',
            nextRetryDelay: err.retryAfterSeconds * 1000,
          });
        }
        throw err;
      }
    },
    forgetCrmSync: (connectionId: string) => crmSyncSchedules.remove(connectionId),
  };
}
