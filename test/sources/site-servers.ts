import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeenRequest } from './vendors';

/** What a company's web server answers for one path: a page (with an ETag), a text file, or anything. */
export type SiteAnswer =
  | { html: string; etag?: string }
  | { text: string }
  | { status: number; headers?: Record<string, string>; body?: string };

export interface SiteServer {
  origin: string;
  requests: SeenRequest[];
  paths(): string[];
  answer(path: string, answer: SiteAnswer): void;
  close(): Promise<void>;
}

/** A company's site on 127.0.0.1: an unknown path is a 404 page, as web servers answer; honours If-None-Match. */
export async function startSite(): Promise<SiteServer> {
  const answers = new Map<string, SiteAnswer>();
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, at: Date.now() });
    const answer = answers.get(path);
    if (!answer) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not Found</h1>');
    } else if ('html' in answer) {
      if (answer.etag && req.headers['if-none-match'] === answer.etag) {
        res.writeHead(304, { etag: answer.etag }).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(answer.etag ? { etag: answer.etag } : {}) })
        .end(answer.html);
    } else if ('text' in answer) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer.text);
    } else {
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    paths: () => requests.map((request) => request.path),
    answer: (path, answer) => answers.set(path, answer),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SOURCES_HOST_MAP pairs sending each domain and its `www.` to its site. */
export const siteHostMap = (sites: Record<string, SiteServer>) =>
  Object.entries(sites)
    .flatMap(([domain, site]) => [`${domain}=${site.origin}`, `www.${domain}=${site.origin}`])
    .join(',');
