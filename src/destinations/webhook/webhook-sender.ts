import http from 'node:http';
import https from 'node:https';
import type { DataSource } from 'typeorm';
import { execute } from '../../db/sql';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { Config } from '../../config';
import { classifyHttpStatus } from '../../providers/outbound-error';
import { webhookHeaders } from './webhook-signature';

export interface WebhookSend {
  deliveryId: string;
  /** 1 for the first attempt; recorded with the attempt. */
  attempt: number;
  url: string;
  /** The exact bytes to POST: the stored payload text, never re-serialised. */
  body: string;
  /** Null when the signal has no linked key: the send goes unsigned. */
  secret: string | null;
}

export type SendResult =
  | { outcome: 'ok'; statusCode: number; durationMs: number }
  | { outcome: 'retry'; statusCode: number | null; retryAfterMs?: number; error: string; durationMs: number }
  | { outcome: 'permanent'; statusCode: number | null; error: string; durationMs: number };

const USER_AGENT = 'intent-leads-webhooks/1';
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000, maxFreeSockets: 32 } as const;

/** A target refused for its address or form: retrying cannot change it. */
class RefusedTarget extends Error {}

/** request-filtering-agent's refusal, raised from inside the connection. */
const isAddressRefusal = (err: Error) => /is not allowed\. Because/.test(err.message);

/**
 * One webhook attempt, over Node's http/https so the agent decides where the socket may go.
 * When private targets are refused, request-filtering-agent checks the address the socket
 * actually dials (after DNS, so a name that passed the save-time check and now resolves to
 * 127.0.0.1 or the metadata address is still refused) and IP literals alike. Redirects are
 * never followed (a 3xx is a permanent failure), so a public URL cannot bounce the request
 * inward either.
 */
export class WebhookSender {
  // Keep-alive: a batch's leads are delivered to one receiver back to back, and a new TCP
  // (and TLS) connection per lead would cost more than the send. Idle sockets close within a
  // few seconds, before a receiver's usual keep-alive time-out (Node's is 5 s). The guarded
  // agent checks the address when a socket is made, so a reused one was checked already.
  private readonly agents = { http: new http.Agent(KEEP_ALIVE), https: new https.Agent(KEEP_ALIVE) };
  private readonly guardedAgents = {
    http: new RequestFilteringHttpAgent({ ...KEEP_ALIVE, allowPrivateIPAddress: false, allowMetaIPAddress: false }),
    https: new RequestFilteringHttpsAgent({ ...KEEP_ALIVE, allowPrivateIPAddress: false, allowMetaIPAddress: false }),
  };

  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<Config, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>,
  ) {}

  /** Sends once, records the attempt row, and answers the contract's classification. */
  async send(input: WebhookSend): Promise<SendResult> {
    const result = await this.sendUnrecorded(input);
    await execute(
      this.db,
      `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)`,
      [
        input.deliveryId,
        input.attempt,
        result.statusCode,
        result.durationMs,
        result.outcome === 'ok' ? null : result.error,
      ],
    );
    return result;
  }

  /** Sends once and answers the contract's classification; the delivery records the attempt with its new state. */
  async sendUnrecorded(input: WebhookSend): Promise<SendResult> {
    const started = Date.now();
    return this.post(input).then(
      (answer): SendResult => {
        const durationMs = Date.now() - started;
        const verdict = classifyHttpStatus(answer.statusCode, answer.retryAfter);
        if (verdict.outcome === 'ok') return { outcome: 'ok', statusCode: answer.statusCode, durationMs };
        if (verdict.outcome === 'permanent') {
          return {
            outcome: 'permanent',
            statusCode: answer.statusCode,
            error: `receiver answered ${answer.statusCode}`,
            durationMs,
          };
        }
        return {
          outcome: 'retry',
          statusCode: answer.statusCode,
          error: `receiver answered ${answer.statusCode}`,
          durationMs,
          ...(verdict.retryAfterSeconds !== undefined ? { retryAfterMs: verdict.retryAfterSeconds * 1000 } : {}),
        };
      },
      (err: Error): SendResult => {
        const durationMs = Date.now() - started;
        if (err instanceof RefusedTarget || isAddressRefusal(err)) {
          return { outcome: 'permanent', statusCode: null, error: `target refused: ${err.message}`, durationMs };
        }
        // Time-outs and network errors (refused, reset, DNS) back off: the receiver may come back.
        return { outcome: 'retry', statusCode: null, error: err.message, durationMs };
      },
    );
  }

  private post(input: WebhookSend): Promise<{ statusCode: number; retryAfter: string | undefined }> {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return Promise.reject(new RefusedTarget('target is not a valid URL'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new RefusedTarget('target is not an http(s) URL'));
    const agents = this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS ? this.agents : this.guardedAgents;
    const body = Buffer.from(input.body, 'utf8');
    // Recomputed at every attempt: receivers refuse timestamps older than their tolerance.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': USER_AGENT,
      ...webhookHeaders(input.secret, input.deliveryId, timestamp, body),
    };
    const timeoutMs = this.config.WEBHOOK_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        headers,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
      });
      // One budget for connect, headers and body: a receiver that trickles bytes still times out.
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      // `on`, not `once`: the timer may destroy the request after the answer came, and an
      // unheard 'error' would crash the worker.
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.once('response', (response) => {
        const retryAfter = response.headers['retry-after'];
        // The status decides; the body is read and dropped so the socket closes cleanly.
        response.resume();
        response.once('end', () => clearTimeout(timer));
        response.on('error', () => clearTimeout(timer));
        resolve({ statusCode: response.statusCode ?? 0, retryAfter });
      });
      request.end(body);
    });
  }
}
