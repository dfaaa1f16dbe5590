import { tracing } from './tracing';
import { loadConfig } from '../src/config';
import { deliveryTaskQueue } from '../src/temporal/contract';
import { createLogger } from '../src/logger';
import { openDatabase } from '../src/db/data-source';
import { closeTemporal, connectTemporal } from '../src/temporal/client';
import { createServices } from '../src/services';
import { warmUpLocations } from '../src/catalogue/locations';
import { createWorker } from './worker';
import { workflowBundlePath } from './workflow-bundle';
import { startDemoFeed } from '../src/providers/data/demo-provider';
import { findFreePort } from '../src/net/ports';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { sdkMetricsSource, serveProcessMetrics } from '../src/metrics/metrics-server';
import { WorkerDeployments, workerVersionOf } from '../src/temporal/worker-deployment';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  const db = await openDatabase(config.DATABASE_URL);
  // Against a cluster or Temporal Cloud nothing else registers the search attributes; the dev server has them.
  const temporal = await connectTemporal(config.TEMPORAL, {
    onRetry: (problem) => logger.warn({ problem }, 'waiting for Temporal to accept the search attributes'),
  });
  const services = createServices({ db, config, logger, temporal });
  // The SDK's metrics come from its core on a loopback port of their own; /metrics serves them with ours.
  const sdkMetrics = config.METRICS_PORT === undefined ? undefined : `127.0.0.1:${await findFreePort()}`;
  installTemporalRuntime(logger, { prometheusBindAddress: sdkMetrics });
  const metricsServer = await serveProcessMetrics(
    services.metrics,
    config,
    sdkMetrics ? [sdkMetricsSource(sdkMetrics)] : [],
  );
  if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');
  // Index the gazetteer now rather than inside the first request or evaluation that needs it.
  warmUpLocations();
  const version = workerVersionOf(config);
  const { worker, deliveryWorker, sourceWorker, connection } = await createWorker(services, {
    deployment: version,
    temporal: config.TEMPORAL,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deliveryTaskQueue: deliveryTaskQueue(config),
    workflowBundlePath: workflowBundlePath(process.env.WORKFLOW_BUNDLE_PATH),
  });
  // Worker.run installs SIGINT/SIGTERM handlers that drain in-flight tasks before resolving.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker polling');
  const running = Promise.all([worker.run(), deliveryWorker.run(), sourceWorker.run()]);
  if (version) {
    // Registered by polling, so only now: a first start makes itself current (TEMPORAL_DEPLOYMENT_PROMOTE).
    const deployments = new WorkerDeployments(temporal, config.TEMPORAL_NAMESPACE);
    const promoted = await deployments.promote(version, config.TEMPORAL_DEPLOYMENT_PROMOTE);
    const current = (await deployments.describe(version.deploymentName))?.currentBuildId ?? null;
    logger.info(
      { ...version, current, promoted },
      current === version.buildId ? 'worker version is current' : 'worker version is not current: it takes no new work',
    );
  }
  // The schedule mends activations Temporal missed from now on; this run mends those made before.
  await services.signalReconciliation.schedule();
  const reconciled = await services.signalReconciliation.reconcile().catch((err: unknown) => {
    logger.warn({ err }, 'could not reconcile the signal workflows; the schedule tries again within a minute');
    return undefined;
  });
  if (reconciled)
    logger.info(
      { active: reconciled.active, started: reconciled.started.length },
      'active signals have their workflows',
    );
  // Each source's schedule; with no boards known a run lists nothing and ends at once.
  await services.sources.schedules.ensure(services.sources.names).catch((err: unknown) => {
    logger.warn({ err }, 'could not create the sources schedules; the next worker start tries again');
  });
  await services.crmSyncSchedules.ensureForSignals().catch((err: unknown) => {
    logger.warn({ err }, 'could not create the CRM sync schedules; the next worker start tries again');
  });
  const demoFeed = config.DEMO_DATA
    ? await startDemoFeed(services, logger, { intervalMs: config.DEMO_FEED_INTERVAL })
    : undefined;
  await running;
  await demoFeed?.stop();
  // Rows the last source runs wrote still wake their signals.
  await services.arrivals.close();
  await services.documents.close();
  await metricsServer?.close();
  await connection.close();
  await closeTemporal(temporal);
  await db.destroy();
  await tracing?.shutdown();
  logger.info('worker stopped');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
