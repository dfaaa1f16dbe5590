/**
 * What a CRM holds that a signal may exclude: one vendor record (a contact, a lead, a company)
 * with the emails or website/domain values it carries, as the vendor wrote them.
 */
export interface CrmRecord {
  /** The vendor's id, prefixed with the object (`contact:123`): a record's values are replaced together. */
  vendorId: string;
  kind: 'email' | 'domain';
  values: string[];
  /** The vendor's last-modified time of the record (ISO 8601), the sync's cursor. */
  modifiedAt: string | null;
}

export interface CrmRecordPage {
  records: CrmRecord[];
  /** The vendor's token for the next page of the same query; null when the query is done. */
  next: string | null;
  /** The vendor stops paging this query here (HubSpot search: 10,000 results): query again from the newest time seen. */
  capped?: boolean;
}

/**
 * A vendor's records modified since a time, oldest first, page by page. Each stream (object
 * type) is read with a cursor of its own.
 */
export interface CrmRecordReader {
  readonly streams: readonly string[];
  page(token: string, stream: string, since: Date | null, next: string | null): Promise<CrmRecordPage>;
}

export const textValues = (...values: unknown[]): string[] =>
  values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
