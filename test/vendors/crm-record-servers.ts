import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The read side of HubSpot, Salesforce and Pipedrive as their documentation describes it, for
 * the sync of a CRM's contacts and companies: HubSpot's CRM search (`POST
 * /crm/v3/objects/{object}/search`, GTE filter on the last-modified property, ascending sort,
 * `after` paging), Salesforce's Query resource (SOQL, `nextRecordsUrl` locators, records with
 * `attributes`) and Pipedrive's v2 lists (`updated_since`, `cursor`, `additional_data.next_cursor`).
 * Each refuses an access token its authorization server does not accept, in the vendor's
 * format. Pages are small (`pageSize`) so that paging is exercised.
 */
export interface StoredRecord {
  id: string;
  /** Emails (contacts, leads, persons) or the company's domain/website. */
  values: string[];
  modifiedAt: Date;
}

export interface RecordServer {
  url: string;
  /** object name → records, as the customer's CRM holds them now. */
  objects: Map<string, StoredRecord[]>;
  /** Every read, in order: the object, the since filter (ISO or null) and the paging token. */
  reads: { object: string; since: string | null; page: string | null; authorized: boolean }[];
  /** Called after each page served (e.g. to expire every access token mid-sync). */
  afterPage: (() => void) | null;
  /** The next read is refused with this rate-limit answer (status 429), once. */
  throttleNext: { headers: Record<string, string>; body: unknown } | null;
  close(): Promise<void>;
}

type Handler = (
  req: http.IncomingMessage,
  url: URL,
  body: unknown,
  authorized: boolean,
  state: RecordServer,
) => { status: number; body: unknown };

async function serve(handler: Handler): Promise<RecordServer> {
  const state: RecordServer = {
    url: '',
    objects: new Map(),
    reads: [],
    afterPage: null,
    throttleNext: null,
    close: async () => undefined,
  };
  return new Promise((resolve) => {
    let authorizes: (header: string | undefined) => boolean = () => false;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://vendor.test');
        const text = Buffer.concat(chunks).toString('utf8');
        const throttled = state.throttleNext;
        if (throttled) {
          state.throttleNext = null;
          res.writeHead(429, { 'content-type': 'application/json', ...throttled.headers });
          res.end(JSON.stringify(throttled.body));
          return;
        }
        const answer = handler(
          req,
          url,
          text ? JSON.parse(text) : undefined,
          authorizes(req.headers.authorization),
          state,
        );
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        if (answer.status === 200) state.afterPage?.();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      state.close = () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve(
        Object.assign(state, {
          authorizeWith(check: (header: string | undefined) => boolean) {
            authorizes = check;
          },
        }),
      );
    });
  });
}

type Authorizable = RecordServer & { authorizeWith(check: (header: string | undefined) => boolean): void };

const sorted = (records: StoredRecord[], since: Date | null) =>
  records
    .filter((r) => !since || r.modifiedAt.getTime() >= since.getTime())
    .sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime() || a.id.localeCompare(b.id));

export async function startHubSpotRecords(
  authorizes: (header: string | undefined) => boolean,
  pageSize = 2,
): Promise<RecordServer> {
  const MODIFIED = { contacts: 'lastmodifieddate', companies: 'hs_lastmodifieddate' } as Record<string, string>;
  const server = (await serve((req, url, body, authorized, state) => {
    const match = /^\/crm\/v3\/objects\/(contacts|companies)\/search$/.exec(url.pathname);
    if (req.method !== 'POST' || !match) return { status: 404, body: { status: 'error', message: 'Not found' } };
    const object = match[1]!;
    const request = body as {
      filterGroups?: { filters?: { propertyName: string; operator: string; value: string }[] }[];
      limit?: number;
      after?: string;
    };
    const filter = request.filterGroups?.[0]?.filters?.[0];
    const since =
      filter && filter.propertyName === MODIFIED[object] && filter.operator === 'GTE'
        ? new Date(Number(filter.value))
        : null;
    state.reads.push({ object, since: since?.toISOString() ?? null, page: request.after ?? null, authorized });
    if (!authorized)
      return {
        status: 401,
        body: {
          status: 'error',
          message: 'The OAuth token used to make this call expired 1 second(s) ago.',
          correlationId: 'c0ffee00-0000-4000-8000-000000000000',
          category: 'EXPIRED_AUTHENTICATION',
        },
      };
    const all = sorted(state.objects.get(object) ?? [], since);
    const offset = Number(request.after ?? 0);
    const size = Math.min(request.limit ?? 10, pageSize);
    const page = all.slice(offset, offset + size);
    const property = object === 'contacts' ? 'email' : 'domain';
    return {
      status: 200,
      body: {
        total: all.length,
        results: page.map((r) => ({
          id: r.id,
          properties: {
            hs_object_id: r.id,
            [property]: r.values[0] ?? null,
            ...(object === 'contacts' ? { hs_additional_emails: r.values.slice(1).join(';') || null } : {}),
            [MODIFIED[object]!]: r.modifiedAt.toISOString(),
          },
          createdAt: r.modifiedAt.toISOString(),
          updatedAt: r.modifiedAt.toISOString(),
          archived: false,
        })),
        ...(offset + size < all.length
          ? { paging: { next: { after: String(offset + size), link: `?after=${offset + size}` } } }
          : {}),
      },
    };
  })) as Authorizable;
  server.authorizeWith(authorizes);
  return server;
}

