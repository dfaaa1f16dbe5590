/**
 * How data reaches the store the signals evaluate. A provider — the built-in demo generator,
 * a real data vendor's feed — pushes records (contract section 3) through the same ingestion
 * as `POST /admin/v1/ingest`, so validation, normalisation and idempotency are the same for
 * every source and a vendor adapter only has to fetch and map its data.
 */
import type { IngestRecordInput } from './records';

export interface IngestError {
  /** 1-based line of the NDJSON body, or index + 1 in a JSON array. */
  line: number;
  message: string;
}

/** What the ingestion answers for a batch, here and at `POST /admin/v1/ingest` alike. */
export interface IngestResult {
  /** New records stored. */
  accepted: number;
  /** Valid records whose id was already stored (or came earlier in the same input): left as they were. */
  duplicates: number;
  rejected: number;
  /** Sorted by line; at most the ingestion's MAX_LISTED_ERRORS of them, `rejected` stays the full count. */
  errors: IngestError[];
}

/** Records as objects, or NDJSON text exactly as a vendor's export delivers it. */
export type IngestSink = (records: readonly IngestRecordInput[] | readonly unknown[] | string) => Promise<IngestResult>;

export interface RunningDataProvider {
  /** Stops fetching and waits for the batch in flight, so shutdown never cuts one in half. */
  stop(): Promise<void>;
}

export interface DataProvider {
  readonly name: string;
  start(sink: IngestSink): Promise<RunningDataProvider>;
}

/** What a provider's records go into: the service's ingestion, as far as a provider sees it. */
export interface IngestionPort {
  ingest(input: string | readonly unknown[]): Promise<IngestResult>;
}

/** The sink every provider is given: the service's ingestion. */
export function ingestionSink(ingestion: IngestionPort): IngestSink {
  return (records) => ingestion.ingest(records);
}
