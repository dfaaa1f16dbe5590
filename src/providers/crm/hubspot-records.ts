import { bearerCall, unexpectedReply, vendorRequestOk, type VendorEndpoint } from '../vendor-http';
import { textValues, type CrmRecordPage, type CrmRecordReader } from './records';

/** HubSpot's search pages at most this many results per query; past it, query again from the newest time seen. */
const SEARCH_RESULT_CAP = 10_000;
const PAGE_SIZE = 200;

const STREAMS = {
  contacts: { modified: 'lastmodifieddate', properties: ['email', 'hs_additional_emails'], kind: 'email' },
  companies: { modified: 'hs_lastmodifieddate', properties: ['domain'], kind: 'domain' },
} as const;

interface SearchAnswer {
  results?: { id?: unknown; properties?: Record<string, unknown>; updatedAt?: unknown }[];
  paging?: { next?: { after?: unknown } };
}

/**
 * Contacts' emails and companies' domains through the CRM search API
 * (`POST /crm/v3/objects/{object}/search`): filtered on the last-modified property (GTE), sorted
 * on it ascending, 200 a page, paged by `after`. HubSpot allows few search requests a second;
 * a 429 comes back as the classified error with its wait.
 */
export class HubSpotRecords implements CrmRecordReader {
  readonly streams = Object.keys(STREAMS);

  constructor(private readonly endpoint: VendorEndpoint) {}

  async page(token: string, stream: string, since: Date | null, next: string | null): Promise<CrmRecordPage> {
    const spec = STREAMS[stream as keyof typeof STREAMS];
    if (!spec) throw new Error(`hubspot has no stream ${stream}`);
    const path = `/crm/v3/objects/${stream}/search`;
    const call = bearerCall('hubspot', this.endpoint, token, {
      operation: `POST ${path}`,
      method: 'POST',
      path,
      json: {
        filterGroups: since
          ? [{ filters: [{ propertyName: spec.modified, operator: 'GTE', value: String(since.getTime()) }] }]
          : [],
        sorts: [{ propertyName: spec.modified, direction: 'ASCENDING' }],
        properties: [...spec.properties, spec.modified],
        limit: PAGE_SIZE,
        ...(next ? { after: next } : {}),
      },
    });
    const body = (await vendorRequestOk(call)).body as SearchAnswer | undefined;
    if (!body || !Array.isArray(body.results)) throw unexpectedReply(call, 'no results array');
    const records = body.results.map((result) => {
      const properties = result.properties ?? {};
      const additional = typeof properties.hs_additional_emails === 'string' ? properties.hs_additional_emails : '';
      return {
        vendorId: `${stream}:${String(result.id)}`,
        kind: spec.kind,
        values:
          spec.kind === 'email'
            ? textValues(properties.email, ...additional.split(';'))
            : textValues(properties.domain),
        modifiedAt: modifiedOf(properties[spec.modified] ?? result.updatedAt),
      };
    });
    const after = body.paging?.next?.after;
    const capped = typeof after === 'string' && Number(after) >= SEARCH_RESULT_CAP;
    return { records, next: typeof after === 'string' && !capped ? after : null, capped };
  }
}

/** HubSpot writes datetimes as ISO 8601 in search results; older portals as epoch milliseconds. */
function modifiedOf(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const at = /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
