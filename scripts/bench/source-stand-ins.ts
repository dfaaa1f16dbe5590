/**
 * Local stand-ins of the job-board platforms for the sources section: one HTTP server per real
 * host (SOURCES_HOST_MAP sends the host there), answering each board in the platform's
 * documented format (the shapes of test/sources/board-fixtures.ts) with an ETag, a 304 to a
 * matching If-None-Match, and a log of when each request arrived, per real host.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ashbyBoard, ashbyJob, greenhouseBoard, greenhouseJob, leverPosting } from '../../test/sources/board-fixtures';

const DAY_MS = 86_400_000;
const LOCATIONS = ['Paris, France', 'Berlin, Germany', 'Austin, TX', 'London, UK', 'Remote'];
const TITLES = ['Senior Data Engineer', 'Account Executive', 'Product Designer', 'Site Reliability Engineer'];

interface Platform {
  host: string;
  /** The board token in a request path, or undefined for any other path (a 404, as the vendors answer). */
  tokenOf(path: string): string | undefined;
  document(token: string, postings: readonly Posting[]): unknown;
}

interface Posting {
  id: number;
  title: string;
  location: string;
  at: number;
}

const PLATFORMS: Record<string, Platform> = {
  greenhouse: {
    host: 'boards-api.greenhouse.io',
    tokenOf: (path) => /^\/v1\/boards\/([^/?]+)\/jobs\?content=true$/.exec(path)?.[1],
    document: (_token, postings) =>
      greenhouseBoard(postings.map((p) => greenhouseJob(p.id, p.title, p.location, new Date(p.at).toISOString()))),
  },
  lever: {
    host: 'api.lever.co',
    tokenOf: (path) => /^\/v0\/postings\/([^/?]+)\?mode=json$/.exec(path)?.[1],
    document: (token, postings) => postings.map((p) => leverPosting(`${token}-${p.id}`, p.title, p.location, p.at)),
  },
  ashby: {
    host: 'api.ashbyhq.com',
    tokenOf: (path) => /^\/posting-api\/job-board\/([^/?]+)$/.exec(path)?.[1],
    document: (token, postings) => ashbyBoard(postings.map((p) => ashbyJob(`${token}-${p.id}`, p.title, p.location))),
  },
};

/** Which platform the n-th board is on: half Greenhouse, 30 % Lever, 20 % Ashby. */
export function platformOf(n: number): string {
  const tenth = n % 10;
  return tenth < 5 ? 'greenhouse' : tenth < 8 ? 'lever' : 'ashby';
}

export const boardToken = (n: number) => `bench-${String(n).padStart(6, '0')}`;

/** Open postings of board n: 3 to 10, published a month or more ago (no recruitment campaign on a first poll). */
function postingsOf(n: number, added: number, now: number): Posting[] {
  const count = 3 + (n % 8);
  const postings: Posting[] = [];
  for (let k = 0; k < count + added; k++) {
    postings.push({
      id: n * 100 + k,
      title: TITLES[(n + k) % TITLES.length]!,
      location: LOCATIONS[(n + k) % LOCATIONS.length]!,
      at: k < count ? now - (30 + k) * DAY_MS : now - 3_600_000,
    });
  }
  return postings;
}

export interface BoardStandIns {
  /** `SOURCES_HOST_MAP`: every real host to its stand-in. */
  hostMap: string;
  /** Arrival times (ms, monotonic) of every request, by real host. */
  requests: Map<string, number[]>;
  /** Board n gains a new posting (published an hour ago) from now on; its ETag changes. */
  addPosting(n: number): void;
  close(): Promise<void>;
}

