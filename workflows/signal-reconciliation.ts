import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SignalReconciliationResult, SignalReconciliationScope } from '../src/temporal/contract';

const { reconcileSignalWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The schedule runs again in 30 seconds: a few quick tries are enough.
  retry: { initialInterval: '2 seconds', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `signal-reconciliation:<taskQueue>` schedule every 30 s on the outbox, and by the
 * `signal-sweep:<taskQueue>` schedule daily on every signal: starts or resumes the workflow of
 * each active signal that lacks one (an activation made while Temporal was away) and tells the
 * others a pause or deletion they missed. A schedule of an earlier version passes no scope: all.
 */
export async function signalReconciliationWorkflow(
  scope: SignalReconciliationScope = 'all',
): Promise<SignalReconciliationResult> {
  return await reconcileSignalWorkflows(scope);
}
