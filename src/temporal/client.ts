import { Client, Connection } from '@temporalio/client';
import { clientTracingInterceptors } from '../telemetry/temporal';
import { registerSearchAttributes, type RegistrationOptions } from './search-attribute-registration';
import type { TemporalTarget } from './target';

export type { TemporalTarget };

/**
 * One connection per process, injected wherever workflows are started or signalled. With
 * `registration`, the namespace's search attributes are made sure of first (service start-up).
 */
export async function connectTemporal(target: TemporalTarget, registration?: RegistrationOptions): Promise<Client> {
  const connection = await Connection.connect(target.connection);
  if (registration) {
    try {
      await registerSearchAttributes(connection, target.namespace, registration);
    } catch (err) {
      await connection.close();
      throw err;
    }
  }
  return new Client({ connection, namespace: target.namespace, interceptors: clientTracingInterceptors() });
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
