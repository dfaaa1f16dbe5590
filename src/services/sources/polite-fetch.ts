import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { Config } from '../../config';
import { HOST_INTERVALS_MS, HostPacing } from './host-pacing';
import { NoAnswerInTime, unreachableLine } from './fetch-problems';
import { execute, firstRow } from '../../db/sql';

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
      Config,
      | 'SOURCES_CONTACT_EMAIL'
      | 'SOURCES_HOST_MAP'
      | 'SOURCES_HOST_INTERVAL_MS'
      | 'SOURCES_TIMEOUT_MS'
      | 'SOURCES_MAX_RESPONSE_BYTES'
      | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'
    >,
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
  async get(url: string, accept = 'application/json', extraHeaders: Record<string, string> = {}): Promise<FetchAnswer> {
    const known = await firstRow<{ etag: string | null; last_modified: string | null }>(
      this.db,
      `SELECT etag, last_modified FROM source_http_validators WHERE url = $1`,
      [url],
    );
    const headers: Record<string, string> = { ...extraHeaders, 'user-agent': this.userAgent, accept };
    if (known?.etag) headers['if-none-match'] = known.etag;
    if (known?.last_modified) headers['if-modified-since'] = known.last_modified;
    return this.paced(url, headers);
  }

  /**
   * POSTs a JSON `body` to `url` once its host's turn has come, for a search API that takes its
   * query in the body (TED). Nothing is conditional; 429 and every other rule are as for GET.
   */
  async post(url: string, body: string, accept = 'application/json'): Promise<FetchAnswer> {
    return this.paced(url, { 'user-agent': this.userAgent, accept, 'content-type': 'application/json' }, body);
  }

  /** A request once its host's turn has come; a 429 holds every worker off the host and throws. */
  private async paced(url: string, headers: Record<string, string>, body?: string): Promise<FetchAnswer> {
    const host = new URL(url).host.toLowerCase();
    const wait = await this.pacing.claim(host, this.intervalOf(host));
    if (wait > 0) await sleep(wait);
    const answer = await this.request(this.targetOf(url), headers, body).catch((err: Error): FetchAnswer => ({
      status: 'failed',
      // Without internet the status says so in one line naming the real host (fetch-problems.ts).
      error: unreachableLine(host, err) ?? err.message,
      statusCode: null,
    }));
    if ('retryAfterMs' in answer) {
      await this.pacing.holdOff(host, answer.retryAfterMs);
      throw new SourceThrottled(host, answer.retryAfterMs);
    }
    return answer;
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
  async send(request: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    body?: string;
  }): Promise<RawAnswer> {
    const host = new URL(request.url).host.toLowerCase();
    const wait = await this.pacing.claim(host, this.intervalOf(host));
    if (wait > 0) await sleep(wait);
    const headers = { 'user-agent': this.userAgent, ...request.headers };
    return this.exchange(this.targetOf(request.url), request.method, headers, request.body, () => true);
  }

  /** A source's GET or POST, its answer read as the sources read it: 2xx bodies, 304, 429's wait, the rest a failure. */
  private async request(
    target: URL,
    headers: Record<string, string>,
    body?: string,
  ): Promise<FetchAnswer | { retryAfterMs: number }> {
    const answer = await this.exchange(target, body === undefined ? 'GET' : 'POST', headers, body, isSuccess);
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

  /** One HTTP exchange through the guarded agents, with the time-out and the size cap; the body is read when `readBody` says. */
  private exchange(
    target: URL,
    method: 'GET' | 'POST',
    headers: Record<string, string>,
    body: string | undefined,
    readBody: (status: number) => boolean,
  ): Promise<RawAnswer> {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return Promise.reject(new Error('not an http(s) URL'));
    const send = target.protocol === 'https:' ? https.request : http.request;
    const cap = this.config.SOURCES_MAX_RESPONSE_BYTES;
    return new Promise((resolve, reject) => {
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
            resolve({ status, headers: answerHeaders, body: '' });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > cap) {
              req.destroy(new Error(`the answer is larger than ${cap} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new NoAnswerInTime(this.config.SOURCES_TIMEOUT_MS)));
      req.on('error', reject);
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

/** Retry-After in seconds or as an HTTP date, kept within [1 s, 1 h]. */
export function retryAfterMsOf(value: string | string[] | undefined): number {
  const text = headerText(value)?.trim();
  let ms = DEFAULT_RETRY_AFTER_MS;
  if (text && /^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text && !Number.isNaN(Date.parse(text))) ms = Date.parse(text) - Date.now();
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(1000, ms));
}
