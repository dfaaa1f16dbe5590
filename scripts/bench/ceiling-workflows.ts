/**
 * Ceiling (c) of the pipeline: the least Temporal work in the pipeline's shape. A signal-like
 * parent starts its children a batch at a time, each batch in one workflow task (all starts sent
 * together, parent-close policy ABANDON, awaiting the starts only), and continues as new after
 * `perRun` children; each child runs one local activity that does nothing but note its arrival,
 * so it finishes in one workflow task as a lead whose routes succeed at once does.
 * Bundled by the bench's ceiling worker only.
 */
import { ParentClosePolicy, continueAsNew, proxyLocalActivities, startChild } from '@temporalio/workflow';

export interface CeilingActivities {
  /** Does nothing; the ceiling worker counts the call, as the receiver counts a lead. */
  arrive(runId: string, index: number): Promise<void>;
}

const { arrive } = proxyLocalActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });

export interface CeilingParentInput {
  runId: string;
  total: number;
  /** Children started per workflow task: the signal workflow's production batch (100). */
  batch: number;
  /** Children per run before continue-as-new: the signal workflow's bound (LEADS_PER_SIGNAL_RUN unless the bench is told otherwise). */
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
    if (next < input.total && thisRun >= input.perRun)
      await continueAsNew<typeof ceilingParent>({ ...input, from: next });
  }
}

export async function ceilingChild(runId: string, index: number): Promise<void> {
  await arrive(runId, index);
}
