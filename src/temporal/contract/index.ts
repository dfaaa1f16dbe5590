/**
 * The workflows' contract: ids, messages, inputs, search attributes and task queues, imported
 * alike by the API, the services, the activities and the workflows (so none of them imports
 * another's code). Workflow code imports it, so it may import only `@temporalio/workflow`'s
 * definitions and `@temporalio/common`.
 */
export * from './crm-sync';
export * from './enrichment';
export * from './lead';
export * from './replay';
export * from './search-attributes';
export * from './signal';
export * from './signal-reconciliation';
export * from './source-sync';
export * from './task-queues';
