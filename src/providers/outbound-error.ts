/**
 * The one error every outbound call to a third party (sequencer, CRM) throws, so the delivery
 * workflow and the integrations API classify failures in one way (contract section 6):
 * 429 waits `Retry-After`; 5xx, time-out and network errors back off; other 4xx and 3xx are
 * permanent. Messages never carry credentials: callers build them from an operation label,
 * never from the request URL.
 */
export class OutboundHttpError extends Error {
  readonly vendor: string;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly permanent: boolean;

  constructor(
    message: string,
    details: { vendor: string; permanent: boolean; status?: number; retryAfterSeconds?: number },
  ) {
    super(message);
    this.name = 'OutboundHttpError';
    this.vendor = details.vendor;
    this.permanent = details.permanent;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }

  get retryable(): boolean {
    return !this.permanent;
  }
}

export type StatusClass =
  { outcome: 'ok' } | { outcome: 'retry'; retryAfterSeconds?: number } | { outcome: 'permanent' };

/** Contract section 6: 5 s when a 429 names no wait, never more than an hour. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;
export const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * `Retry-After` is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3). lemlist documents
 * both a number and a JavaScript `Date#toString()` form, which `Date.parse` also reads.
 * Absent or unreadable → the contract's 5 s; a date in the past → 0.
 */
export function parseRetryAfter(value: string | string[] | null | undefined, now: Date = new Date()): number {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return DEFAULT_RETRY_AFTER_SECONDS;
  let seconds: number;
  if (/^\d+$/.test(text)) {
    seconds = Number(text);
  } else {
    // V8's Date.parse reads almost anything ("-5", "1.5"); an HTTP-date names a month and a time.
    const at = /[a-z]{3}/i.test(text) && /\d{1,2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_SECONDS;
    seconds = Math.max(0, Math.ceil((at - now.getTime()) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

/**
 * The contract is stricter than Svix or Stripe (which retry every non-2xx): 408 and 425 are
 * "other 4xx" and so permanent here, as contract section 6 reads.
 */
export function classifyHttpStatus(
  status: number,
  retryAfterHeader?: string | string[] | null,
  now: Date = new Date(),
): StatusClass {
  if (status >= 200 && status < 300) return { outcome: 'ok' };
  if (status === 429) return { outcome: 'retry', retryAfterSeconds: parseRetryAfter(retryAfterHeader, now) };
  if (status >= 500) return { outcome: 'retry' };
  return { outcome: 'permanent' };
}
