import { NativeConnection, Runtime, Worker, WorkerOptions, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../activities';
import { Services } from '../src/services';
import { deliveryTaskQueue } from '../src/temporal/contract';
import { installTemporalRuntime } from '../src/temporal/runtime';

export interface WorkerTarget {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Defaults to `deliveryTaskQueue` of `taskQueue`. */
  deliveryTaskQueue?: string;
  /** Pre-built bundle (tests, production image); otherwise the workflows folder is bundled at start. */
  workflowBundlePath?: string;
}

/**
 * Workflow executions each worker keeps in memory between their tasks (the SDK's sticky cache).
 * The SDK sizes it from the heap limit (about 2,300 for a 4 GB heap), and an idle signal
 * workflow held there costs ~0.3 MB, so 1,000 active signals kept a worker at ~700 MB
 * (docs/performance.md). Past this many, the least recently used one is dropped and replayed
 * from its history when it next wakes; continue-as-new keeps those histories short. Well above
 * the lead workflows a production batch hands off at once (100), so lead production does not
 * replay.
 */
const MAX_CACHED_WORKFLOWS = 250;

/**
 * The workers of one process: the signal task queue (signals, leads) and the deliveries' own
 * queue, so a day of retries against slow receivers never competes with lead production for
 * task slots. Both run the same workflows and activities.
 */
export async function createWorker(
  services: Services,
  target: WorkerTarget,
): Promise<{ worker: Worker; deliveryWorker: Worker; connection: NativeConnection }> {
  installTemporalRuntime(services.logger);
  const connection = await NativeConnection.connect({ address: target.address });
  // Bundled once for both workers rather than by each (webpack's time and memory, twice).
  const workflowSource: Pick<WorkerOptions, 'workflowBundle'> = {
    workflowBundle: target.workflowBundlePath
      ? { codePath: target.workflowBundlePath }
      : { code: (await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: Runtime.instance().logger })).code },
  };
  const activities = createActivities(services);
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: target.taskQueue,
    activities,
    ...workflowSource,
    maxCachedWorkflows: MAX_CACHED_WORKFLOWS,
  });
  const deliveryWorker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: target.deliveryTaskQueue ?? deliveryTaskQueue({ TEMPORAL_TASK_QUEUE: target.taskQueue }),
    activities,
    ...workflowSource,
    maxCachedWorkflows: MAX_CACHED_WORKFLOWS,
  });
  return { worker, deliveryWorker, connection };
}
