export const sourceSyncWorkflowType = 'sourceSyncWorkflow';

/** The Temporal Schedule of one source on one task queue (a namespace may serve several deployments). */
export const sourceSyncScheduleId = (source: string, taskQueue: string) => `source-sync:${source}:${taskQueue}`;

/** Where a run of a source stands: the last item it finished, or null before the first. */
export type SourceCursor = string | null;

/** A run's start: whether to go on, and the cursor to go on from (a killed run's, or null). */
export interface SourceRunStart {
  enabled: boolean;
  cursor: SourceCursor;
}

/** The items (boards, sites, feeds) after a cursor; `next` is null once the last page is answered. */
export interface SourceItemsPage {
  items: string[];
  next: SourceCursor;
}

/** One item synced: the records it added, or what went wrong (recorded as the source's error). */
export interface SourceItemResult {
  records: number;
  /** What the item read and left out by the source's rules (an article not about the company). */
  dropped?: number;
  error?: string;
}

export interface SourceSyncResult {
  items: number;
  records: number;
  errors: number;
}
