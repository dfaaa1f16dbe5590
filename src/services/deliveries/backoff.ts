export interface Backoff {
  initialMs: number;
  maxIntervalMs: number;
}

/**
 * The one back-off of every delivery (lead routes and replays alike): the wait after the
 * `failedAttempts`-th failed attempt doubles from `initialMs` up to `maxIntervalMs`.
 */
export function backoffMs(failedAttempts: number, backoff: Backoff): number {
  return Math.min(backoff.initialMs * 2 ** Math.max(0, failedAttempts - 1), backoff.maxIntervalMs);
}
