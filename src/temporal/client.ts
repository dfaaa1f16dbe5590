import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { clientTracingInterceptors } from '../telemetry/temporal';
import { registerSearchAttributes, type RegistrationOptions } from './search-attribute-registration';
import type { TemporalTarget } from './target';

export type { TemporalTarget };

/**
 * The client's retries (Temporal's default back-off), made safe to close. A retry's timer that
 * fires after the channel closed throws outside any caller and fails the process, and a call an
 * answer stopped waiting for may be between attempts when the process stops. So closing first
 * refuses new retries, then waits out those already scheduled (the back-off caps a delay at 5 s).
 */
class ClosableRetries {
  private readonly defaults = defaultGrpcRetryOptions();
  private closing = false;
  private lastRetryAt = 0;

  readonly interceptor = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !this.closing && this.defaults.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const delay = this.defaults.delayFunction(attempt, status);
      this.lastRetryAt = Math.max(this.lastRetryAt, Date.now() + delay);
      return delay;
    },
  });

  async close(connection: Connection): Promise<void> {
    this.closing = true;
    const scheduled = this.lastRetryAt - Date.now();
    // The retry starts its call on the open channel, which answers it (no more retries) when closed.
    if (scheduled > 0) await sleep(scheduled + 20);
    await connection.close();
  }
}

const retriesOf = new WeakMap<object, ClosableRetries>();

/**
 * One connection per process, injected wherever workflows are started or signalled. With
 * `registration`, the namespace's search attributes are made sure of first (service start-up).
 * Close it with `closeTemporal`.
 */
export async function connectTemporal(target: TemporalTarget, registration?: RegistrationOptions): Promise<Client> {
  const retries = new ClosableRetries();
  const connection = await Connection.connect({ ...target.connection, interceptors: [retries.interceptor] });
  retriesOf.set(connection, retries);
  if (registration) {
    try {
      await registerSearchAttributes(connection, target.namespace, registration);
    } catch (err) {
      await retries.close(connection);
      throw err;
    }
  }
  return new Client({ connection, namespace: target.namespace, interceptors: clientTracingInterceptors() });
}

/** Closes the connection of `connectTemporal` once no retry is left to fire (ClosableRetries). */
export async function closeTemporal(client: Client): Promise<void> {
  const connection = client.connection as Connection;
  const retries = retriesOf.get(connection);
  await (retries ? retries.close(connection) : connection.close());
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
