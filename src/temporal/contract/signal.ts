import { defineQuery, defineSignal } from '@temporalio/workflow';

export const signalWorkflowType = 'signalWorkflow';

/** Leads produced per PostgreSQL transaction, and started per workflow task. */
export const LEADS_PER_BATCH = 100;
/**
 * Lead workflows a signal run starts before it continues as new. A child's completion is written
 * into its parent's history (and wakes it) while the parent run is open, whatever the
 * parent-close policy, so a run that moves on right after its starts spares the server and the
 * worker a parent task per completion; the bench's ceiling (c) uses the same bound.
 */
export const LEADS_PER_SIGNAL_RUN = LEADS_PER_BATCH;
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
  /** A message (resume, evaluate now, config changed) not yet acted on: the new run evaluates at once. */
  woken: boolean;
  leadsStartedThisEvaluation: number;
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
