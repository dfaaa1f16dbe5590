import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/destinations/webhook/webhook-signature';

export interface ReceivedRequest {
  at: number;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  /** Whether X-Webhook-Signature verified over the raw bytes with the receiver's current secret. */
  verified: boolean;
  status: number;
}

export interface ScriptStep {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A webhook receiver as a customer would write one: verifies the signature over the raw bytes,
 * records everything, and answers from a script (then 200 once the script is used up).
 */
export async function startReceiver(options: { secret?: string | null } = {}) {
  const requests: ReceivedRequest[] = [];
  const script: ScriptStep[] = [];
  let decide: ((body: any, headers: http.IncomingHttpHeaders) => ScriptStep | undefined) | null = null;
  let secret = options.secret ?? null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const step = decide?.(parsed, req.headers) ?? script.shift() ?? { status: 200 };
      const verified =
        secret !== null &&
        verifyWebhook({
          secret,
          rawBody,
          signature: req.headers['x-webhook-signature'] as string | undefined,
          timestamp: req.headers['x-webhook-timestamp'] as string | undefined,
        }).ok;
      requests.push({ at: Date.now(), headers: req.headers, rawBody, body: parsed, verified, status: step.status });
      const answer = () => {
        res.writeHead(step.status, { 'Content-Type': 'application/json', ...step.headers });
        res.end('{"ok":true}');
      };
      if (step.delayMs) setTimeout(answer, step.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    requests,
    /** Answers for the next requests, in order. */
    script(...steps: ScriptStep[]) {
      script.push(...steps);
    },
    /** Answers chosen per request (by lead, say), ahead of the script; undefined falls through to it. */
    answerWith(fn: ((body: any, headers: http.IncomingHttpHeaders) => ScriptStep | undefined) | null) {
      decide = fn;
    },
    /** Goes down: connections are refused until `comeBack`. */
    goDown: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    /** Listens again on the same port, so the saved webhook URL works again. */
    comeBack: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    setSecret(next: string | null) {
      secret = next;
    },
    async waitFor(count: number, timeoutMs = 30_000): Promise<ReceivedRequest[]> {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`receiver got ${requests.length} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
