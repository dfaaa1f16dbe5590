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
  /** As the register states it; null as some records carry it, absent by default ("Company Director"). */
  occupation?: string | null;
  /** The officer's id: the item links their own appointment list. */
  officerId?: string;
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
      occupation: a.occupation === undefined ? 'Company Director' : a.occupation,
      officer_role: a.role,
      links: {
        self: `/company/${a.number}/appointments/${a.appointmentId}`,
        ...(a.officerId ? { officer: { appointments: `/officers/${a.officerId}/appointments` } } : {}),
      },
    },
    event: { timepoint: a.timepoint, published_at: '2026-11-26T10:00:00', type: a.type ?? 'changed' },
  });
}

/** One item of an officer's appointment list (`/officers/{officer_id}/appointments`). */
export interface CareerFixture {
  number: string;
  companyName: string | null;
  role?: string;
  occupation?: string | null;
  appointedOn: string;
  resignedOn?: string;
}

/**
 * A page of an officer's appointment list as the Officer appointments API answers it: the
 * envelope's name, date of birth and paging (`items_per_page`, `start_index`, `total_results`),
 * each item's `appointed_to` and `links.company`.
 */
export function appointmentList(
  officerId: string,
  name: string,
  items: CareerFixture[],
  page: { start: number; total: number; perPage?: number } = { start: 0, total: items.length },
) {
  return {
    date_of_birth: { month: 4, year: 1980 },
    etag: `etag-${officerId}-${page.start}`,
    is_corporate_officer: false,
    items: items.map((item) => ({
      address: { address_line_1: '1 High Street', locality: 'London', postal_code: 'EC1A 1AA' },
      appointed_on: item.appointedOn,
      ...(item.resignedOn ? { resigned_on: item.resignedOn } : {}),
      appointed_to: { company_name: item.companyName, company_number: item.number, company_status: 'active' },
      country_of_residence: 'England',
      links: { company: `/company/${item.number}` },
      name,
      nationality: 'British',
      occupation: item.occupation === undefined ? 'Company Director' : item.occupation,
      officer_role: item.role ?? 'director',
    })),
    items_per_page: page.perPage ?? 50,
    kind: 'personal-appointment',
    links: { self: `/officers/${officerId}/appointments` },
    name,
    start_index: page.start,
    total_results: page.total,
  };
}

export interface PscFixture {
  timepoint: number;
  number: string;
  pscId: string;
  kind?: string;
  name: string | null;
  natures: string[];
  notifiedOn: string;
  ceasedOn?: string;
  registrationNumber?: string;
  type?: 'changed' | 'deleted';
}

/** A PSC stream event: the streaming API's envelope around a PSC item, as the PSC API gives it. */
export function pscEvent(p: PscFixture): string {
  const kind = p.kind ?? 'corporate-entity-person-with-significant-control';
  const path = kind.startsWith('corporate') ? 'corporate-entity' : 'individual';
  return JSON.stringify({
    resource_kind: kind.startsWith('corporate') ? 'company-psc-corporate' : 'company-psc-individual',
    resource_uri: `/company/${p.number}/persons-with-significant-control/${path}/${p.pscId}`,
    resource_id: p.pscId,
    data: {
      address: { premises: '10', address_line_1: 'Market Street', locality: 'Leeds', postal_code: 'LS1 1AA' },
      etag: `etag-${p.pscId}`,
      kind,
      name: p.name,
      natures_of_control: p.natures,
      notified_on: p.notifiedOn,
      ...(p.ceasedOn ? { ceased_on: p.ceasedOn } : {}),
      ...(kind.startsWith('corporate')
        ? {
            identification: {
              legal_authority: 'Companies Act 2006',
              legal_form: 'Private Limited Company',
              country_registered: 'England',
              place_registered: 'Register Of Companies For England And Wales',
              ...(p.registrationNumber ? { registration_number: p.registrationNumber } : {}),
            },
          }
        : { nationality: 'British', date_of_birth: { month: 1, year: 1970 } }),
      links: { self: `/company/${p.number}/persons-with-significant-control/${path}/${p.pscId}` },
    },
    event: { timepoint: p.timepoint, published_at: '2026-11-26T10:00:00', type: p.type ?? 'changed' },
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
  /** The officers stream's connections. */
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  /** The next officers stream connections' plays, in turn. */
  plays: StreamPlay[];
  /** The persons-with-significant-control stream's connections and plays (it holds with heartbeats when none is left). */
  pscRequests: { path: string; headers: http.IncomingHttpHeaders }[];
  pscPlays: StreamPlay[];
  close(): Promise<void>;
}

/** The streaming API on 127.0.0.1: newline-delimited JSON, blank heartbeat lines, a disconnect when told. */
export async function startStreamServer(): Promise<StreamServer> {
  const requests: StreamServer['requests'] = [];
  const plays: StreamPlay[] = [];
  const pscRequests: StreamServer['requests'] = [];
  const pscPlays: StreamPlay[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const psc = (req.url ?? '/').startsWith('/persons-with-significant-control');
    (psc ? pscRequests : requests).push({ path: req.url ?? '/', headers: req.headers });
    const play = (psc ? pscPlays : plays).shift() ?? { lines: [], then: 'hold' };
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
    pscRequests,
    pscPlays,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
