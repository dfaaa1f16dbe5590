import { ActivityFailure, continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SourceSyncResult } from '../src/temporal/contract';

const { beginSourceRun, listSourceItems, recordSourceError, finishSourceRun } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});
// A 429's Retry-After sets the next attempt's delay; after these tries the item waits for the next run.
// The attempt heartbeats every 5 s: one silent for 30 s (its worker died or froze) is retried,
// and a timed-out one learns it from its heartbeat and closes its sockets (docs/decisions/sources.md).
const { syncSourceItem } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 5 },
});

/** Past this many history events a run goes on as a new one, from the cursor PostgreSQL keeps. */
const HISTORY_LIMIT = 5_000;

/**
 * One run of a source, started by its schedule (`source-sync:<source>:<taskQueue>`) on the
 * sources' own task queue, so its activities never take lead production's slots: every item
 * after the stored cursor, one activity each; the cursor moves in PostgreSQL as each item is
 * done, so a killed run's successor goes on where it stopped.
 */
export async function sourceSyncWorkflow(name: string, carried?: SourceSyncResult): Promise<SourceSyncResult> {
  const result: SourceSyncResult = carried ?? { items: 0, records: 0, errors: 0 };
  const start = await beginSourceRun(name);
  if (!start.enabled) return result;
  let cursor = start.cursor;
  for (;;) {
    const page = await listSourceItems(name, cursor);
    for (const item of page.items) {
      result.items++;
      try {
        const synced = await syncSourceItem(name, item);
        result.records += synced.records;
        if (synced.error) result.errors++;
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        result.errors++;
        await recordSourceError(name, item, err.cause?.message ?? err.message);
      }
      cursor = item;
    }
    if (page.next === null) break;
    cursor = page.next;
    if (workflowInfo().historyLength > HISTORY_LIMIT) await continueAsNew<typeof sourceSyncWorkflow>(name, result);
  }
  await finishSourceRun(name);
  return result;
}
