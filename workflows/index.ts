export { probeWorkflow, proceedSignal } from './probe';
export { signalWorkflow } from './signal';
export { leadWorkflow } from './lead';
