import type { Services } from '../src/services';
import type { SignalReconciliationResult, SignalReconciliationScope } from '../src/temporal/contract';

/** The reconciliation workflow's one step. */
export function signalReconciliationActivities(services: Pick<Services, 'signalReconciliation'>) {
  return {
    async reconcileSignalWorkflows(scope: SignalReconciliationScope = 'all'): Promise<SignalReconciliationResult> {
      return services.signalReconciliation.reconcile(scope);
    },
  };
}
