import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SignalReconciliationResult } from '../src/temporal/contract';

const { reconcileSignalWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The schedule runs again in 30 seconds: a few quick tries are enough.
  retry: { initialInterval: '2 seconds', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `signal-reconciliation:<taskQueue>` schedule every 30 s: starts or resumes the
 * workflow of each active signal that lacks one (an activation made while Temporal was away).
 */
export async function signalReconciliationWorkflow(): Promise<SignalReconciliationResult> {
  return await reconcileSignalWorkflows();
}
