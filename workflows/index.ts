export { signalWorkflow } from './signal';
export { leadWorkflow } from './lead';
export { bulkEnrichmentWorkflow } from './bulk-enrichment';
export { phoneLookupWorkflow } from './phone-lookup';
export { replayWorkflow } from './replay';
export { signalReconciliationWorkflow } from './signal-reconciliation';
export { sourceSyncWorkflow } from './source-sync';
export { crmSyncWorkflow } from './crm-sync';
