import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { openDatabase } from '../src/db/data-source';
import { connectTemporal } from '../src/temporal/client';
import { createServices } from '../src/services';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  const db = await openDatabase(config.DATABASE_URL);
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const services = createServices({ db, config, logger, temporal });
  const { worker, connection } = await createWorker(services, {
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE_PATH,
  });
  // Worker.run installs SIGINT/SIGTERM handlers that drain in-flight tasks before resolving.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker polling');
  const running = worker.run();
  const reconciled = await services.signalLifecycle.reconcileActiveSignals();
  logger.info({ reconciled }, 'active signals have their workflows');
  await running;
  await connection.close();
  await temporal.connection.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
