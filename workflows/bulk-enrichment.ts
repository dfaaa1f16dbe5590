import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { BULK_SLICE_SIZE, type BulkEnrichmentInput } from '../src/temporal/contract';

const { enrichBulkSlice, finishBulkJob } = proxyActivities<Activities>({
  // A slice is ten lookups side by side: one live latency plus database time.
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * `bulk:<jobId>`: looks the job's contacts up one slice of ten at a time, so a job never has
 * more than ten lookups in flight however long its list, and each slice writes its results and
 * the job's `done` count to PostgreSQL, which is what the status endpoint reads while it runs.
 * Slices skip contacts already answered, so a retried slice neither repeats nor re-charges.
 */
export async function bulkEnrichmentWorkflow(input: BulkEnrichmentInput): Promise<{ done: number }> {
  let done = 0;
  try {
    for (let from = 0; from < input.total; from += BULK_SLICE_SIZE) {
      ({ done } = await enrichBulkSlice(input.jobId, from, Math.min(from + BULK_SLICE_SIZE, input.total)));
    }
  } catch (err) {
    await finishBulkJob(input.jobId, `Stopped after ${done} of ${input.total} contacts: ${(err as Error).message}`);
    throw err;
  }
  await finishBulkJob(input.jobId);
  return { done };
}
