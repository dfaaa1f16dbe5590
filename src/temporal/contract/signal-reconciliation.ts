export const signalReconciliationWorkflowType = 'signalReconciliationWorkflow';

/**
 * The Temporal Schedule that runs {@link signalReconciliationWorkflowType}, one per signal task
 * queue (a namespace may serve several deployments, as the tests' does).
 */
export const signalReconciliationScheduleId = (taskQueue: string) => `signal-reconciliation:${taskQueue}`;

/**
 * How often the schedule checks that every active signal has its running workflow: twice a
 * minute, so that a signal Temporal missed has its workflow within a minute of Temporal's return.
 */
export const SIGNAL_RECONCILIATION_INTERVAL = '30 seconds';

/** What one reconciliation found: active signals, and those it started or resumed. */
export interface SignalReconciliationResult {
  active: number;
  started: string[];
}