export async function startSalesforceRecords(
  authorizes: (header: string | undefined) => boolean,
  pageSize = 2,
): Promise<RecordServer> {
  const locators = new Map<string, { object: string; records: StoredRecord[] }>();
  const FIELD = { Contact: 'Email', Lead: 'Email', Account: 'Website' } as Record<string, string>;
  const server = (await serve((req, url, _body, authorized, state) => {
    let object: string;
    let records: StoredRecord[];
    let offset = 0;
    const more = /^\/services\/data\/v\d+\.\d\/query\/([\w]+)-(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname.match(/^\/services\/data\/v\d+\.\d\/query\/?$/)) {
      const soql = url.searchParams.get('q') ?? '';
      const parsed =
        /^SELECT Id, (\w+), LastModifiedDate FROM (\w+)(?: WHERE LastModifiedDate >= (\S+))? ORDER BY LastModifiedDate, Id$/.exec(
          soql,
        );
      if (!parsed || FIELD[parsed[2]!] !== parsed[1])
        return { status: 400, body: [{ message: `unexpected query ${soql}`, errorCode: 'MALFORMED_QUERY' }] };
      object = parsed[2]!;
      const since = parsed[3] ? new Date(parsed[3]) : null;
      state.reads.push({ object, since: since?.toISOString() ?? null, page: null, authorized });
      records = sorted(state.objects.get(object) ?? [], since);
    } else if (req.method === 'GET' && more) {
      const locator = locators.get(more[1]!);
      if (!locator)
        return { status: 400, body: [{ message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' }] };
      ({ object, records } = locator);
      offset = Number(more[2]);
      state.reads.push({ object, since: null, page: url.pathname, authorized });
    } else return { status: 404, body: [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }] };
    if (!authorized)
      return { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] };
    const page = records.slice(offset, offset + pageSize);
    const done = offset + pageSize >= records.length;
    let nextRecordsUrl: string | undefined;
    if (!done) {
      const id = `01gD${locators.size.toString().padStart(11, '0')}`;
      locators.set(id, { object, records });
      nextRecordsUrl = `/services/data/v62.0/query/${id}-${offset + pageSize}`;
    }
    return {
      status: 200,
      body: {
        totalSize: records.length,
        done,
        ...(nextRecordsUrl ? { nextRecordsUrl } : {}),
        records: page.map((r) => ({
          attributes: { type: object, url: `/services/data/v62.0/sobjects/${object}/${r.id}` },
          Id: r.id,
          [FIELD[object]!]: r.values[0] ?? null,
          LastModifiedDate: r.modifiedAt.toISOString().replace('Z', '+0000'),
        })),
      },
    };
  })) as Authorizable;
  server.authorizeWith(authorizes);
  return server;
}

/** A custom field's key: a 40-character hash, as Pipedrive makes them. */
const WEBSITE_KEY = 'd4de1c1a4b8e50fbe3dd1b1e1f0a6b3e7c2a9f10';

export async function startPipedriveRecords(
  authorizes: (header: string | undefined) => boolean,
  pageSize = 2,
): Promise<RecordServer> {
  const server = (await serve((req, url, _body, authorized, state) => {
    // The account's own organization field for web addresses (Pipedrive has no default one).
    if (req.method === 'GET' && url.pathname === '/api/v1/organizationFields')
      return authorized
        ? {
            status: 200,
            body: {
              success: true,
              data: [
                { id: 1, key: 'name', name: 'Name', field_type: 'varchar' },
                { id: 2, key: 'address', name: 'Address', field_type: 'address' },
                { id: 40, key: WEBSITE_KEY, name: 'Website', field_type: 'varchar' },
              ],
              additional_data: { pagination: { start: 0, limit: 500, more_items_in_collection: false } },
            },
          }
        : { status: 401, body: { success: false, error: 'Invalid token', errorCode: 401 } };
    const match = /^\/api\/v2\/(persons|organizations)$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return { status: 404, body: { success: false, error: 'Not found' } };
    const object = match[1]!;
    const q = url.searchParams;
    const since = q.get('updated_since') ? new Date(q.get('updated_since')!) : null;
    state.reads.push({ object, since: since?.toISOString() ?? null, page: q.get('cursor'), authorized });
    if (!authorized) return { status: 401, body: { success: false, error: 'Invalid token', errorCode: 401 } };
    if (q.get('sort_by') !== 'update_time' || q.get('sort_direction') !== 'asc')
      return { status: 400, body: { success: false, error: 'unexpected sort' } };
    const all = sorted(state.objects.get(object) ?? [], since);
    const offset = q.get('cursor') ? Number(Buffer.from(q.get('cursor')!, 'base64url').toString()) : 0;
    const size = Math.min(Number(q.get('limit') ?? 100), pageSize);
    const page = all.slice(offset, offset + size);
    const next = offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64url') : null;
    return {
      status: 200,
      body: {
        success: true,
        data: page.map((r) =>
          object === 'persons'
            ? {
                id: Number(r.id),
                name: `Person ${r.id}`,
                emails: r.values.map((value, i) => ({ value, primary: i === 0, label: 'work' })),
                update_time: r.modifiedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
              }
            : {
                id: Number(r.id),
                name: `Organization ${r.id}`,
                custom_fields: { [WEBSITE_KEY]: r.values[0] ?? null },
                update_time: r.modifiedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
              },
        ),
        additional_data: { next_cursor: next },
      },
    };
  })) as Authorizable;
  server.authorizeWith(authorizes);
  return server;
}
