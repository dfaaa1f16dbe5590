import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Companies House's documents as its developer specifications describe them: the streaming
 * API's envelope (`resource_kind`, `resource_uri`, `resource_id`, `data`, `event` {`timepoint`,
 * `published_at`, `type`}) around an officer appointment, a company profile, and a filing
 * history list with its SH01 items.
 */

export interface AppointmentFixture {
  timepoint: number;
  number: string;
  appointmentId: string;
  name: string;
  role: string;
  appointedOn: string;
  resignedOn?: string;
  type?: 'changed' | 'deleted';
}

export function officerEvent(a: AppointmentFixture): string {
  return JSON.stringify({
    resource_kind: 'company-officers',
    resource_uri: `/company/${a.number}/appointments/${a.appointmentId}`,
    resource_id: a.appointmentId,
    data: {
      address: { address_line_1: '1 High Street', locality: 'LONDON', postal_code: 'EC1A 1AA', country: 'England' },
      appointed_on: a.appointedOn,
      ...(a.resignedOn ? { resigned_on: a.resignedOn } : {}),
      country_of_residence: 'England',
      date_of_birth: { month: 4, year: 1980 },
      name: a.name,
      nationality: 'British',
      occupation: 'Company Director',
      officer_role: a.role,
      links: { self: `/company/${a.number}/appointments/${a.appointmentId}` },
    },
    event: { timepoint: a.timepoint, published_at: '2026-11-26T10:00:00', type: a.type ?? 'changed' },
  });
}

export const companyProfile = (number: string, name: string) => ({
  company_name: name,
  company_number: number,
  company_status: 'active',
  type: 'ltd',
  date_of_creation: '2019-03-04',
  jurisdiction: 'england-wales',
  registered_office_address: { address_line_1: '1 High Street', locality: 'London', postal_code: 'EC1A 1AA' },
  sic_codes: ['62012'],
  links: { self: `/company/${number}` },
});

export const allotment = (transactionId: string, number: string, date: string, capital: object[]) => ({
  category: 'capital',
  date,
  description: 'capital-allotment-shares',
  description_values: { capital, date },
  links: { self: `/company/${number}/filing-history/${transactionId}` },
  pages: 3,
  barcode: 'X1AB2CDE',
  transaction_id: transactionId,
  type: 'SH01',
});

/** The incorporation, with its statement of capital filed alongside as an SH01 (no allotment). */
export const incorporation = (transactionId: string, number: string, date: string) => ({
  category: 'incorporation',
  date,
  description: 'incorporation-company',
  associated_filings: [
    {
      category: 'capital',
      date,
      description: 'statement-of-capital',
      description_values: { capital: [{ currency: 'GBP', figure: '100' }], date },
      type: 'SH01',
    },
  ],
  links: { self: `/company/${number}/filing-history/${transactionId}` },
  transaction_id: transactionId,
  type: 'NEWINC',
});

export const filingHistory = (items: object[]) => ({
  etag: 'e1',
  filing_history_status: 'filing-history-available',
  items,
  items_per_page: 100,
  kind: 'filing-history',
  start_index: 0,
  total_count: items.length,
});

/** What one connection to the stream gets: lines, then the server closes it or keeps it open with heartbeats. */
export interface StreamPlay {
  lines: string[];
  then: 'close' | 'hold';
  /** An answer other than 200 (401, 416, 429), instead of the stream. */
  status?: number;
  headers?: Record<string, string>;
}

export interface StreamServer {
  origin: string;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  /** The next connections' plays, in turn. */
  plays: StreamPlay[];
  close(): Promise<void>;
}

/** The streaming API on 127.0.0.1: newline-delimited JSON, blank heartbeat lines, a disconnect when told. */
export async function startStreamServer(): Promise<StreamServer> {
  const requests: StreamServer['requests'] = [];
  const plays: StreamPlay[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const play = plays.shift() ?? { lines: [], then: 'hold' };
    if (play.status) {
      res.writeHead(play.status, play.headers ?? {}).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const line of play.lines) res.write(`${line}\n`);
    if (play.then === 'close') {
      // A disconnect mid-line: the last event is cut off.
      res.write('{"resource_kind":"company-officers","resource_uri":"/company/0');
      res.socket?.end();
      return;
    }
    const beat = setInterval(() => res.write('\n'), 200);
    timers.add(beat);
    res.on('close', () => {
      clearInterval(beat);
      timers.delete(beat);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    plays,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
