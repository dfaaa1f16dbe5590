import type { WorkerOptions } from '@temporalio/worker';
import type { Config } from '../src/config';

/**
 * Worker options about replay. `WORKFLOW_FAIL_ON_NONDETERMINISM` fails a workflow whose code
 * does not replay (SDK 1.24 `workflowFailureErrorTypes`) where a test sees it, instead of
 * retrying its task forever; production keeps it off (a stuck task waits for fixed code, a
 * failed workflow would not). `WORKER_MAX_CACHED_WORKFLOWS` sizes the workflow cache; 0 makes
 * every task replay the whole history, but SDK 1.24 then drops or repeats local activities in
 * flight (the lead workflow's attempts), so the replay mode replays finished histories instead
 * (test/setup/replay-check.ts, docs/decisions/delivery.md).
 */
export function replayCheckOptions(
  config: Pick<Config, 'WORKER_MAX_CACHED_WORKFLOWS' | 'WORKFLOW_FAIL_ON_NONDETERMINISM'>,
): Pick<WorkerOptions, 'maxCachedWorkflows' | 'workflowFailureErrorTypes'> {
  return {
    ...(config.WORKER_MAX_CACHED_WORKFLOWS === undefined
      ? {}
      : { maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS }),
    ...(config.WORKFLOW_FAIL_ON_NONDETERMINISM ? { workflowFailureErrorTypes: { '*': ['NondeterminismError'] } } : {}),
  };
}
