import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stand-ins of the UK and US award publishers on 127.0.0.1, answering in their documented formats:
 *  - Find a Tender (`GET /api/1.0/ocdsReleasePackages`) and Contracts Finder
 *    (`GET /Published/Notices/OCDS/Search`): an OCDS release package `{uri, version,
 *    publishedDate, publisher, license, releases, links}`, `limit` releases a page, the next
 *    page's `links.next` a full URL on the real host carrying an opaque `cursor` (base64, so
 *    `+`, `/` and `=` must survive the round trip), absent on the last page;
 *  - USAspending (`POST /api/v2/search/spending_by_award/`): `{limit, results, page_metadata:
 *    {page, hasNext}, messages}` for the JSON body's `page` and `limit`.
 * Any other path answers 404 as the vendors do; `once` queues another answer (a 429, a broken
 * document, a hold) for the next request.
 */
export interface PublisherServer {
  origin: string;
  requests: {
    path: string;
    query: URLSearchParams;
    body: Record<string, unknown> | null;
    headers: http.IncomingHttpHeaders;
    at: number;
  }[];
  /** What the publisher lists (releases or award rows), served in this order. */
  items: Record<string, unknown>[];
  once(answer: OnceAnswer): void;
  close(): Promise<void>;
}

/** `as-usual` lets one request through before the next queued answer. */
export type OnceAnswer =
  { status: number; headers?: Record<string, string>; body: string } | { hold: Promise<void> } | 'as-usual';

export type Publisher = 'ocds' | 'usaspending';

export async function startPublisher(kind: Publisher, path: string, realOrigin: string): Promise<PublisherServer> {
  const items: Record<string, unknown>[] = [];
  const queued: OnceAnswer[] = [];
  const requests: PublisherServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      let body: Record<string, unknown> | null = null;
      if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"detail":"Malformed JSON"}');
          return;
        }
      }
      requests.push({ path: url.pathname, query: url.searchParams, body, headers: req.headers, at: Date.now() });
      if (url.pathname !== path || req.method !== (kind === 'ocds' ? 'GET' : 'POST')) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Page not found</h1></body></html>');
        return;
      }
      const override = queued.shift();
      if (override === 'as-usual' || !override) {
        // answered below
      } else if ('hold' in override) await override.hold;
      else {
        res.writeHead(override.status, override.headers ?? {}).end(override.body);
        return;
      }
      const answer = kind === 'ocds' ? ocdsPage(url, items, realOrigin) : usaspendingPage(body ?? {}, items);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    items,
    once: (answer) => queued.push(answer),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An opaque cursor, as the publishers give: base64 with its `+`, `/` and `=`. */
const cursorAt = (offset: number) => Buffer.from(`>>offset?${offset}~~`).toString('base64');
const offsetOf = (cursor: string | null) =>
  cursor ? Number(/\?(\d+)~~/.exec(Buffer.from(cursor, 'base64').toString('utf8'))?.[1] ?? 0) : 0;

function ocdsPage(url: URL, releases: Record<string, unknown>[], realOrigin: string) {
  const limit = Number(url.searchParams.get('limit') ?? 100);
  const offset = offsetOf(url.searchParams.get('cursor'));
  const page = releases.slice(offset, offset + limit);
  const next = new URL(url.pathname + url.search, realOrigin);
  next.searchParams.set('cursor', cursorAt(offset + limit));
  return {
    uri: new URL(url.pathname + url.search, realOrigin).toString(),
    version: '1.1',
    publishedDate: new Date().toISOString(),
    publisher: { name: 'Cabinet Office' },
    license: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
    releases: page,
    ...(offset + limit < releases.length ? { links: { next: next.toString() } } : { links: {} }),
  };
}

function usaspendingPage(body: Record<string, unknown>, rows: Record<string, unknown>[]) {
  const page = Number(body.page ?? 1);
  const limit = Number(body.limit ?? 10);
  return {
    limit,
    results: rows.slice((page - 1) * limit, page * limit).map((row, i) => ({ internal_id: 9000 + i, ...row })),
    page_metadata: {
      page,
      hasNext: page * limit < rows.length,
      last_record_unique_id: null,
      last_record_sort_value: null,
    },
    messages: [
      'For searches, time period start and end dates are currently limited to an earliest date of 2007-10-01.',
    ],
  };
}

export interface PartyFixture {
  id?: string;
  name?: string | null;
  identifier?: Record<string, unknown> | null;
  additionalIdentifiers?: Record<string, unknown>[];
  roles: string[];
  address?: Record<string, unknown>;
  contactPoint?: Record<string, unknown>;
}

export interface AwardReleaseFixture {
  ocid: string;
  id: string;
  date: string;
  title?: string;
  buyer?: { id: string; name?: string };
  parties: PartyFixture[];
  awards: Record<string, unknown>[];
  contracts?: Record<string, unknown>[];
  tag?: string[];
}

/** An award-stage OCDS release as the UK publishers write them (fields they send beyond the schema's examples too). */
export function awardRelease(f: AwardReleaseFixture): Record<string, unknown> {
  return {
    ocid: f.ocid,
    id: f.id,
    date: f.date,
    language: 'en',
    tag: f.tag ?? ['award'],
    initiationType: 'tender',
    tender: { id: `T-${f.id}`, title: f.title ?? null, status: 'complete', mainProcurementCategory: 'services' },
    ...(f.buyer ? { buyer: f.buyer } : {}),
    parties: f.parties,
    awards: f.awards,
    ...(f.contracts ? { contracts: f.contracts } : {}),
  };
}
