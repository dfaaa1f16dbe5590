export const replayWorkflowType = 'replayWorkflow';
/** `replay:{signalId}:{n}` with n the start time in ms. */
export const replayWorkflowId = (signalId: string, n: number) => `replay:${signalId}:${n}`;

/** The specification's replay result. */
export interface ReplayResult {
  total: number;
  sent: number;
  failed: number;
}

/** Where the next page of the signal's leads starts: after this lead (by production time, then id). */
export interface ReplayCursor {
  /** PostgreSQL's own text of the lead's `created_at`, so no microsecond is lost on the way. */
  afterCreatedAt: string;
  afterLeadId: string;
}

export interface ReplayPage {
  /** The replay deliveries made for this page's leads, in lead order. */
  deliveryIds: string[];
  /** Null when this page was the last. */
  next: ReplayCursor | null;
}

export interface ReplayWorkflowInput {
  signalId: string;
  /** One attempt's HTTP time-out (WEBHOOK_TIMEOUT_MS), to size the activity time-outs. */
  timeoutMs: number;
  /** Carried across continue-as-new: where to go on, and the counts so far. */
  cursor?: ReplayCursor | null;
  carried?: ReplayResult;
  /** Tests shrink these to see paging and continue-as-new with a handful of leads. */
  pageSize?: number;
  sendsPerRun?: number;
}

/** Sends of one lead in a replay: the first and two quick retries. */
export const REPLAY_SENDS_PER_LEAD = 3;
/** The first quick retry's delay; doubled for the next. */
export const REPLAY_RETRY_INITIAL_MS = 500;
/** Longest wait for a throttled endpoint's slot inside one replay send. */
export const REPLAY_MAX_WAIT_MS = 30_000;
