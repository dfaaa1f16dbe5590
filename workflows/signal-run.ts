import { condition, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { nextEvaluationSlot } from './evaluation-slots';
import {
  LEADS_PER_SIGNAL_RUN,
  SignalStatusKey,
  type EvaluationDue,
  type SignalRunPhase,
  type SignalWorkflowCarried,
  type SignalWorkflowInput,
  type SignalWorkflowState,
  type SignalWorkflowStatus,
} from '../src/temporal/contract';

const HISTORY_EVENTS_PER_RUN = 10_000;

/**
 * The state of one signal workflow run: its phase, the evaluation due, its counters, and what
 * it carries to the next run. Messages change it; the workflow's loop reads it.
 */
export class SignalRun {
  phase: SignalRunPhase;
  /** The evaluation to begin next, and why; null while none is due. */
  due: EvaluationDue | null;
  /** Lead workflows this run started: a run that started any moves on to a new one. */
  leadsStartedThisRun = 0;
  private readonly leadsPerRun: number;
  private evaluations: number;
  private started: number;
  private startedThisEvaluation: number;
  private lastEvaluatedAt: string | null;
  private status: SignalWorkflowStatus;
  private nextEvaluationAt: number | null = null;
  /** When passing time alone may next give a lead, as the last finished evaluation answered (ms); null when none. */
  private dueByTime: number | null;
  /** The same, as the batches of the evaluation under way answer it. */
  private answeredDue: number | null = null;

  constructor(private readonly input: SignalWorkflowInput) {
    const carried = input.carried;
    this.leadsPerRun = input.leadsPerRun ?? LEADS_PER_SIGNAL_RUN;
    // A first run evaluates at once; a continued one when a message or a cut-short evaluation waits.
    this.phase = carried?.phase ?? 'waiting';
    this.due = carried ? carried.due : { by: 'activation' };
    this.evaluations = carried?.evaluations ?? 0;
    this.started = carried?.leadsStarted ?? 0;
    this.startedThisEvaluation = carried?.leadsStartedThisEvaluation ?? 0;
    this.lastEvaluatedAt = carried?.lastEvaluatedAt ?? null;
    this.status = carried?.status ?? 'active';
    this.dueByTime = carried?.nextDueAt ? Date.parse(carried.nextDueAt) : null;
  }

  pause(): void {
    if (this.phase === 'waiting') this.phase = 'paused';
    else if (this.phase === 'evaluating') this.phase = 'pausing';
    this.showStatus('paused');
  }

  resume(): void {
    if (this.phase === 'paused') this.phase = 'waiting';
    else if (this.phase === 'pausing') this.phase = 'evaluating';
    this.wake();
    this.showStatus('active');
  }

  /** A message asks for an evaluation; one already due keeps its reason. */
  wake(): void {
    this.due ??= { by: 'message' };
  }

  delete(): void {
    this.phase = 'deleted';
  }

  get deleted(): boolean {
    return this.phase === 'deleted';
  }

  /** Begins the due evaluation; answers when its slot was if its schedule (not a message) began it, else null. */
  evaluationStarted(): number | null {
    const due = this.due;
    this.due = null;
    // An evaluation the previous run cut short goes on, and so does its count.
    if (due?.by !== 'continuation') this.startedThisEvaluation = 0;
    this.answeredDue = null;
    if (this.phase === 'waiting') this.phase = 'evaluating';
    else if (this.phase === 'paused') this.phase = 'pausing';
    return due?.by === 'schedule' ? due.slotAt : null;
  }

  /** A batch's `nextDueAt`: the evaluation answers the earliest of its batches'. */
  batchAnswered(nextDueAt: string | undefined): void {
    if (nextDueAt === undefined) return;
    const at = Date.parse(nextDueAt);
    this.answeredDue = this.answeredDue === null ? at : Math.min(this.answeredDue, at);
  }

  /**
   * `at`: when its last batch came back, a time that replays the same (not after the hand-off's
   * local activity). Its answer replaces the last one: it read everything up to its own now.
   */
  evaluationFinished(at: number): void {
    if (this.phase === 'evaluating') this.phase = 'waiting';
    else if (this.phase === 'pausing') this.phase = 'paused';
    this.evaluations++;
    this.lastEvaluatedAt = new Date(at).toISOString();
    this.dueByTime = this.answeredDue;
  }

  /** Continuing as new half-way: the next run goes on with this evaluation at once. */
  evaluationInterrupted(): void {
    this.due = { by: 'continuation' };
  }

  leadsStarted(count: number): void {
    this.started += count;
    this.startedThisEvaluation += count;
    this.leadsStartedThisRun += count;
  }

  /** Before the history grows long, or once the run started its share of lead workflows. */
  mustContinueAsNew(): boolean {
    return (
      workflowInfo().continueAsNewSuggested ||
      this.leadsStartedThisRun >= this.leadsPerRun ||
      workflowInfo().historyLength > HISTORY_EVENTS_PER_RUN
    );
  }

  /** Keeps the SignalStatus search attribute true, written only when it changes. */
  showStatus(status: SignalWorkflowStatus): void {
    if (status === this.status) return;
    this.status = status;
    upsertSearchAttributes([{ key: SignalStatusKey, value: status }]);
  }

  /**
   * Paused: until a message. Otherwise until a message, the signal's next slot
   * (evaluation-slots.ts) or, when earlier, the time the last evaluation said passing time may
   * give a lead. Without that time, the same timer as before it existed (replay).
   */
  async waitForWork(): Promise<void> {
    const woken = () => this.due !== null || this.deleted;
    if (this.phase === 'paused') {
      this.nextEvaluationAt = null;
      await condition(woken);
      return;
    }
    // The wait begins in a task that a run's start, a message, a timer or an activity began: a
    // run that called a local activity (the hand-off) continues as new before it waits.
    // eslint-disable-next-line no-restricted-syntax -- documented exception (docs/decisions/delivery.md)
    const now = Date.now();
    const since = this.lastEvaluatedAt ? Date.parse(this.lastEvaluatedAt) : now;
    const slotAt = nextEvaluationSlot(this.input.signalId, this.input.evaluationIntervalMs, since);
    const dueAt = this.dueByTime !== null && this.dueByTime < slotAt ? this.dueByTime : null;
    const wakeAt = dueAt ?? slotAt;
    this.nextEvaluationAt = wakeAt;
    const waitMs = wakeAt - now;
    // A pause meanwhile does not end the wait: the slot's evaluation finds the signal paused.
    if (waitMs <= 0 || !(await condition(woken, waitMs)))
      this.due = dueAt === null ? { by: 'schedule', slotAt } : { by: 'time', dueAt };
    this.nextEvaluationAt = null;
  }

  state(): SignalWorkflowState {
    return {
      signalId: this.input.signalId,
      status: this.status,
      evaluating: this.phase === 'evaluating' || this.phase === 'pausing',
      evaluations: this.evaluations,
      leadsStarted: this.started,
      leadsStartedThisEvaluation: this.startedThisEvaluation,
      lastEvaluatedAt: this.lastEvaluatedAt,
      nextEvaluationAt: this.nextEvaluationAt === null ? null : new Date(this.nextEvaluationAt).toISOString(),
    };
  }

  carried(): SignalWorkflowCarried {
    return {
      evaluations: this.evaluations,
      leadsStarted: this.started,
      lastEvaluatedAt: this.lastEvaluatedAt,
      phase: this.phase,
      due: this.due,
      status: this.status,
      leadsStartedThisEvaluation: this.startedThisEvaluation,
      ...(this.dueByTime !== null ? { nextDueAt: new Date(this.dueByTime).toISOString() } : {}),
    };
  }
}
