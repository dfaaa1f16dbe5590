import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a stand-in answers for one path: a JSON body (with an ETag), a document of another type
 * (with an ETag or a Last-Modified), a status, or a hold until released.
 */
export type VendorAnswer =
  | { json: unknown; etag?: string }
  | { text: string; contentType: string; etag?: string; lastModified?: string }
  /** A body of bytes is sent as it is (a document in another charset). */
  | { status: number; headers?: Record<string, string>; body?: string | Buffer }
  | { hold: Promise<void> };

export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

/**
 * A vendor's API on 127.0.0.1, answering per path (path and query) as the test sets it; an
 * unknown path is a 404, as the vendors answer an unknown board. Honours If-None-Match and If-Modified-Since.
 */
export interface VendorServer {
  origin: string;
  requests: SeenRequest[];
  /**
   * A function answers each request in turn (e.g. a 429 first, then the board). A path ending
   * in `*` answers every path it begins (a search whose query carries the time of the request).
   */
  answer(path: string, answer: VendorAnswer | (() => VendorAnswer)): void;
  close(): Promise<void>;
}

export async function startVendor(): Promise<VendorServer> {
  const answers = new Map<string, VendorAnswer | (() => VendorAnswer)>();
  const requests: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, at: Date.now() });
    const answerOf = () =>
      answers.get(path) ??
      [...answers.entries()].find(([key]) => key.endsWith('*') && path.startsWith(key.slice(0, -1)))?.[1];
    const entry = answerOf();
    let answer = typeof entry === 'function' ? entry() : entry;
    while (answer && 'hold' in answer) {
      await answer.hold;
      const next = answerOf();
      answer = typeof next === 'function' ? next() : next;
    }
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"Job not found"}');
    } else if ('json' in answer) {
      if (answer.etag && req.headers['if-none-match'] === answer.etag) {
        res.writeHead(304, { etag: answer.etag }).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', ...(answer.etag ? { etag: answer.etag } : {}) })
        .end(JSON.stringify(answer.json));
    } else if ('text' in answer) {
      const validators = {
        ...(answer.etag ? { etag: answer.etag } : {}),
        ...(answer.lastModified ? { 'last-modified': answer.lastModified } : {}),
      };
      const unchanged =
        (answer.etag && req.headers['if-none-match'] === answer.etag) ||
        (answer.lastModified && req.headers['if-modified-since'] === answer.lastModified);
      if (unchanged) {
        res.writeHead(304, validators).end();
        return;
      }
      res.writeHead(200, { 'content-type': answer.contentType, ...validators }).end(answer.text);
    } else {
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    answer: (path, answer) => answers.set(path, answer),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
