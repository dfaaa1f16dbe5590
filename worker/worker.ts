import { NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { Services } from '../src/services';
import { installTemporalRuntime } from '../src/temporal/runtime';

export interface WorkerTarget {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Pre-built bundle (tests, production image); otherwise the workflows folder is bundled at start. */
  workflowBundlePath?: string;
}

/** The worker for the signal task queue: workflows and their activities. */
export async function createWorker(services: Services, target: WorkerTarget): Promise<{ worker: Worker; connection: NativeConnection }> {
  installTemporalRuntime(services.logger);
  const connection = await NativeConnection.connect({ address: target.address });
  const workflowSource: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = target.workflowBundlePath
    ? { workflowBundle: { codePath: target.workflowBundlePath } }
    : { workflowsPath: require.resolve('../workflows') };
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: target.taskQueue,
    activities: createActivities(services),
    ...workflowSource,
  });
  return { worker, connection };
}
