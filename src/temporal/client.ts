import { Client, Connection } from '@temporalio/client';

export interface TemporalTarget {
  address: string;
  namespace: string;
}

/** One connection per process, injected wherever workflows are started or signalled. */
export async function connectTemporal(target: TemporalTarget): Promise<Client> {
  const connection = await Connection.connect({ address: target.address });
  return new Client({ connection, namespace: target.namespace });
}

/** True while at least one worker polled the queue recently; the readiness probe relies on it. */
export async function hasRecentPoller(client: Client, taskQueue: string, withinMs = 90_000): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  const now = Date.now();
  return (response.pollers ?? []).some((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return now - seconds * 1000 < withinMs;
  });
}
