import type { TemporalTarget } from '../src/temporal/target';
import { NativeConnection, Runtime, Worker, WorkerOptions, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../activities';
import { Services } from '../src/services';
import { deliveryTaskQueue } from '../src/temporal/contract';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { workerTuning } from './tuning';

export interface WorkerTarget {
  /** Temporal's connection settings (envconfig), the same the process's client uses. */
  temporal: TemporalTarget;
  taskQueue: string;
  /** Defaults to `deliveryTaskQueue` of `taskQueue`. */
  deliveryTaskQueue?: string;
  /** Pre-built bundle (tests, production image); otherwise the workflows folder is bundled at start. */
  workflowBundlePath?: string;
}

/**
 * The workers of one process: the signal task queue (signal workflows, production) and the
 * deliveries' own queue (lead workflows), so a day of retries against slow receivers never
 * competes with evaluation for task slots. Both run the same workflows and activities.
 */
export async function createWorker(
  services: Services,
  target: WorkerTarget,
): Promise<{ worker: Worker; deliveryWorker: Worker; connection: NativeConnection }> {
  installTemporalRuntime(services.logger);
  const connection = await NativeConnection.connect(target.temporal.connection);
  // Bundled once for both workers rather than by each (webpack's time and memory, twice).
  const workflowSource: Pick<WorkerOptions, 'workflowBundle'> = {
    workflowBundle: target.workflowBundlePath
      ? { codePath: target.workflowBundlePath }
      : {
          code: (
            await bundleWorkflowCode({
              workflowsPath: require.resolve('../workflows'),
              logger: Runtime.instance().logger,
            })
          ).code,
        },
  };
  const activities = createActivities(services);
  const worker = await Worker.create({
    connection,
    namespace: target.temporal.namespace,
    taskQueue: target.taskQueue,
    activities,
    ...workflowSource,
    ...workerTuning,
  });
  const deliveryWorker = await Worker.create({
    connection,
    namespace: target.temporal.namespace,
    taskQueue: target.deliveryTaskQueue ?? deliveryTaskQueue({ TEMPORAL_TASK_QUEUE: target.taskQueue }),
    activities,
    ...workflowSource,
    ...workerTuning,
  });
  return { worker, deliveryWorker, connection };
}
