import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that a fake vendor builds on: it records every request
 * exactly as received, answers from a programmable failure queue first (as a vendor's rate
 * limiter or outage would, whatever the credentials), then from the vendor's handler.
 */
export interface ReceivedRequest {
  method: string;
  /** Path under the vendor's base path, decoded per segment, e.g. `/campaigns/c1/leads/a@b.com`; '' outside it. */
  path: string;
  /** The request target exactly as sent, query string included. */
  rawUrl: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
}

export interface VendorAnswer {
  status: number;
  /** Objects are sent as JSON, strings as text. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FailureOptions {
  /** Sent as the `Retry-After` header. */
  retryAfter?: string | number;
  body?: unknown;
  /** Extra response headers, e.g. `location` for a 3xx. */
  headers?: Record<string, string>;
  /** How many consecutive calls answer this failure (default 1). */
  times?: number;
}

export interface VendorServer {
  /** The base URL to give an adapter, base path included (e.g. `http://127.0.0.1:1234/api/v2`). */
  url: string;
  received: ReceivedRequest[];
  failNext(status: number, options?: FailureOptions): void;
  /** The next call is answered only after `ms` (to exercise the adapter's time-out). */
  stallNext(ms: number): void;
  close(): Promise<void>;
}

export interface VendorServerOptions {
  basePath: string;
  handle(request: ReceivedRequest): VendorAnswer;
  /** The body a queued failure answers when the test gives none: the vendor's error shape. */
  failureBody(status: number, request: ReceivedRequest): unknown;
}

export async function startVendorServer(options: VendorServerOptions): Promise<VendorServer> {
  const received: ReceivedRequest[] = [];
  const failures: { status: number; options: FailureOptions }[] = [];
  const stalls: number[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = describe(req, Buffer.concat(chunks).toString('utf8'), options.basePath);
      received.push(request);
      const answer = () => send(res, answerFor(request));
      const stall = stalls.shift();
      if (stall === undefined) answer();
      else setTimeout(answer, stall);
    });
  });

  function answerFor(request: ReceivedRequest): VendorAnswer {
    const failure = failures.shift();
    if (failure) {
      const headers: Record<string, string> = { ...failure.options.headers };
      if (failure.options.retryAfter !== undefined) headers['retry-after'] = String(failure.options.retryAfter);
      return {
        status: failure.status,
        headers,
        body: failure.options.body ?? options.failureBody(failure.status, request),
      };
    }
    if (request.path === '') return { status: 404, body: 'Not Found' };
    return options.handle(request);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${options.basePath}`,
    received,
    failNext(status, failureOptions = {}) {
      for (let i = 0; i < (failureOptions.times ?? 1); i++) failures.push({ status, options: failureOptions });
    },
    stallNext(ms) {
      stalls.push(ms);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function describe(req: http.IncomingMessage, rawBody: string, basePath: string): ReceivedRequest {
  const url = new URL(req.url ?? '/', 'http://vendor.test');
  // Outside the vendor's base path → '' (answered 404), as a wrong base URL would be.
  const underBase = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : '';
  let body: unknown;
  try {
    body = rawBody ? JSON.parse(rawBody) : undefined;
  } catch {
    body = undefined;
  }
  return {
    method: req.method ?? 'GET',
    path: underBase.split('/').map(decodeURIComponent).join('/'),
    rawUrl: req.url ?? '/',
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    rawBody,
    body,
  };
}

function send(res: http.ServerResponse, answer: VendorAnswer): void {
  const isText = typeof answer.body === 'string';
  const payload = answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...(payload ? { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8' } : {}),
    ...answer.headers,
  });
  res.end(payload);
}

/** True when the request carried a JSON body that did not parse: vendors answer 400. */
export function hasMalformedJson(request: ReceivedRequest): boolean {
  return request.rawBody !== '' && request.body === undefined;
}