export async function startBoardStandIns(): Promise<BoardStandIns> {
  const now = Date.now();
  const added = new Map<number, number>();
  const requests = new Map<string, number[]>();
  const servers = await Promise.all(
    Object.values(PLATFORMS).map(async (platform) => {
      const log: number[] = [];
      requests.set(platform.host, log);
      const server = http.createServer((req, res) => {
        log.push(performance.now());
        const token = platform.tokenOf(req.url ?? '/');
        const n = token?.startsWith('bench-') ? Number(token.slice('bench-'.length)) : NaN;
        if (!token || !Number.isInteger(n)) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"Job not found"}');
          return;
        }
        const extra = added.get(n) ?? 0;
        const etag = `"${token}-v${extra}"`;
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag }).end();
          return;
        }
        const body = JSON.stringify(platform.document(token, postingsOf(n, extra, now)));
        res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
      });
      server.keepAliveTimeout = 60_000;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return { host: platform.host, origin: `http://127.0.0.1:${port}`, server };
    }),
  );
  return {
    hostMap: servers.map((s) => `${s.host}=${s.origin}`).join(','),
    requests,
    addPosting: (n) => added.set(n, (added.get(n) ?? 0) + 1),
    close: async () => {
      await Promise.all(
        servers.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** The real host each platform's boards are read from. */
export const hostOf = (ats: string) => PLATFORMS[ats]!.host;

/** The n-th watched company's site, whose homepage the company-profiles source reads. */
export const siteDomain = (n: number) => `boardco${n}.com`;

const HOMEPAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Board Company | Tools for builders</title>
<meta name="description" content="We build developer tools for data teams.">
<script src="https://www.googletagmanager.com/gtm.js?id=GTM-BENCH" async></script>
</head><body><header><a href="/careers">Careers</a> <a href="/about">About</a></header>
<main><h1>Tools for builders</h1><p>Our platform helps data teams ship.</p></main></body></html>`;
const CAREERS = `<!doctype html><html lang="en"><head><title>Careers | Board Company</title>
<meta name="description" content="Join us."></head><body><h1>Open roles</h1><p>We are hiring engineers.</p></body></html>`;

export interface SiteStandIn {
  origin: string;
  /** Arrival times (ms, monotonic) of every request. */
  arrivals: number[];
  close(): Promise<void>;
}

/**
 * Every company's site on one local server (SOURCES_HOST_MAP maps each domain to it): an open
 * robots.txt, a homepage with a title, a description, a tag manager and a careers link, and
 * the careers page; ETags on the pages.
 */
export async function startSiteStandIn(): Promise<SiteStandIn> {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    const page = req.url === '/' ? HOMEPAGE : req.url === '/careers' ? CAREERS : undefined;
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    } else if (!page) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not Found</h1>');
    } else if (req.headers['if-none-match'] === `"${req.url}-v1"`) {
      res.writeHead(304, { etag: `"${req.url}-v1"` }).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: `"${req.url}-v1"` }).end(page);
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface EdgarStandIn {
  origin: string;
  /** Arrival times (performance.now()) of every request. */
  arrivals: number[];
  /** The day whose daily form index lists the tender offers. */
  day: string;
  close(): Promise<void>;
}

/**
 * EDGAR for the sec-filings source: empty current feeds, one daily form index (`form.idx`)
 * listing `filings` tender offers (SC TO-T) of distinct targets, and each filing's `.hdr.sgml`
 * naming its subject company and bidder, in EDGAR's formats (docs/sources/sec-filings.md).
 */
export async function startEdgarStandIn(filings: number, day: string): Promise<EdgarStandIn> {
  const arrivals: number[] = [];
  const cik = (n: number) => String(1_800_000 + n).padStart(10, '0');
  const accession = (n: number) => `0001193125-26-${String(800_000 + n).padStart(6, '0')}`;
  const compact = day.replace(/-/g, '');
  const index = [
    'Description:           Daily Index of EDGAR Dissemination Feed by Form Type',
    `Last Data Received:    ${day}`,
    ' ',
    'Form Type   Company Name                                                  CIK         Date Filed  File Name',
    '-'.repeat(141),
    ...Array.from(
      { length: filings },
      (_, n) =>
        `${'SC TO-T'.padEnd(12)}${`TARGET ${n} INC`.padEnd(62)}${String(Number(cik(n))).padEnd(12)}${compact.padEnd(12)}edgar/data/${Number(cik(n))}/${accession(n)}.txt`,
    ),
    '',
  ].join('\n');
  const party = (tag: string, id: string, name: string) =>
    `<${tag}>\n<COMPANY-DATA>\n<CONFORMED-NAME>${name}\n<CIK>${id}\n</COMPANY-DATA>\n<BUSINESS-ADDRESS>\n<CITY>WILMINGTON\n<STATE>DE\n</BUSINESS-ADDRESS>\n</${tag}>`;
  const server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    const url = req.url ?? '/';
    const header = /\/Archives\/edgar\/data\/(\d+)\/\d+\/(\d{10}-\d{2}-(\d{6}))\.hdr\.sgml$/.exec(url);
    if (url.startsWith('/cgi-bin/browse-edgar?action=getcurrent')) {
      res
        .writeHead(200, { 'content-type': 'application/atom+xml' })
        .end(
          '<?xml version="1.0" encoding="ISO-8859-1" ?><feed xmlns="http://www.w3.org/2005/Atom"><title>Latest Filings</title></feed>',
        );
    } else if (url.endsWith(`/form.${compact}.idx`)) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(index);
    } else if (header) {
      const n = Number(header[3]) - 800_000;
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(
          [
            `<SEC-HEADER>${header[2]}.hdr.sgml : ${compact}`,
            `<TYPE>SC TO-T`,
            `<FILING-DATE>${compact}`,
            party('SUBJECT-COMPANY', cik(n), `TARGET ${n} INC`),
            party('FILED-BY', String(2_800_000 + n).padStart(10, '0'), `BIDDER ${n} CORP`),
            '</SEC-HEADER>',
            '',
          ].join('\n'),
        );
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrivals,
    day,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
