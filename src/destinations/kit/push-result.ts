import { OutboundHttpError } from '../../providers/outbound-error';
import { NotSendable } from './destination';

/** A push's classification, as a webhook answer's; `statusCode` is the vendor's failing status, null on success (several calls made it). */
export type PushResult =
  | { outcome: 'ok'; statusCode: null; durationMs: number }
  | { outcome: 'retry'; statusCode: number | null; retryAfterMs?: number; error: string; durationMs: number }
  | { outcome: 'permanent'; statusCode: number | null; error: string; durationMs: number };

/**
 * Contract section 6, for every destination alike: 429 waits the vendor's Retry-After, 5xx and
 * time-outs back off, other 4xx are permanent; a NotSendable fails at once.
 */
export function pushResultOf(err: unknown, durationMs: number): PushResult {
  if (err instanceof NotSendable) return { outcome: 'permanent', statusCode: null, error: err.message, durationMs };
  if (err instanceof OutboundHttpError) {
    const statusCode = err.status ?? null;
    if (err.permanent) return { outcome: 'permanent', statusCode, error: err.message, durationMs };
    return {
      outcome: 'retry',
      statusCode,
      error: err.message,
      durationMs,
      ...(err.retryAfterSeconds !== undefined ? { retryAfterMs: err.retryAfterSeconds * 1000 } : {}),
    };
  }
  // Our own failure (database, a bug): retried with back-off like an outage, never silently dropped.
  return { outcome: 'retry', statusCode: null, error: err instanceof Error ? err.message : String(err), durationMs };
}
