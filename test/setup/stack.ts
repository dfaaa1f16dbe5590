import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { openDatabase } from '../../src/db/data-source';
import { connectTemporal } from '../../src/temporal/client';
import { createServices, type Services } from '../../src/services';
import { startApi, type RunningApi } from '../../api/server';
import { createWorker } from '../../worker/worker';
import { createTestDatabase } from './database';
import { signalReconciliationScheduleId } from '../../src/temporal/contract';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface RunningWorker {
  worker: Worker;
  /** The deliveries' task queue worker. */
  deliveryWorker: Worker;
  connection: NativeConnection;
  running: Promise<void>;
}

export interface Stack {
  config: Config;
  db: DataSource;
  temporal: Client;
  services: Services;
  api: RunningApi;
  url: string;
  worker?: RunningWorker;
  startWorker(): Promise<RunningWorker>;
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The real service for one test file: its own PostgreSQL database and task queue on the
 * shared dev servers, the API on a free port and a worker in this process.
 */
export async function startStack(
  options: { env?: Record<string, string>; worker?: boolean; logDestination?: DestinationStream } = {},
): Promise<Stack> {
  const database = await createTestDatabase();
  const temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) throw new Error('TEST_TEMPORAL_ADDRESS is not set: run the tests through jest (global setup)');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DEMO_DATA: 'false',
    ...options.env,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test', options.logDestination);
  const db = await openDatabase(config.DATABASE_URL, 5);
  const temporal = await connectTemporal(config.TEMPORAL);
  const services = createServices({ db, config, logger, temporal });
  const api = await startApi(services, 0, '127.0.0.1');

  const stack: Stack = {
    config,
    db,
    temporal,
    services,
    api,
    url: api.url,
    async startWorker() {
      const { worker, deliveryWorker, connection } = await createWorker(services, {
        temporal: config.TEMPORAL,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
      });
      const running = Promise.all([worker.run(), deliveryWorker.run()]).then(() => undefined);
      stack.worker = { worker, deliveryWorker, connection, running };
      return stack.worker;
    },
    async stopWorker() {
      const current = stack.worker;
      if (!current) return;
      stack.worker = undefined;
      current.worker.shutdown();
      current.deliveryWorker.shutdown();
      await current.running;
      await current.connection.close();
    },
    async stop() {
      await stack.stopWorker();
      // A worker process (worker/main.ts) creates its task queue's reconciliation schedule: not left firing.
      await temporal.schedule
        .getHandle(signalReconciliationScheduleId(config.TEMPORAL_TASK_QUEUE))
        .delete()
        .catch(() => undefined);
      await services.sources.schedules.deleteAll(services.sources.names);
      await api.close();
      await temporal.connection.close();
      await db.destroy();
      await database.drop();
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}
