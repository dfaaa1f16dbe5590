export const signalReconciliationWorkflowType = 'signalReconciliationWorkflow';

/**
 * What a reconciliation looks at: `unconfirmed`, the signals whose last change Temporal has not
 * confirmed (the outbox, every 30 s); `all`, every active signal and every running signal
 * workflow (the daily sweep, and each worker at start-up).
 */
export type SignalReconciliationScope = 'unconfirmed' | 'all';

/**
 * The Temporal Schedules that run {@link signalReconciliationWorkflowType}, one of each per
 * signal task queue (a namespace may serve several deployments, as the tests' does).
 */
export const signalReconciliationScheduleId = (taskQueue: string) => `signal-reconciliation:${taskQueue}`;
export const signalSweepScheduleId = (taskQueue: string) => `signal-sweep:${taskQueue}`;

/**
 * How often the outbox is mended: twice a minute, so that a signal Temporal missed has its
 * workflow within a minute of Temporal's return.
 */
export const SIGNAL_RECONCILIATION_INTERVAL = '30 seconds';

/** What one reconciliation found: the signals it looked at, those it started or resumed, and those told a missed pause or deletion. */
export interface SignalReconciliationResult {
  scope?: SignalReconciliationScope;
  /** Active signals (`all`), or unconfirmed ones (`unconfirmed`), looked at. */
  active: number;
  started: string[];
  told?: string[];
}
