import { defineQuery, defineSignal } from '@temporalio/workflow';

export interface SignalWorkflowInput {
  signalId: string;
  accountId: string;
  signalTypeId: string;
  evaluationIntervalMs: number;
  /** The deliveries' task queue, handed to each lead workflow (absent in runs started before deliveries). */
  deliveryTaskQueue?: string;
  /** Carried across continue-as-new. */
  carried?: { evaluations: number; leadsStarted: number; lastEvaluatedAt: string | null; paused: boolean };
}

export interface SignalWorkflowState {
  signalId: string;
  paused: boolean;
  deleted: boolean;
  evaluations: number;
  leadsStarted: number;
  lastEvaluatedAt: string | null;
  evaluating: boolean;
}

export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const configChangedSignal = defineSignal('configChanged');
export const evaluateNowSignal = defineSignal('evaluateNow');
export const deleteSignal = defineSignal('delete');
export const stateQuery = defineQuery<SignalWorkflowState>('state');

export const signalWorkflowId = (signalId: string) => `signal:${signalId}`;
export const leadWorkflowId = (leadId: string) => `lead:${leadId}`;
