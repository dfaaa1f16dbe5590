import type { Services } from '../src/services';
import type { SignalReconciliationResult } from '../src/temporal/contract';

/** The reconciliation workflow's one step. */
export function signalReconciliationActivities(services: Services) {
  return {
    async reconcileSignalWorkflows(): Promise<SignalReconciliationResult> {
      return services.signalReconciliation.reconcile();
    },
  };
}
