import { setWorkflowOptions } from '@temporalio/workflow';
import { leadWorkflow } from './lead';
import { bulkEnrichmentWorkflow } from './bulk-enrichment';
import { phoneLookupWorkflow } from './phone-lookup';
import { replayWorkflow } from './replay';
import { signalReconciliationWorkflow } from './signal-reconciliation';
import { sourceSyncWorkflow } from './source-sync';
import { crmSyncWorkflow } from './crm-sync';
import { pinnedWhenVersioned } from './versioning';

export { signalWorkflow } from './signal';
export { leadWorkflow } from './lead';
export { bulkEnrichmentWorkflow } from './bulk-enrichment';
export { phoneLookupWorkflow } from './phone-lookup';
export { replayWorkflow } from './replay';
export { signalReconciliationWorkflow } from './signal-reconciliation';
export { sourceSyncWorkflow } from './source-sync';
export { crmSyncWorkflow } from './crm-sync';

// Worker Versioning (docs/decisions/deploys.md): every workflow that ends finishes on the build
// that started it; the signal workflow, which never ends, takes the worker's default
// (AUTO_UPGRADE) and moves to each new build, so its changes go behind patched().
setWorkflowOptions(pinnedWhenVersioned, leadWorkflow);
setWorkflowOptions(pinnedWhenVersioned, replayWorkflow);
setWorkflowOptions(pinnedWhenVersioned, bulkEnrichmentWorkflow);
setWorkflowOptions(pinnedWhenVersioned, phoneLookupWorkflow);
setWorkflowOptions(pinnedWhenVersioned, signalReconciliationWorkflow);
setWorkflowOptions(pinnedWhenVersioned, sourceSyncWorkflow);
setWorkflowOptions(pinnedWhenVersioned, crmSyncWorkflow);
