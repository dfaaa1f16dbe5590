/**
 * A webhook receiver as a customer writes one: reads the raw bytes, verifies the signature with
 * the key's webhook secret (refusing a bad one with 401, so a broken signature cannot pass
 * unnoticed), and answers 200. It notes when each lead first arrived, by `contact.lead_id`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { verifyWebhook } from '../../src/destinations/webhook/webhook-signature';

export interface BenchReceiver {
  url: string;
  /** performance.now() of each lead's first verified arrival. */
  readonly arrivals: Map<string, number>;
  readonly counts: { requests: number; verified: number; refused: number; duplicates: number };
  setSecret(secret: string): void;
  /** A URL of its own for one account's webhooks, verified with that account's secret. */
  urlFor(secret: string): string;
  /** Forgets what arrived so far (the next run counts from zero). */
  reset(): void;
  /** Resolves once `count` distinct leads arrived, or with what arrived by the deadline. */
  waitFor(count: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<BenchReceiver> {
  let secret = '';
  // Per-account paths (`urlFor`), each verified with its own account's secret.
  const secrets = new Map<string, string>();
  const arrivals = new Map<string, number>();
  const counts = { requests: 0, verified: 0, refused: 0, duplicates: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      counts.requests++;
      const rawBody = Buffer.concat(chunks);
      const check = verifyWebhook({
        secret: secrets.get(req.url ?? '') ?? secret,
        rawBody,
        signature: req.headers['x-webhook-signature'] as string | undefined,
        timestamp: req.headers['x-webhook-timestamp'] as string | undefined,
      });
      if (!check.ok) {
        counts.refused++;
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: check.reason }));
        return;
      }
      counts.verified++;
      let leadId: string | undefined;
      try {
        const body = JSON.parse(rawBody.toString('utf8')) as { contact?: { lead_id?: string } };
        leadId = typeof body.contact === 'object' ? body.contact?.lead_id : undefined;
      } catch {
        leadId = undefined;
      }
      // A payload without a contact (none in this bench) still counts, by its delivery id.
      const key = leadId ?? (req.headers['x-webhook-id'] as string | undefined) ?? `request-${counts.requests}`;
      if (arrivals.has(key)) counts.duplicates++;
      else arrivals.set(key, at);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  // Many short connections at once (the sender does not keep them alive).
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    arrivals,
    counts,
    setSecret(next) {
      secret = next;
    },
    urlFor(accountSecret) {
      const route = `/hooks/leads/${secrets.size + 1}`;
      secrets.set(route, accountSecret);
      return `http://127.0.0.1:${port}${route}`;
    },
    reset() {
      arrivals.clear();
      Object.assign(counts, { requests: 0, verified: 0, refused: 0, duplicates: 0 });
    },
    async waitFor(count, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (arrivals.size < count) {
        if (Date.now() > until) return false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
