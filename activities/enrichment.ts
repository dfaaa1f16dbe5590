import type { Services } from '../src/services';

/** The steps of the bulk-enrichment and phone-lookup workflows: each one service call. */
export function enrichmentActivities(services: Pick<Services, 'enrichment'>) {
  return {
    async enrichBulkSlice(jobId: string, from: number, to: number): Promise<{ done: number }> {
      return services.enrichment.runBulkSlice(jobId, from, to);
    },
    /** Completes the job, or fails it with `failure` once its slices have given up. */
    async finishBulkJob(jobId: string, failure?: string): Promise<void> {
      await services.enrichment.finishBulkJob(jobId, failure);
    },
    async lookUpPhone(lookupId: string): Promise<string> {
      return services.enrichment.runPhoneLookup(lookupId);
    },
    async failPhoneLookup(lookupId: string, message: string): Promise<void> {
      await services.enrichment.failPhoneLookup(lookupId, message);
    },
  };
}
