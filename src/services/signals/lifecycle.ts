import type { Signal, SignalStatus } from '../../db/entities/signal';

/**
 * What the signal's long-running workflow must hear after PostgreSQL changed. The service
 * writes the database first and tells the workflow second, so the database stays the source
 * of truth and a lost message costs at most one evaluation interval.
 */
export interface SignalLifecycle {
  statusChanged(signal: Signal, previous: SignalStatus | null): Promise<void>;
  configChanged(signal: Signal): Promise<void>;
  deleted(signal: Signal): Promise<void>;
}
