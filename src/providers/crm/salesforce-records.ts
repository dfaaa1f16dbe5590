import { bearerCall, unexpectedReply, type VendorEndpoint } from '../vendor-http';
import { textValues, type CrmRecordPage, type CrmRecordReader } from './records';
import { SALESFORCE_API_VERSION, salesforceSend } from './salesforce';

/** Contacts and Leads give emails, Accounts their Website. */
const STREAMS = {
  Contact: { field: 'Email', kind: 'email' },
  Lead: { field: 'Email', kind: 'email' },
  Account: { field: 'Website', kind: 'domain' },
} as const;

interface QueryAnswer {
  done?: unknown;
  nextRecordsUrl?: unknown;
  records?: Record<string, unknown>[];
}

/**
 * SOQL through the REST Query resource, at the connection's `instance_url`:
 * `SELECT Id, <field>, LastModifiedDate FROM <object> WHERE LastModifiedDate >= <since>
 * ORDER BY LastModifiedDate, Id`, then `nextRecordsUrl` until `done`.
 */
export class SalesforceRecords implements CrmRecordReader {
  readonly streams = Object.keys(STREAMS);

  constructor(private readonly endpoint: VendorEndpoint) {}

  async page(token: string, stream: string, since: Date | null, next: string | null): Promise<CrmRecordPage> {
    const spec = STREAMS[stream as keyof typeof STREAMS];
    if (!spec) throw new Error(`salesforce has no stream ${stream}`);
    // A dateTime literal has no quotes and no milliseconds; flooring to the second keeps GTE safe.
    const where = since ? ` WHERE LastModifiedDate >= ${since.toISOString().replace(/\.\d{3}Z$/, 'Z')}` : '';
    const soql = `SELECT Id, ${spec.field}, LastModifiedDate FROM ${stream}${where} ORDER BY LastModifiedDate, Id`;
    const call = next
      ? bearerCall('salesforce', this.endpoint, token, {
          operation: `GET /query/{locator} (${stream})`,
          method: 'GET',
          // nextRecordsUrl is a path from the host: /services/data/vXX.X/query/01g...-2000
          path: new URL(next, 'https://instance.invalid').pathname,
        })
      : bearerCall(
          'salesforce',
          { ...this.endpoint, baseUrl: `${this.endpoint.baseUrl}/services/data/${SALESFORCE_API_VERSION}` },
          token,
          { operation: `GET /query (${stream} modified since)`, method: 'GET', path: '/query', query: { q: soql } },
        );
    const body = (await salesforceSend(call)) as QueryAnswer | undefined;
    if (!body || !Array.isArray(body.records)) throw unexpectedReply(call, 'no records array');
    return {
      records: body.records.map((record) => ({
        vendorId: `${stream}:${String(record.Id)}`,
        kind: spec.kind,
        values: textValues(record[spec.field]),
        modifiedAt: modifiedOf(record.LastModifiedDate),
      })),
      next: body.done === false && typeof body.nextRecordsUrl === 'string' ? body.nextRecordsUrl : null,
    };
  }
}

/** Salesforce writes `2024-05-01T10:00:00.000+0000`: the offset without its colon. */
function modifiedOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
