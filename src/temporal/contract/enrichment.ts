export const bulkEnrichmentWorkflowType = 'bulkEnrichmentWorkflow' as const;
export const phoneLookupWorkflowType = 'phoneLookupWorkflow' as const;

export interface BulkEnrichmentInput {
  jobId: string;
  total: number;
}

export interface PhoneLookupInput {
  lookupId: string;
}

/** Contacts one bulk activity looks up at once: the job's whole concurrency. */
export const BULK_SLICE_SIZE = 10;

export const bulkEnrichmentWorkflowId = (jobId: string) => `bulk:${jobId}`;
export const phoneLookupWorkflowId = (lookupId: string) => `phone:${lookupId}`;
