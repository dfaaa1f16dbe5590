/**
 * A local stand-in of UK Companies House for the sources section: the officers stream (one
 * director appointed at each of `count` companies, then the nightly disconnect), an empty PSC
 * stream, and the REST documents the source reads for each (company profile, the officer's
 * appointment list, the filing history), in the shapes of test/sources/companies-house-fixtures.ts.
 * Both real hosts map to it; it tells them apart by path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  appointmentList,
  companyProfile,
  filingHistory,
  officerEvent,
} from '../../test/sources/companies-house-fixtures';

export const registerNumber = (n: number) => `BC${String(n).padStart(6, '0')}`;
/** The stored company's name: its registered name without "LTD", as the source matches it. */
export const registerCompanyName = (n: number) => `Register Company ${n}`;

export interface RegisterStandIn {
  /** `SOURCES_HOST_MAP` entries for both Companies House hosts. */
  hostMap: string;
  /** Arrival times (ms, monotonic) of the REST requests (the per-key limit's host). */
  restArrivals: number[];
  close(): Promise<void>;
}

export async function startRegisterStandIn(count: number): Promise<RegisterStandIn> {
  const restArrivals: number[] = [];
  const appointed = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  let streamed = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/officers' || url.pathname === '/persons-with-significant-control') {
      res.writeHead(200, { 'content-type': 'application/json' });
      // The appointments once (a resumed read has none after them), then the disconnect.
      if (url.pathname === '/officers' && !streamed) {
        streamed = true;
        for (let n = 0; n < count; n++)
          res.write(
            `${officerEvent({
              timepoint: n + 1,
              number: registerNumber(n),
              appointmentId: `benchAppt${n}`,
              name: `DIRECTOR${n}, Alex`,
              role: 'director',
              appointedOn: appointed,
              occupation: n % 2 ? 'Chief Financial Officer' : 'Company Director',
              officerId: `benchOfficer${n}`,
            })}\n`,
          );
      }
      res.end();
      return;
    }
    restArrivals.push(performance.now());
    const officer = /^\/officers\/benchOfficer(\d+)\/appointments$/.exec(url.pathname);
    if (officer)
      return json(
        appointmentList(`benchOfficer${officer[1]}`, `DIRECTOR${officer[1]}, Alex`, [
          { number: 'ZZ000001', companyName: 'EARLIER EMPLOYER LIMITED', appointedOn: '2019-01-01' },
        ]),
      );
    const company = /^\/company\/BC(\d{6})(\/filing-history)?$/.exec(url.pathname);
    if (company?.[2]) return json(filingHistory([]));
    if (company)
      return json(companyProfile(`BC${company[1]}`, `${registerCompanyName(Number(company[1])).toUpperCase()} LTD`));
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"errors":[{"error":"company-profile-not-found"}]}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    hostMap: `api.company-information.service.gov.uk=${origin},stream.companieshouse.gov.uk=${origin}`,
    restArrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
