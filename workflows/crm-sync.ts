import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CrmSyncRunResult } from '../src/temporal/contract';

// One activity reads every page, heartbeating; a 429's Retry-After sets the next try, which goes on from the cursor.
const { syncCrmRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '10 minutes', maximumAttempts: 8 },
});
const { forgetCrmSync } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

/**
 * One sync of a CRM connection's contact emails and company domains, started by its schedule
 * (`crm-sync:<connectionId>:<taskQueue>`). A connection that is gone takes its schedule with it.
 */
export async function crmSyncWorkflow(connectionId: string): Promise<CrmSyncRunResult> {
  const result = await syncCrmRecords(connectionId);
  if (result.state === 'gone') await forgetCrmSync(connectionId);
  return result;
}
