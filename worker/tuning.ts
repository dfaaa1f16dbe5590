import type { WorkerOptions } from '@temporalio/worker';

/**
 * The Worker options that set how much work a worker takes on at once: the service's workers
 * spread this object, and so does the bench's ceiling (c) worker (scripts/bench/ceiling-worker.ts),
 * so the pipeline and its ceiling always run with the same settings. Change a value here, then
 * re-run `npm run bench -- --sections pipeline` and compare both numbers (docs/performance.md).
 *
 * Every value is written out, also where it is the SDK's default (SDK 1.24,
 * `@temporalio/worker/lib/worker-options.js`), so that a change of default in an SDK upgrade
 * does not silently change what was measured.
 */
export const workerTuning = {
  /**
   * Workflow executions kept in memory between their tasks (the sticky cache). The SDK sizes it
   * from the heap limit (about 2,300 for a 4 GB heap); an idle signal workflow held there costs
   * ~0.3 MB, so 1,000 active signals kept a worker at ~700 MB. Past this many, the least recently
   * used one is dropped and replayed from its history when it next wakes; continue-as-new keeps
   * those histories short. Well above the lead workflows a production batch starts at once (100).
   */
  maxCachedWorkflows: 250,
  /** Workflow tasks run at once (SDK default). Can't exceed maxCachedWorkflows. */
  maxConcurrentWorkflowTaskExecutions: 40,
  /**
   * Workflow task polls open at once, sticky and normal queue together (SDK default: a fixed
   * min(10, maxConcurrentWorkflowTaskExecutions)). `maxConcurrentWorkflowTaskPolls` is declared by
   * SDK 1.24 but not read by its worker: this option is the one that counts.
   */
  workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 10 },
  /**
   * Share of the workflow task polls that go to the task queue itself rather than to this
   * worker's sticky queue. Every lead workflow's first (and usually only) task comes from the
   * task queue, so 8 of the 10 polls fetch them; the SDK default 0.2 left 2 (quick pipeline
   * 31.7 → 33.5 leads/s, docs/performance.md).
   */
  nonStickyToStickyPollRatio: 0.8,
  /** Local activities run at once (SDK default): a lead workflow's enrichment and routes. */
  maxConcurrentLocalActivityExecutions: 100,
  /** Activities run at once (SDK default): lead production, retries that outlive local retries. */
  maxConcurrentActivityTaskExecutions: 100,
  /** Activity task polls open at once (SDK default: min(10, maxConcurrentActivityTaskExecutions)). */
  activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 10 },
  /** Activities a workflow task may ask to run eagerly on this worker (SDK default; the dev server must allow it). */
  maxEagerActivityReservationsPerWorkflowTask: 3,
  /** How long the server keeps a workflow's task on this worker's sticky queue before any worker may take it (SDK default). */
  stickyQueueScheduleToStartTimeout: '10s',
  /** One V8 context shared by all workflows of the worker (SDK default): less memory and CPU per workflow. */
  reuseV8Context: true,
} satisfies Partial<WorkerOptions>;

/**
 * The sources' worker (their own task queue): a run syncs its items one after another, so a
 * few activity slots serve every source's run, and slow public sites wait on each other rather
 * than on lead production's 100 slots.
 */
export const sourceWorkerTuning = {
  ...workerTuning,
  maxCachedWorkflows: 20,
  maxConcurrentWorkflowTaskExecutions: 5,
  workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 2 },
  maxConcurrentActivityTaskExecutions: 10,
  activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 2 },
} satisfies Partial<WorkerOptions>;
