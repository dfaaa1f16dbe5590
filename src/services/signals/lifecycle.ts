import type { Signal, SignalStatus } from '../../db/entities/signal';
import type { SignalWarning } from '../../signal-types/kit/settings-warnings';

/**
 * What the signal's long-running workflow must hear after PostgreSQL changed. The service
 * writes the database first and tells the workflow second, so the database stays the source
 * of truth and a lost message costs at most one evaluation interval. Each answers at once: a
 * warning when the workflow could not be told yet (Temporal away), for the caller's answer.
 */
export interface SignalLifecycle {
  statusChanged(signal: Signal, previous: SignalStatus | null): Promise<SignalWarning | undefined>;
  configChanged(signal: Signal): Promise<SignalWarning | undefined>;
  deleted(signal: Signal): Promise<SignalWarning | undefined>;
}
