import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for TED's Search API v3 (`POST /v3/notices/search`, docs.ted.europa.eu/api): it
 * reads the JSON body, answers the day its expert query asks for (`publication-date >=
 * YYYYMMDD`) and the page asked for, in the documented answer `{notices, totalNoticeCount,
 * iterationNextToken, timedOut}`. A day without notices answers an empty list, as TED does.
 */
export interface TedServer {
  origin: string;
  searches: {
    day: string;
    page: number;
    limit: number;
    body: Record<string, unknown>;
    headers: http.IncomingHttpHeaders;
  }[];
  /** The notices published on `day` (`YYYY-MM-DD`), served `limit` a page. */
  publish(day: string, notices: TedNoticeJson[]): void;
  /** Answers the next search of this day and page this way instead (once); `hold` answers as usual once released. */
  once(day: string, page: number, answer: OnceAnswer): void;
  close(): Promise<void>;
}

export type TedNoticeJson = Record<string, unknown>;
type OnceAnswer = { status: number; headers?: Record<string, string>; body: string } | { hold: Promise<void> };

export async function startTed(): Promise<TedServer> {
  const days = new Map<string, TedNoticeJson[]>();
  const overrides = new Map<string, OnceAnswer>();
  const searches: TedServer['searches'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v3/notices/search') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Malformed JSON request"}');
        return;
      }
      const compact = /publication-date >= (\d{8})/.exec(String(body.query))?.[1] ?? '';
      const day = `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;
      const page = Number(body.page ?? 1);
      const limit = Number(body.limit ?? 10);
      searches.push({ day, page, limit, body, headers: req.headers });
      const override = overrides.get(`${day}#${page}`);
      overrides.delete(`${day}#${page}`);
      if (override && 'hold' in override) await override.hold;
      else if (override) {
        res.writeHead(override.status, override.headers ?? {}).end(override.body);
        return;
      }
      const all = days.get(day) ?? [];
      const notices = all.slice((page - 1) * limit, page * limit);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ notices, totalNoticeCount: all.length, iterationNextToken: null, timedOut: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    searches,
    publish: (day, notices) => days.set(day, notices),
    once: (day, page, answer) => overrides.set(`${day}#${page}`, answer),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface AwardFixture {
  number: string;
  day: string;
  /** By language (ISO 639-2/B, as TED keys them). */
  title: Record<string, string>;
  buyer: Record<string, string[]>;
  value?: number;
  currency?: string;
  /** The winning tenderers in the notice's language; `winnerNameOnly` gives them as `winner-name` only. */
  winners: { lang: string; names: string[] };
  winnerNameOnly?: boolean;
  /** ISO 3166 alpha-3, as TED gives `winner-country`. */
  countries: string[];
}

/** A result notice in the shape the Search API answers the fields the ted source asks for. */
export function awardNotice(f: AwardFixture): TedNoticeJson {
  const names = { [f.winners.lang]: f.winners.names };
  return {
    'publication-number': f.number,
    'publication-date': `${f.day}+01:00`,
    'notice-title': f.title,
    'buyer-name': f.buyer,
    ...(f.value !== undefined ? { 'total-value': f.value, 'total-value-cur': [f.currency ?? 'EUR'] } : {}),
    ...(f.winnerNameOnly ? {} : { 'organisation-name-tenderer': names }),
    'winner-name': names,
    'winner-country': f.countries,
    links: {
      html: { ENG: `https://ted.europa.eu/en/notice/${f.number}/html` },
      pdf: { ENG: `https://ted.europa.eu/en/notice/${f.number}/pdf` },
      xml: { MUL: `https://ted.europa.eu/en/notice/${f.number}/xml` },
    },
  };
}
