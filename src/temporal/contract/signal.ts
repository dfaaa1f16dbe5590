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
  /** `evaluating` when the previous run cut its evaluation short: the new run goes on with it. */
  phase: SignalRunPhase;
  /** An evaluation not yet begun (a message, or the cut-short one): the new run evaluates at once. */
  due: EvaluationDue | null;
  /** As the SignalStatus search attribute shows it (carried over with the attributes). */
  status: SignalWorkflowStatus;
  leadsStartedThisEvaluation: number;
  /** When passing time alone may next give a lead, as the last evaluation answered (ISO); absent when none. */
  nextDueAt?: string;
}

/**
 * What a signal workflow run is doing. `pausing`: paused while evaluating, it stops after the
 * batch under way. A paused run still evaluates at a slot it was already waiting for (the
 * evaluation re-reads the signal in PostgreSQL), then waits for a message only.
 */
export type SignalRunPhase = 'waiting' | 'evaluating' | 'pausing' | 'paused' | 'deleted';

/**
 * Why an evaluation is due: its first activation, a message, its schedule's slot, the previous
 * run cut it short, or the time the last evaluation said passing time may give a lead (`time`).
 */
export type EvaluationDue =
  | { by: 'activation' | 'message' | 'continuation' }
  | { by: 'schedule'; slotAt: number }
  | { by: 'time'; dueAt: number };

/** What the workflow alone knows, answered by {@link signalWorkflowStateQuery}. */
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

/**
 * The signal workflow's messages: Temporal signals, not the product's signals. Each tells the
 * workflow of a change PostgreSQL already holds, so the sender waits for no answer (an update
 * would fail the user's request while no worker runs); the workflow re-reads the signal on
 * every evaluation anyway.
 */
export const signalWorkflowMessages = {
  pause: defineSignal('pause'),
  resume: defineSignal('resume'),
  configChanged: defineSignal('configChanged'),
  evaluateNow: defineSignal('evaluateNow'),
  /** Rows its wake keys name were written (docs/decisions/wake-on-arrival.md): evaluate soon. */
  eventsArrived: defineSignal('eventsArrived'),
  delete: defineSignal('delete'),
};
export const signalWorkflowStateQuery = defineQuery<SignalWorkflowState>('state');

/**
 * The hand-off: a lead is handed off once its `lead:{leadId}` workflow is started, and that is
 * recorded in `leads.handed_off_at` so production answers it no more. The signal workflow
 * records each batch right after starting it, with this one (local) activity, at least once: a
 * worker that dies between the starts and the record, or during it, leaves it to the workflow
 * task's next try on another worker, which records it again (idempotent). A lead production
 * answers again before its record is started again, and its workflow id refuses the start.
 */
export type RecordHandOff = (leadIds: string[]) => Promise<void>;
