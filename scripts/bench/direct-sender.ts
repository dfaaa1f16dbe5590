/**
 * Ceiling (a) of the pipeline, in a process of its own as the worker is: the same lead payloads,
 * signed as the service signs them (`webhookHeaders`), POSTed straight to the receiver over
 * Node's http without keep-alive (as the service's sender does), `concurrency` at a time.
 *
 * Started by the bench with IPC; gets `{ url, secret, payloadsFile, concurrency }`, answers
 * `{ sent, failed, elapsedMs }`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { webhookHeaders } from '../../src/destinations/webhook/webhook-signature';

interface Job {
  url: string;
  secret: string;
  payloadsFile: string;
  concurrency: number;
}

const agent = new http.Agent({ keepAlive: false });

function post(url: URL, body: Buffer, secret: string): Promise<number> {
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    'User-Agent': 'intent-leads-bench/1',
    ...webhookHeaders(secret, randomUUID(), Math.floor(Date.now() / 1000), body),
  };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, agent });
    request.on('error', reject);
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.end(body);
  });
}

async function run(job: Job): Promise<{ sent: number; failed: number; elapsedMs: number }> {
  const payloads = (JSON.parse(readFileSync(job.payloadsFile, 'utf8')) as string[]).map((text) =>
    Buffer.from(text, 'utf8'),
  );
  const url = new URL(job.url);
  let next = 0;
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < payloads.length) {
      const body = payloads[next++] as Buffer;
      try {
        const status = await post(url, body, job.secret);
        if (status >= 200 && status < 300) sent++;
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(job.concurrency, payloads.length) }, lane));
  return { sent, failed, elapsedMs: performance.now() - started };
}

process.once('message', (job: Job) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: Error) => {
      console.error(err);
      process.exit(1);
    },
  );
});
