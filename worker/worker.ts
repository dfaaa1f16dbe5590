import type { TemporalTarget } from '../src/temporal/target';
import { NativeConnection, Runtime, Worker, WorkerOptions, bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../activities';
import { Services } from '../src/services';
import { deliveryTaskQueue, sourceTaskQueue } from '../src/temporal/contract';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { activityTracingInterceptors } from '../src/telemetry/temporal';
import { sourceWorkerTuning, workerTuning } from './tuning';
import { replayCheckOptions } from './replay-mode';
import type { WorkerDeploymentVersion } from '@temporalio/common';

export interface WorkerTarget {
  /** Temporal's connection settings (envconfig), the same the process's client uses. */
  temporal: TemporalTarget;
  taskQueue: string;
  /** Defaults to `deliveryTaskQueue` of `taskQueue`. */
  deliveryTaskQueue?: string;
  /** Pre-built bundle (tests, production image); otherwise the workflows folder is bundled at start. */
  workflowBundlePath?: string;
  /** The Worker Deployment version these workers are (docs/decisions/deploys.md); unversioned when unset. */
  deployment?: WorkerDeploymentVersion;
}

/**
 * The workers of one process: the signal task queue (signal workflows, production) and the
 * deliveries' own queue (lead workflows), so a day of retries against slow receivers never
 * competes with evaluation for task slots. Both run the same workflows and activities.
 */
export async function createWorker(
  services: Services,
  target: WorkerTarget,
): Promise<{ worker: Worker; deliveryWorker: Worker; sourceWorker: Worker; connection: NativeConnection }> {
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
  // Workflows move to each new current version unless they pin themselves, as all but the
  // signal workflow do (workflows/index.ts); an unversioned worker must name no behaviour at all.
  const versioning: Pick<WorkerOptions, 'workerDeploymentOptions'> = target.deployment
    ? {
        workerDeploymentOptions: {
          useWorkerVersioning: true,
          version: target.deployment,
          defaultVersioningBehavior: 'AUTO_UPGRADE',
        },
      }
    : {};
  // Spans of activities while tracing is on (src/telemetry/temporal.ts); no workflow interceptor.
  const interceptors = { activity: activityTracingInterceptors() };
  const worker = await Worker.create({
    connection,
    namespace: target.temporal.namespace,
    taskQueue: target.taskQueue,
    activities,
    interceptors,
    ...workflowSource,
    ...workerTuning,
    ...replayCheckOptions(services.config),
    ...versioning,
  });
  const deliveryWorker = await Worker.create({
    connection,
    namespace: target.temporal.namespace,
    taskQueue: target.deliveryTaskQueue ?? deliveryTaskQueue({ TEMPORAL_TASK_QUEUE: target.taskQueue }),
    activities,
    interceptors,
    ...workflowSource,
    ...workerTuning,
    ...replayCheckOptions(services.config),
    ...versioning,
  });
  // The sources' runs on their own queue and slots (src/temporal/contract/task-queues.ts).
  const sourceWorker = await Worker.create({
    connection,
    namespace: target.temporal.namespace,
    taskQueue: sourceTaskQueue({ TEMPORAL_TASK_QUEUE: target.taskQueue }),
    activities,
    interceptors,
    ...workflowSource,
    ...sourceWorkerTuning,
    ...replayCheckOptions(services.config),
    ...versioning,
  });
  return { worker, deliveryWorker, sourceWorker, connection };
}
