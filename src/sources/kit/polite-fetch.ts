import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { SourceKitConfig } from './settings';
import { HOST_INTERVALS_MS, HostPacing } from './host-pacing';
import { NoAnswerInTime, unreachableLine } from './fetch-problems';
import { AttemptCancelled, attemptSignal } from './item-attempts';
import { execute, firstRow } from '../../db/sql';
import { decodedText } from './text-decoding';

/** A host answered 429: the caller's retry waits `retryAfterMs` (the activity's `nextRetryDelay`). */
export class SourceThrottled extends Error {
  constructor(
    readonly host: string,
    readonly retryAfterMs: number,
    answered = '429 Too Many Requests',
  ) {
    super(`${host} answered ${answered}; retrying after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/**
 * The largest answer read per kind of document, by what the request accepts (a caller may ask
 * for less or more): far below SOURCES_MAX_RESPONSE_BYTES, which stays the ceiling of all.
 * An answer served as HTML is cut there; any other kind over its cap is refused.
 * A homepage's head and first screens fit in 2 MB; a feed or a job board's XML in 5 MB; a
 * whole JSON board of a large employer (Ashby, Greenhouse with descriptions) in 10 MB.
 */
export const DOCUMENT_MAX_BYTES = {
  html: 2_000_000,
  feed: 5_000_000,
  json: 10_000_000,
  other: 5_000_000,
} as const;

/** The cap for an answer to a request accepting `accept` (its first media type decides). */
export function documentMaxBytes(accept: string | undefined): number {
  const first = (accept ?? '').split(',')[0]!.trim().toLowerCase();
  if (first.includes('html')) return DOCUMENT_MAX_BYTES.html;
  if (first.includes('json')) return DOCUMENT_MAX_BYTES.json;
  if (/xml|rss|atom/.test(first)) return DOCUMENT_MAX_BYTES.feed;
  return DOCUMENT_MAX_BYTES.other;
}

/** An answer cut off for its pace: past its deadline, or slower than the least rate. */
export class AnswerTooSlow extends Error {}

/** Per request: the largest answer to read (else the document kind's cap of {@link DOCUMENT_MAX_BYTES}). */
export interface RequestLimits {
  maxBytes?: number;
}

/** Without a Retry-After, a 429 waits this long. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** A Retry-After longer than this is the host asking us to stop for now: the next scheduled run tries again. */
const MAX_RETRY_AFTER_MS = 3_600_000;

export type FetchAnswer =
  | { status: 'ok'; body: string; validators: Validators }
  | { status: 'not-modified' }
  /** A redirect (3xx) is a failure that says where to: the caller decides whether to follow it. */
  | { status: 'failed'; error: string; statusCode: number | null; location?: string };

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

/**
 * Every request a source makes, made politely once (docs/decisions/sources.md): a User-Agent
 * naming the service and a contact address, one request per host per interval across every
 * worker, conditional requests, 429 and Retry-After honoured, a time-out and a size cap, and
 * the webhooks' address rules. SOURCES_HOST_MAP sends a host elsewhere without changing any
 * of it: pacing and validators stay keyed on the real host and URL.
 */
export class PoliteFetch {
  private readonly pacing: HostPacing;
  private readonly agents = { http: new http.Agent(), https: new https.Agent() };
  private readonly guardedAgents = {
    http: new RequestFilteringHttpAgent({ allowPrivateIPAddress: false, allowMetaIPAddress: false }),
    https: new RequestFilteringHttpsAgent({ allowPrivateIPAddress: false, allowMetaIPAddress: false }),
  };
  readonly userAgent: string;

  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<
      SourceKitConfig,
      | 'SOURCES_CONTACT_EMAIL'
      | 'SOURCES_HOST_MAP'
      | 'SOURCES_HOST_INTERVAL_MS'
      | 'SOURCES_TIMEOUT_MS'
      | 'SOURCES_DEADLINE_MS'
      | 'SOURCES_MIN_BYTES_PER_SECOND'
      | 'SOURCES_MIN_RATE_GRACE_MS'
      | 'SOURCES_MAX_RESPONSE_BYTES'
    > & { WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean },
    /** Hosts that ask for more time between requests than SOURCES_HOST_INTERVAL_MS (GDELT: 5 s), by host. */
    private readonly hostIntervalsMs: Readonly<Record<string, number>> = {},
  ) {
    this.pacing = new HostPacing(db);
    this.userAgent = `intent-leads-sources/1 (+mailto:${config.SOURCES_CONTACT_EMAIL})`;
  }

  /** The least time between two requests to `host`: its owner's published rate, else SOURCES_HOST_INTERVAL_MS. */
  /** Where a request for `url` really goes: the mapped address with path and query unchanged. */
  targetOf(url: string): URL {
    const original = new URL(url);
    const mapped = this.config.SOURCES_HOST_MAP.get(original.host.toLowerCase());
    return mapped ? new URL(`${original.pathname}${original.search}`, mapped) : original;
  }

  /**
   * GETs `url` once its host's turn has come. A 304 answers `not-modified`; call
   * {@link remember} with the validators only once the body's content is safely stored, so that
   * a run killed in between fetches it again rather than missing it.
   */
  async get(
    url: string,
    accept = 'application/json',
    extraHeaders: Record<string, string> = {},
    limits: RequestLimits = {},
  ): Promise<FetchAnswer> {
    const known = await firstRow<{ etag: string | null; last_modified: string | null }>(
      this.db,
      `SELECT etag, last_modified FROM source_http_validators WHERE url = $1`,
      [url],
    );
    const headers: Record<string, string> = { ...extraHeaders, 'user-agent': this.userAgent, accept };
    if (known?.etag) headers['if-none-match'] = known.etag;
    if (known?.last_modified) headers['if-modified-since'] = known.last_modified;
    return this.paced(url, headers, undefined, this.maxBytesOf(accept, limits));
  }

  /**
   * POSTs a JSON `body` to `url` once its host's turn has come, for a search API that takes its
   * query in the body (TED). Nothing is conditional; 429 and every other rule are as for GET.
   */
  async post(url: string, body: string, accept = 'application/json', limits: RequestLimits = {}): Promise<FetchAnswer> {
    const headers = { 'user-agent': this.userAgent, accept, 'content-type': 'application/json' };
    return this.paced(url, headers, body, this.maxBytesOf(accept, limits));
  }

  /** The caller's cap, else its document kind's, never above SOURCES_MAX_RESPONSE_BYTES. */
  private maxBytesOf(accept: string | undefined, limits: RequestLimits): number {
    return Math.min(limits.maxBytes ?? documentMaxBytes(accept), this.config.SOURCES_MAX_RESPONSE_BYTES);
  }

  /** A request once its host's turn has come; a 429 holds every worker off the host and throws. */
  private async paced(
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    maxBytes: number,
  ): Promise<FetchAnswer> {
    const host = new URL(url).host.toLowerCase();
    await this.turnOf(host);
    const answer = await this.request(this.targetOf(url), headers, body, maxBytes).catch((err: Error): FetchAnswer => {
      // A cancelled attempt ends here: no answer at all, so nothing of it is written.
      if (err instanceof AttemptCancelled) throw err;
      return {
        status: 'failed',
        // Without internet the status says so in one line naming the real host (fetch-problems.ts).
        error: unreachableLine(host, err) ?? err.message,
        statusCode: null,
      };
    });
    if ('retryAfterMs' in answer) {
      await this.pacing.holdOff(host, answer.retryAfterMs);
      throw new SourceThrottled(host, answer.retryAfterMs);
    }
    return answer;
  }

  /** Waits for the host's turn; a cancelled attempt stops waiting. */
  private async turnOf(host: string): Promise<void> {
    const signal = attemptSignal();
    if (signal?.aborted) throw new AttemptCancelled(signal.reason);
    const wait = await this.pacing.claim(host, this.intervalOf(host));
    if (wait > 0)
      await sleep(wait, undefined, signal ? { signal } : {}).catch(() => {
        throw new AttemptCancelled(signal?.reason);
      });
  }

  /**
   * The least time between two requests to `host`, for every worker together: the host's own
   * published rate where we know one (SEC EDGAR, GDELT), else SOURCES_HOST_INTERVAL_MS.
   */
  intervalOf(host: string): number {
    const key = host.toLowerCase();
    return this.hostIntervalsMs[key] ?? HOST_INTERVALS_MS[key] ?? this.config.SOURCES_HOST_INTERVAL_MS;
  }

  /**
   * A host refused us in its own way (SEC EDGAR answers 403 to a client over its rate): nothing
   * goes to the host for `ms`, across every worker, and the caller's retry waits as long.
   */
  async refused(url: string, statusCode: number, ms: number): Promise<SourceThrottled> {
    const host = new URL(url).host.toLowerCase();
    await this.pacing.holdOff(host, ms);
    return new SourceThrottled(host, ms, String(statusCode));
  }

  /** The agent a request to `target` goes through: the webhooks' address rules, as for every GET. */
  agentFor(target: URL): http.Agent {
    const agents = this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS ? this.agents : this.guardedAgents;
    return target.protocol === 'https:' ? agents.https : agents.http;
  }

  async remember(url: string, validators: Validators): Promise<void> {
    if (!validators.etag && !validators.lastModified) return;
    await execute(
      this.db,
      `INSERT INTO source_http_validators (url, etag, last_modified) VALUES ($1, $2, $3)
       ON CONFLICT (url) DO UPDATE SET etag = $2, last_modified = $3, updated_at = now()`,
      [url, validators.etag, validators.lastModified],
    );
  }

  /** Drops the URL's validators: its next GET is unconditional (a 304 for content that was never stored). */
  async forget(url: string): Promise<void> {
    await execute(this.db, `DELETE FROM source_http_validators WHERE url = $1`, [url]);
  }

  /**
   * A request whose answer the caller reads whatever its status (a paid vendor's keyed API):
   * paced, host-mapped, guarded, timed and capped as every request of the sources.
   */
  async send(
    request: {
      method: 'GET' | 'POST';
      url: string;
      headers?: Record<string, string>;
      body?: string;
    } & RequestLimits,
  ): Promise<RawAnswer> {
    const host = new URL(request.url).host.toLowerCase();
    await this.turnOf(host);
    const headers = { 'user-agent': this.userAgent, ...request.headers };
    const maxBytes = this.maxBytesOf(headerIn(headers, 'accept') ?? 'application/json', request);
    return this.exchange(this.targetOf(request.url), request.method, headers, request.body, () => true, maxBytes);
  }

  /** A source's GET or POST, its answer read as the sources read it: 2xx bodies, 304, 429's wait, the rest a failure. */
  private async request(
    target: URL,
    headers: Record<string, string>,
    body: string | undefined,
    maxBytes: number,
  ): Promise<FetchAnswer | { retryAfterMs: number }> {
    const method = body === undefined ? 'GET' : 'POST';
    const answer = await this.exchange(target, method, headers, body, isSuccess, maxBytes);
    const statusCode = answer.status;
    if (statusCode === 429) return { retryAfterMs: retryAfterMsOf(answer.headers['retry-after']) };
    if (statusCode === 304) return { status: 'not-modified' };
    if (!isSuccess(statusCode)) {
      const location = statusCode >= 300 && statusCode < 400 ? (answer.headers.location ?? null) : null;
      return {
        status: 'failed',
        statusCode,
        error: `${target.host} answered ${statusCode}`,
        ...(location ? { location } : {}),
      };
    }
    return {
      status: 'ok',
      body: answer.body,
      validators: { etag: answer.headers.etag ?? null, lastModified: answer.headers['last-modified'] ?? null },
    };
  }

  /**
   * One HTTP exchange through the guarded agents, the body read when `readBody` says, and cut
   * off by whichever comes first: no byte for SOURCES_TIMEOUT_MS, the whole exchange past
   * SOURCES_DEADLINE_MS, an answer averaging less than SOURCES_MIN_BYTES_PER_SECOND once
   * SOURCES_MIN_RATE_GRACE_MS have passed since its headers, more than `maxBytes`, or the
   * item attempt's cancellation (its activity timed out), which closes the socket at once.
   */
  private exchange(
    target: URL,
    method: 'GET' | 'POST',
    headers: Record<string, string>,
    body: string | undefined,
    readBody: (status: number) => boolean,
    maxBytes: number,
  ): Promise<RawAnswer> {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return Promise.reject(new Error('not an http(s) URL'));
    const cancelled = attemptSignal();
    if (cancelled?.aborted) return Promise.reject(new AttemptCancelled(cancelled.reason));
    const send = target.protocol === 'https:' ? https.request : http.request;
    const { SOURCES_DEADLINE_MS: deadlineMs, SOURCES_MIN_BYTES_PER_SECOND: minRate } = this.config;
    const graceMs = this.config.SOURCES_MIN_RATE_GRACE_MS;
    return new Promise<RawAnswer>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      const settle = () => {
        timers.forEach(clearTimeout);
        cancelled?.removeEventListener('abort', cancel);
      };
      const req = send(
        target,
        {
          method,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: this.agentFor(target),
          timeout: this.config.SOURCES_TIMEOUT_MS,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const answerHeaders = Object.fromEntries(
            Object.entries(res.headers).map(([name, value]) => [name, headerText(value) ?? undefined]),
          );
          if (!readBody(status)) {
            res.resume();
            settle();
            resolve({ status, headers: answerHeaders, body: '' });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const headersAt = Date.now();
          if (minRate > 0) {
            const check = () => {
              const seconds = (Date.now() - headersAt) / 1000;
              if (size / seconds < minRate)
                req.destroy(
                  new AnswerTooSlow(
                    `the answer came slower than ${minRate} bytes/s (${size} bytes in ${Math.round(seconds)} s)`,
                  ),
                );
              else timers.push(setTimeout(check, 1000));
            };
            timers.push(setTimeout(check, graceMs));
          }
          // An HTML page is cut at the cap, not refused: its head and first screens are what is read.
          const cutsAtCap = /html/i.test(answerHeaders['content-type'] ?? '');
          let cut = false;
          // The bytes become text here, once, in the charset the answer declares (text-decoding.ts).
          const bodyText = () => decodedText(Buffer.concat(chunks), answerHeaders['content-type']);
          res.on('data', (chunk: Buffer) => {
            if (cut) return;
            if (size + chunk.length > maxBytes && cutsAtCap) {
              cut = true;
              chunks.push(chunk.subarray(0, maxBytes - size));
              settle();
              resolve({ status, headers: answerHeaders, body: bodyText() });
              res.destroy();
              return;
            }
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy(new Error(`the answer is larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            settle();
            resolve({ status, headers: answerHeaders, body: bodyText() });
          });
          res.on('error', (err) => {
            settle();
            reject(err);
          });
        },
      );
      const cancel = () => req.destroy(new AttemptCancelled(cancelled?.reason));
      cancelled?.addEventListener('abort', cancel, { once: true });
      timers.push(
        setTimeout(
          () => req.destroy(new AnswerTooSlow(`no complete answer within ${deadlineMs / 1000} s`)),
          deadlineMs,
        ),
      );
      req.on('timeout', () => req.destroy(new NoAnswerInTime(this.config.SOURCES_TIMEOUT_MS)));
      req.on('error', (err) => {
        settle();
        reject(err);
      });
      req.end(body);
    });
  }
}

/** An answer as it came: status, headers (one value each), body. */
export interface RawAnswer {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** A request header's value whatever the caller's case. */
const headerIn = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** Retry-After in seconds or as an HTTP date, kept within [1 s, 1 h]. */
export function retryAfterMsOf(value: string | string[] | undefined): number {
  const text = headerText(value)?.trim();
  let ms = DEFAULT_RETRY_AFTER_MS;
  if (text && /^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text && !Number.isNaN(Date.parse(text))) ms = Date.parse(text) - Date.now();
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(1000, ms));
}
