export { probeWorkflow, proceedSignal } from './probe';
