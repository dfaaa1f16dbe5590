import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * People Data Labs on 127.0.0.1, answering as docs.peopledatalabs.com documents: the Person
 * Changelog API (POST /v5/person/changelog, a scroll of pages per type, filtered to the ids the
 * body names), the Person Retrieve API (GET /v5/person/retrieve/{id}, `billed`), `X-Api-Key`
 * checked, and errors as `{"status": ..., "error": {"type": ..., "message": ...}}`.
 */
export interface PdlServer {
  origin: string;
  requests: { method: string; path: string; apiKey: string | undefined; body: any }[];
  /** The changelog of `origin → current` for one type, as pages of records. */
  changelog(origin: string, current: string, type: string, pages: ChangedRecord[][]): void;
  /** The person the Retrieve API answers for `id`, and whether it bills a credit. */
  person(record: PdlPerson, billed?: boolean): void;
  /** The next `times` requests to `path` answer 429 (fixed window until `x-ratelimit-reset`). */
  throttle(path: string, times: number): void;
  /** The next request to `path` answers `status` with PDL's error body (a 500 `api_error`). */
  fail(path: string, status: number): void;
  /** The next request to `path` answers 200 with a body that is not PDL's JSON (a proxy's page). */
  garble(path: string): void;
  close(): Promise<void>;
}

export interface ChangedRecord {
  id: string;
  additional_metadata?: { fields_updated?: string[]; contains?: string[] };
}

/** The Person Schema fields the source reads, as PDL writes them (lower case, URLs without a scheme). */
export interface PdlPerson {
  id: string;
  full_name: string;
  first_name: string;
  last_name: string;
  job_title: string | null;
  job_company_id: string | null;
  job_company_name: string | null;
  job_company_website: string | null;
  job_company_linkedin_url: string | null;
  job_company_industry: string | null;
  job_start_date: string | null;
  work_email: string | boolean | null;
  mobile_phone: string | boolean | null;
  linkedin_url: string | null;
  location_name: string | null;
  location_locality: string | null;
  location_country: string | null;
  experience: unknown[];
}

export const CHANGELOG_PATH = '/v5/person/changelog';
export const retrievePath = (id: string) => `/v5/person/retrieve/${id}`;

export async function startPdl(expectedKey: string): Promise<PdlServer> {
  const changelogs = new Map<string, ChangedRecord[][]>();
  const people = new Map<string, { record: PdlPerson; billed: boolean }>();
  const throttled = new Map<string, number>();
  const failing = new Map<string, number>();
  const garbled = new Set<string>();
  const requests: PdlServer['requests'] = [];
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const error = (res: http.ServerResponse, status: number, type: string, message: string) =>
    send(res, status, { status, error: { type, message } });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const apiKey = req.headers['x-api-key'] as string | undefined;
      requests.push({ method: req.method ?? 'GET', path, apiKey, body });
      if (apiKey !== expectedKey) return error(res, 401, 'authentication_error', 'Invalid or missing API key');
      const left = throttled.get(path) ?? 0;
      if (left > 0) {
        throttled.set(path, left - 1);
        // The fixed window resets at the next whole second, written in UTC as PDL does.
        const reset = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);
        return send(
          res,
          429,
          {
            status: 429,
            error: { type: 'rate_limit_error', message: 'An error occurred due to requests hitting the API too quick' },
          },
          { 'x-ratelimit-remaining': '{"minute": 0}', 'x-ratelimit-reset': reset },
        );
      }
      const failure = failing.get(path);
      if (failure) {
        failing.delete(path);
        return error(res, failure, 'api_error', 'An internal error occurred');
      }
      if (garbled.delete(path)) {
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service unavailable</body></html>');
      }
      if (req.method === 'POST' && path === CHANGELOG_PATH) {
        const { origin_version, current_version, type, ids, scroll_token } = body ?? {};
        const pages = changelogs.get(`${origin_version}|${current_version}|${type}`);
        if (!pages)
          return error(
            res,
            400,
            'invalid_request_error',
            'origin_version and current_version must be consecutive releases',
          );
        const index = scroll_token ? Number(String(scroll_token).replace('scroll-', '')) : 0;
        const wanted = Array.isArray(ids) ? new Set<string>(ids) : null;
        const listed = (pages[index] ?? []).filter((record) => !wanted || wanted.has(record.id));
        const last = index >= pages.length - 1;
        return send(res, 200, {
          status: 200,
          data: {
            type,
            origin_version,
            current_version,
            scroll_token: last ? null : `scroll-${index + 1}`,
            [type]: listed,
          },
        });
      }
      const retrieve = /^\/v5\/person\/retrieve\/([^/?]+)$/.exec(path);
      if (req.method === 'GET' && retrieve) {
        const found = people.get(decodeURIComponent(retrieve[1]!));
        if (!found) return error(res, 404, 'not_found', 'No records were found matching your request');
        return send(res, 200, { status: 200, data: found.record, billed: found.billed });
      }
      return error(res, 404, 'not_found', 'No such endpoint');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    changelog: (origin, current, type, pages) => changelogs.set(`${origin}|${current}|${type}`, pages),
    person: (record, billed = true) => people.set(record.id, { record, billed }),
    throttle: (path, times) => throttled.set(path, times),
    fail: (path, status) => failing.set(path, status),
    garble: (path) => garbled.add(path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A PDL person record at a company, in PDL's lower case. */
export function pdlPerson(
  id: string,
  name: [string, string],
  job: { title: string; company: string; website: string; startDate: string | null },
  contact: { workEmail?: string | boolean | null; mobilePhone?: string | boolean | null } = {},
): PdlPerson {
  const [first, last] = name.map((part) => part.toLowerCase()) as [string, string];
  const slug = job.company.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    id,
    full_name: `${first} ${last}`,
    first_name: first,
    last_name: last,
    job_title: job.title.toLowerCase(),
    job_company_id: `${slug}-id`,
    job_company_name: job.company.toLowerCase(),
    job_company_website: job.website,
    job_company_linkedin_url: `linkedin.com/company/${slug}`,
    job_company_industry: 'computer software',
    job_start_date: job.startDate,
    work_email: contact.workEmail ?? null,
    mobile_phone: contact.mobilePhone ?? null,
    linkedin_url: `linkedin.com/in/${first}-${last}`,
    location_name: 'austin, texas, united states',
    location_locality: 'austin',
    location_country: 'united states',
    experience: [
      {
        company: { name: job.company.toLowerCase(), website: job.website },
        title: { name: job.title.toLowerCase() },
        start_date: job.startDate,
        end_date: null,
        is_primary: true,
      },
    ],
  };
}
