import { condition } from '@temporalio/workflow';
import { nextEvaluationSlot } from './evaluation-slots';
import type {
  SignalWorkflowCarried,
  SignalWorkflowInput,
  SignalWorkflowState,
  SignalWorkflowStatus,
} from '../src/temporal/contract';

/** The orchestration state of one signal workflow run: what it is doing, and what it carries to the next run. */
export class SignalRun {
  paused: boolean;
  deleted = false;
  /** An evaluation is due: the first activation, a resume, a message, or the interval passed. */
  woken: boolean;
  private evaluating = false;
  private evaluations: number;
  private started: number;
  private startedThisEvaluation = 0;
  private lastEvaluatedAt: string | null;
  private scheduledDueAt: number | null = null;
  private status: SignalWorkflowStatus;
  private unacknowledged: string[];
  private nextEvaluationAt: number | null = null;
  /** This run goes on with an evaluation the previous run cut short. */
  private continuing: boolean;

  constructor(private readonly input: SignalWorkflowInput) {
    const carried = input.carried;
    this.paused = carried?.paused ?? false;
    this.evaluations = carried?.evaluations ?? 0;
    this.started = carried?.leadsStarted ?? 0;
    this.lastEvaluatedAt = carried?.lastEvaluatedAt ?? null;
    this.unacknowledged = carried?.unacknowledged ?? [];
    this.startedThisEvaluation = carried?.leadsStartedThisEvaluation ?? 0;
    this.status = carried?.status ?? 'active';
    // A first run evaluates at once; a continued one only when its evaluation was cut short.
    this.woken = carried ? carried.woken || carried.evaluationUnfinished : true;
    this.continuing = carried?.evaluationUnfinished ?? false;
    this.evaluating = this.continuing;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.woken = true;
  }

  wake(): void {
    this.woken = true;
  }

  delete(): void {
    this.deleted = true;
  }

  /** When the evaluation about to start was due, if its schedule (not a message) started it; asked once. */
  takeScheduledDueAt(): number | undefined {
    const dueAt = this.scheduledDueAt ?? undefined;
    this.scheduledDueAt = null;
    return dueAt;
  }

  evaluationStarted(): void {
    // An evaluation the previous run cut short goes on, and so does its count.
    if (!this.continuing) this.startedThisEvaluation = 0;
    this.continuing = false;
    this.woken = false;
    this.evaluating = true;
  }

  evaluationFinished(): void {
    this.evaluating = false;
    this.evaluations++;
    this.lastEvaluatedAt = new Date().toISOString();
  }

  /** Continuing as new half-way: the next run goes on with this evaluation at once. */
  evaluationInterrupted(): void {
    this.woken = true;
    this.continuing = true;
  }

  leadsStarted(leadIds: string[]): void {
    this.started += leadIds.length;
    this.startedThisEvaluation += leadIds.length;
    this.unacknowledged.push(...leadIds);
  }

  /** Started leads not yet recorded as handed off; the next production call records them. */
  takeUnacknowledged(): string[] {
    const ids = this.unacknowledged;
    this.unacknowledged = [];
    return ids;
  }

  /** True when the status differs from the one shown, which it now becomes. */
  statusChanged(status: SignalWorkflowStatus): boolean {
    if (status === this.status) return false;
    this.status = status;
    return true;
  }

  /** Paused: until a message. Active: until a message or the signal's next slot (evaluation-slots.ts). */
  async waitForWork(): Promise<void> {
    const due = () => this.woken || this.deleted;
    if (this.paused) {
      this.nextEvaluationAt = null;
      await condition(due);
      return;
    }
    const since = this.lastEvaluatedAt ? Date.parse(this.lastEvaluatedAt) : Date.now();
    this.nextEvaluationAt = nextEvaluationSlot(this.input.signalId, this.input.evaluationIntervalMs, since);
    const waitMs = this.nextEvaluationAt - Date.now();
    if (waitMs <= 0 || !(await condition(due, waitMs))) {
      this.woken = true;
      this.scheduledDueAt = this.nextEvaluationAt;
    }
    this.nextEvaluationAt = null;
  }

  state(): SignalWorkflowState {
    return {
      signalId: this.input.signalId,
      status: this.status,
      evaluating: this.evaluating,
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
      paused: this.paused,
      status: this.status,
      unacknowledged: this.unacknowledged,
      evaluationUnfinished: this.continuing,
      woken: this.woken,
      leadsStartedThisEvaluation: this.startedThisEvaluation,
    };
  }
}
