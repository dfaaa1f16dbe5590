/**
 * Ceiling (b) of the pipeline: the least work Temporal can do per workflow execution, in the
 * shape the pipeline once had per lead. A parent starts children in batches, abandoned and all
 * at once (batches of 100, continue-as-new every 500 children), and each child runs one
 * activity that does nothing. The bench turns its executions/s into leads/s with the workflow
 * executions the pipeline was counted to spend per lead. Bundled by the bench's own worker only.
 */
import { ParentClosePolicy, continueAsNew, proxyActivities, startChild } from '@temporalio/workflow';

export interface CeilingActivities {
  arrive(runId: string, index: number): Promise<void>;
}

const { arrive } = proxyActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });

export interface CeilingParentInput {
  runId: string;
  total: number;
  /** Children per hand-off: the signal workflow's production batch (100). */
  batch: number;
  /** Children per run before continue-as-new: the signal workflow's CHILDREN_PER_RUN (500). */
  perRun: number;
  from?: number;
}

export async function ceilingParent(input: CeilingParentInput): Promise<void> {
  let next = input.from ?? 0;
  let thisRun = 0;
  while (next < input.total) {
    const end = Math.min(next + input.batch, input.total);
    const starts: Promise<unknown>[] = [];
    for (let index = next; index < end; index++) {
      starts.push(
        startChild(ceilingChild, {
          workflowId: `ceiling:${input.runId}:${index}`,
          args: [input.runId, index],
          parentClosePolicy: ParentClosePolicy.ABANDON,
        }),
      );
    }
    await Promise.all(starts);
    thisRun += end - next;
    next = end;
    if (next < input.total && thisRun >= input.perRun) await continueAsNew<typeof ceilingParent>({ ...input, from: next });
  }
}

export async function ceilingChild(runId: string, index: number): Promise<void> {
  await arrive(runId, index);
}
