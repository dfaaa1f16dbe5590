import { tracing } from './tracing';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { openDatabase } from '../src/db/data-source';
import { closeTemporal, connectTemporal } from '../src/temporal/client';
import { createServices } from '../src/services';
import { warmUpLocations } from '../src/catalogue/locations';
import { startApi } from './server';
import { serveProcessMetrics } from '../src/metrics/metrics-server';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const db = await openDatabase(config.DATABASE_URL);
  // Against a cluster or Temporal Cloud nothing else registers the search attributes; the dev server has them.
  const temporal = await connectTemporal(config.TEMPORAL, {
    onRetry: (problem) => logger.warn({ problem }, 'waiting for Temporal to accept the search attributes'),
  });
  const services = createServices({ db, config, logger, temporal });
  // Index the gazetteer now rather than inside the first request that needs it.
  warmUpLocations();
  const api = await startApi(services, config.PORT);
  logger.info({ url: api.url }, 'api listening');
  const metricsServer = await serveProcessMetrics(services.metrics, config);
  if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await api.close();
    await metricsServer?.close();
    // Rows the last requests wrote still wake their signals.
    await services.arrivals.close();
    await closeTemporal(temporal);
    await db.destroy();
    await tracing?.shutdown();
    logger.info('api stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
