import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

const FETCHES_AT_ONCE = 20;
const WORKFLOW_TASK_COMPLETED = temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED;

/** `npm run test:replay` sets it: every test file's workflows are replayed from their histories at its end. */
export const replayMode = process.env.TEST_REPLAY_MODE === '1';

/**
 * Replays the whole history of every workflow that ran on these task queues, finished or not,
 * on this commit's workflow bundle, as a worker that evicted it (or a query after it finished)
 * would: any command the code would not make again is a nondeterminism error, named here.
 */
export async function replayTaskQueues(client: Client, taskQueues: string[]): Promise<string[]> {
  const executions: Array<{ workflowId: string; runId: string }> = [];
  for (const taskQueue of taskQueues) {
    for await (const execution of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) {
      executions.push({ workflowId: execution.workflowId, runId: execution.runId });
    }
  }
  // Fetched a batch at a time: a fault test leaves hundreds of lead workflows.
  const histories = [];
  for (let i = 0; i < executions.length; i += FETCHES_AT_ONCE) {
    const batch = executions.slice(i, i + FETCHES_AT_ONCE);
    histories.push(
      ...(await Promise.all(
        batch.map(async ({ workflowId, runId }) => ({
          workflowId: `${workflowId} (${runId})`,
          history: await client.workflow.getHandle(workflowId, runId).fetchHistory(),
        })),
      )),
    );
  }
  // A history with no completed workflow task recorded no command to check, and the replayer waits
  // forever for its first task (a run started just before its file stopped the workers).
  const checkable = histories.filter(({ history }) =>
    history.events?.some((event) => event.eventType === WORKFLOW_TASK_COMPLETED),
  );
  const failures: string[] = [];
  const workflowBundle = { codePath: process.env.TEST_WORKFLOW_BUNDLE! };
  for await (const result of Worker.runReplayHistories({ workflowBundle }, checkable)) {
    if (result.error) failures.push(`${result.workflowId}: ${String(result.error)}`);
  }
  return failures;
}

/** Fails a test file whose workflows do not replay. */
export function assertReplayed(failures: string[]): void {
  if (failures.length > 0)
    throw new Error(`${failures.length} workflow history(ies) did not replay:\n${failures.join('\n')}`);
}
