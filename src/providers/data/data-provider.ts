/**
 * How data reaches the store the signals evaluate. A provider — the built-in demo generator,
 * a real data vendor's feed — pushes records (contract section 3) through the same ingestion
 * as `POST /admin/v1/ingest`, so validation, normalisation and idempotency are the same for
 * every source and a vendor adapter only has to fetch and map its data.
 */
import type { IngestResult } from '../../services/ingestion/ingestion';
import type { IngestRecordInput } from '../../services/ingestion/records';

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

/** The sink every provider is given: the service's ingestion. */
export function ingestionSink(ingestion: {
  ingest(input: string | readonly unknown[]): Promise<IngestResult>;
}): IngestSink {
  return (records) => ingestion.ingest(records);
}
