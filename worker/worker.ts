import { NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { Services } from '../src/services';
import { deliveryTaskQueue } from '../src/config';
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
  const workflowSource: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = target.workflowBundlePath
    ? { workflowBundle: { codePath: target.workflowBundlePath } }
    : { workflowsPath: require.resolve('../workflows') };
  const activities = createActivities(services);
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: target.taskQueue,
    activities,
    ...workflowSource,
  });
  const deliveryWorker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: target.deliveryTaskQueue ?? deliveryTaskQueue({ TEMPORAL_TASK_QUEUE: target.taskQueue }),
    activities,
    ...workflowSource,
  });
  return { worker, deliveryWorker, connection };
}
