import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { recordProbeStep } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '2 seconds' },
});

export const proceedSignal = defineSignal('proceed');

/**
 * The wiring check: two activity steps that touch PostgreSQL, parted by a signal, so a test
 * can stop the worker between them and prove the workflow completes on a new worker.
 */
export async function probeWorkflow(probeId: string): Promise<number> {
  let proceed = false;
  setHandler(proceedSignal, () => {
    proceed = true;
  });
  await recordProbeStep(probeId, 1);
  await condition(() => proceed);
  return recordProbeStep(probeId, 2);
}
