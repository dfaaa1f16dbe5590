import { bearerCall, unexpectedReply, vendorRequestOk, type VendorEndpoint } from '../vendor-http';
import { textValues, type CrmRecordPage, type CrmRecordReader } from './records';

const STREAMS = { persons: 'email', organizations: 'domain' } as const;
const PAGE_SIZE = 500;

interface ListAnswer {
  data?: Record<string, unknown>[] | null;
  additional_data?: { next_cursor?: unknown } | null;
}

/** An organization field that holds a company's web address: Pipedrive has no default one, accounts add their own. */
const WEBSITE_FIELD = /^(website|web site|domain|company website|url|web)$/i;

/**
 * Pipedrive's v2 lists at the connection's `api_domain`: `GET /api/v2/persons` (every address
 * of `emails`) and `GET /api/v2/organizations` (a `website`, or the account's own organization
 * field named Website or Domain, found in `GET /api/v1/organizationFields` and read from
 * `custom_fields`),
 * `updated_since` (inclusive), sorted by `update_time` ascending, 500 a page, `cursor` paging.
 * 429 answers carry `Retry-After`.
 */
export class PipedriveRecords implements CrmRecordReader {
  readonly streams = Object.keys(STREAMS);

  constructor(private readonly endpoint: VendorEndpoint) {}

  private websiteFields(token: string): Promise<string[]> {
    return websiteFieldsOf(this.endpoint, token);
  }

  async page(token: string, stream: string, since: Date | null, next: string | null): Promise<CrmRecordPage> {
    const kind = STREAMS[stream as keyof typeof STREAMS];
    if (!kind) throw new Error(`pipedrive has no stream ${stream}`);
    const path = `/api/v2/${stream}`;
    const call = bearerCall('pipedrive', this.endpoint, token, {
      operation: `GET ${path}`,
      method: 'GET',
      path,
      query: {
        sort_by: 'update_time',
        sort_direction: 'asc',
        limit: PAGE_SIZE,
        ...(since ? { updated_since: since.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
        ...(next ? { cursor: next } : {}),
      },
    });
    const websiteKeys = kind === 'domain' ? await this.websiteFields(token) : [];
    const body = (await vendorRequestOk(call)).body as ListAnswer | undefined;
    if (!body || typeof body !== 'object' || (body.data !== null && !Array.isArray(body.data)))
      throw unexpectedReply(call, 'no data array');
    const records = (body.data ?? []).map((item) => ({
      vendorId: `${stream}:${String(item.id)}`,
      kind,
      values:
        kind === 'email'
          ? textValues(...(Array.isArray(item.emails) ? item.emails : []).map((e) => (e as { value?: unknown }).value))
          : textValues(
              item.website,
              ...websiteKeys.map((key) => (item.custom_fields as Record<string, unknown> | undefined)?.[key]),
            ),
      modifiedAt: modifiedOf(item.update_time),
    }));
    const cursor = body.additional_data?.next_cursor;
    return { records, next: typeof cursor === 'string' && cursor !== '' ? cursor : null };
  }
}

/** The keys of the account's organization fields that hold a web address. */
async function websiteFieldsOf(endpoint: VendorEndpoint, token: string): Promise<string[]> {
  const call = bearerCall('pipedrive', endpoint, token, {
    operation: 'GET /api/v1/organizationFields',
    method: 'GET',
    path: '/api/v1/organizationFields',
    query: { limit: 500 },
  });
  const body = (await vendorRequestOk(call)).body as { data?: { key?: unknown; name?: unknown }[] | null } | undefined;
  if (!body || (body.data !== null && !Array.isArray(body.data))) throw unexpectedReply(call, 'no data array');
  return (body.data ?? [])
    .filter((field) => typeof field.name === 'string' && WEBSITE_FIELD.test(field.name.trim()))
    .map((field) => String(field.key));
}

function modifiedOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
