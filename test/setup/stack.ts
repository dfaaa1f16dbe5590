import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { openDatabase } from '../../src/db/data-source';
import { closeTemporal, connectTemporal } from '../../src/temporal/client';
import { createServices, type Services } from '../../src/services';
import { startApi, type RunningApi } from '../../api/server';
import { createWorker } from '../../worker/worker';
import { createTestDatabase } from './database';
import {
  deliveryTaskQueue,
  signalReconciliationScheduleId,
  signalSweepScheduleId,
  sourceTaskQueue,
} from '../../src/temporal/contract';
import { WorkerDeployments, workerVersionOf } from '../../src/temporal/worker-deployment';
import { assertReplayed, replayMode, replayTaskQueues } from './replay-check';
import { forgetMailbox, LocalMailbox, registerMailbox } from './mailbox';

/** The hook time-out for a file's stack start: a loaded machine took 30–130 s to start one. */
export const STACK_START_MS = 240_000;
/** A start slower than this prints where its time went. */
const SLOW_START_MS = 30_000;

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface RunningWorker {
  worker: Worker;
  /** The deliveries' task queue worker. */
  deliveryWorker: Worker;
  /** The sources' task queue worker. */
  sourceWorker: Worker;
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
  /** The local SMTP server the service mails (sign-up links) to; absent when the test set SMTP_URL itself. */
  mailbox?: LocalMailbox;
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
  const started = Date.now();
  const steps: string[] = [];
  // A start that hangs in CI should say where: each step's time is printed when the start is slow.
  const timed = async <T>(step: string, work: Promise<T>): Promise<T> => {
    const at = Date.now();
    try {
      return await work;
    } finally {
      steps.push(`${step} ${Date.now() - at} ms`);
    }
  };
  const stillGoing = setTimeout(
    () =>
      console.warn(`test stack start still going after ${SLOW_START_MS} ms; done: ${steps.join(', ') || 'nothing'}`),
    SLOW_START_MS,
  ).unref();
  // Every stack mails a real local SMTP server, so a sign-up can be finished from its mail.
  const mailbox = options.env && 'SMTP_URL' in options.env ? undefined : await timed('mailbox', LocalMailbox.start());
  const database = await timed('database', createTestDatabase());
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
    // Loud, not stuck: a workflow that does not replay fails (and the global teardown names it).
    WORKFLOW_FAIL_ON_NONDETERMINISM: 'true',
    // The service wakes signals on arrival by default; a test steps its signals' evaluations
    // (timer, evaluate endpoint, messages) unless it opts in (test/evaluation/wake-on-arrival.test.ts).
    SIGNAL_WAKE_ON_ARRIVAL: 'false',
    ...(process.env.WORKER_MAX_CACHED_WORKFLOWS
      ? { WORKER_MAX_CACHED_WORKFLOWS: process.env.WORKER_MAX_CACHED_WORKFLOWS }
      : {}),
    // A loaded test machine can take seconds to start a workflow: only the fault tests bound it to 1 s.
    TEMPORAL_ANSWER_WAIT_MS: '10000',
    ...(mailbox ? { SMTP_URL: mailbox.url } : {}),
    ...options.env,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test', options.logDestination);
  const db = await timed('pool', openDatabase(config.DATABASE_URL, 5));
  const temporal = await timed('temporal client', connectTemporal(config.TEMPORAL));
  const services = createServices({ db, config, logger, temporal });
  const api = await timed('api', startApi(services, 0, '127.0.0.1'));

  if (mailbox) registerMailbox(api.url, mailbox);

  const stack: Stack = {
    config,
    db,
    temporal,
    services,
    api,
    url: api.url,
    mailbox,
    async startWorker() {
      // With TEMPORAL_DEPLOYMENT_NAME the workers are a version of it, made current as worker/main.ts does.
      const version = workerVersionOf(config);
      const { worker, deliveryWorker, sourceWorker, connection } = await createWorker(services, {
        temporal: config.TEMPORAL,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
        deployment: version,
      });
      const running = Promise.all([worker.run(), deliveryWorker.run(), sourceWorker.run()]).then(() => undefined);
      if (version) {
        await new WorkerDeployments(temporal, config.TEMPORAL_NAMESPACE).promote(
          version,
          config.TEMPORAL_DEPLOYMENT_PROMOTE,
        );
      }
      stack.worker = { worker, deliveryWorker, sourceWorker, connection, running };
      return stack.worker;
    },
    async stopWorker() {
      const current = stack.worker;
      if (!current) return;
      stack.worker = undefined;
      current.worker.shutdown();
      current.deliveryWorker.shutdown();
      current.sourceWorker.shutdown();
      await current.running;
      await current.connection.close();
    },
    async stop() {
      await stack.stopWorker();
      // Replay mode: every workflow of this file replays from its history before anything goes.
      const notReplayed = replayMode
        ? await replayTaskQueues(temporal, [
            config.TEMPORAL_TASK_QUEUE,
            deliveryTaskQueue(config),
            sourceTaskQueue(config),
          ]).catch((err: unknown) => [`could not replay this file's workflows: ${String(err)}`])
        : [];
      // A worker process (worker/main.ts) creates its task queue's reconciliation schedules: not left firing.
      for (const scheduleId of [signalReconciliationScheduleId, signalSweepScheduleId])
        await temporal.schedule
          .getHandle(scheduleId(config.TEMPORAL_TASK_QUEUE))
          .delete()
          .catch(() => undefined);
      await services.sources.schedules.deleteAll(services.sources.names);
      await api.close();
      forgetMailbox(api.url);
      await mailbox?.close();
      await services.arrivals.close();
      await closeTemporal(temporal);
      await db.destroy();
      await database.drop();
      assertReplayed(notReplayed);
    },
  };
  if (options.worker !== false) await timed('workers', stack.startWorker());
  clearTimeout(stillGoing);
  if (Date.now() - started > SLOW_START_MS) console.warn(`slow test stack start: ${steps.join(', ')}`);
  return stack;
}
