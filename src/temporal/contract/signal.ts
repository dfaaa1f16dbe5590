import { defineQuery, defineSignal } from '@temporalio/workflow';

export const signalWorkflowType = 'signalWorkflow';
export const signalWorkflowId = (signalId: string) => `signal:${signalId}`;

export interface SignalWorkflowInput {
  signalId: string;
  accountId: string;
  signalTypeId: string;
  evaluationIntervalMs: number;
  /** The queue lead workflows run on. */
  leadTaskQueue: string;
  /** Children a run starts before it continues as new; tests lower it. */
  leadsPerRun?: number;
  /** Carried across continue-as-new. */
  carried?: SignalWorkflowCarried;
}

export interface SignalWorkflowCarried {
  evaluations: number;
  leadsStarted: number;
  lastEvaluatedAt: string | null;
  paused: boolean;
  /** As the SignalStatus search attribute shows it (carried over with the attributes). */
  status: SignalWorkflowStatus;
  /** Lead workflows started but not yet acknowledged to PostgreSQL (`leads.handed_off_at`). */
  unacknowledged: string[];
  /** An evaluation that continued as new half-way goes on at once in the new run. */
  evaluationUnfinished: boolean;
}

/** What the workflow alone knows, answered by {@link signalStateQuery}. */
export interface SignalWorkflowState {
  signalId: string;
  /** `active`, `paused` or `credits_exhausted`, as the SignalStatus search attribute says. */
  status: SignalWorkflowStatus;
  evaluating: boolean;
  evaluations: number;
  /** Lead workflows started by this signal, over all its runs. */
  leadsStarted: number;
  /** Lead workflows started by the evaluation under way (or the last one). */
  leadsStartedThisEvaluation: number;
  lastEvaluatedAt: string | null;
  /** When the next evaluation is due; null while paused or evaluating. */
  nextEvaluationAt: string | null;
}

export type SignalWorkflowStatus = 'active' | 'paused' | 'credits_exhausted';

export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const configChangedSignal = defineSignal('configChanged');
export const evaluateNowSignal = defineSignal('evaluateNow');
export const deleteSignal = defineSignal('delete');
export const signalStateQuery = defineQuery<SignalWorkflowState>('state');
