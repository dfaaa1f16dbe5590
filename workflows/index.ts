export { probeWorkflow, proceedSignal } from './probe';
export { signalWorkflow } from './signal';
export { leadWorkflow } from './lead';
export { deliveryWorkflow } from './delivery';
