import { bearerCall, unexpectedReply, vendorRequestOk, type VendorEndpoint } from '../vendor-http';
import { textValues, type CrmRecordPage, type CrmRecordReader } from './records';

const STREAMS = { persons: 'email', organizations: 'domain' } as const;
const PAGE_SIZE = 500;

interface ListAnswer {
  data?: Record<string, unknown>[] | null;
  additional_data?: { next_cursor?: unknown } | null;
}

/**
 * Pipedrive's v2 lists at the connection's `api_domain`: `GET /api/v2/persons` (every address
 * of `emails`) and `GET /api/v2/organizations` (their `website`, where the company has one),
 * `updated_since` (inclusive), sorted by `update_time` ascending, 500 a page, `cursor` paging.
 * 429 answers carry `Retry-After`.
 */
export class PipedriveRecords implements CrmRecordReader {
  readonly streams = Object.keys(STREAMS);

  constructor(private readonly endpoint: VendorEndpoint) {}

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
    const body = (await vendorRequestOk(call)).body as ListAnswer | undefined;
    if (!body || typeof body !== 'object' || (body.data !== null && !Array.isArray(body.data)))
      throw unexpectedReply(call, 'no data array');
    const records = (body.data ?? []).map((item) => ({
      vendorId: `${stream}:${String(item.id)}`,
      kind,
      values:
        kind === 'email'
          ? textValues(...(Array.isArray(item.emails) ? item.emails : []).map((e) => (e as { value?: unknown }).value))
          : textValues(item.website),
      modifiedAt: modifiedOf(item.update_time),
    }));
    const cursor = body.additional_data?.next_cursor;
    return { records, next: typeof cursor === 'string' && cursor !== '' ? cursor : null };
  }
}

function modifiedOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
