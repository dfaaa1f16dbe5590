export { probeWorkflow, proceedSignal } from './probe';
export { signalWorkflow } from './signal';
export { leadWorkflow } from './lead';
export { deliveryWorkflow } from './delivery';
export { bulkEnrichmentWorkflow } from './bulk-enrichment';
export { phoneLookupWorkflow } from './phone-lookup';
export { replayWorkflow } from './replay';
