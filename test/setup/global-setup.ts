import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { startEmbeddedPostgres } from '../../infra/postgres/embedded';
import { startTemporalDevServer } from '../../infra/temporal/dev-server';
import { prepareTestTemplate } from './database';
import globalTeardown, { type TestInfrastructure } from './global-teardown';

/**
 * Once per `npm test`: one PostgreSQL (embedded unless DATABASE_URL is set), one in-memory
 * Temporal dev server and one workflow bundle, handed to the test workers through
 * TEST_DATABASE_URL, TEST_TEMPORAL_ADDRESS and TEST_WORKFLOW_BUNDLE (jest starts its
 * workers with this process's environment).
 */
/**
 * A version that stopped being current is checked for open pinned workflows every 3 minutes by
 * default: seconds here, so that the deploy test sees it drained (test/deploy/).
 */
const TEST_DYNAMIC_CONFIG = {
  'matching.wv.VersionDrainageStatusRefreshInterval': '1s',
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '1s',
};

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const infrastructure: TestInfrastructure = { tmpDir: mkdtempSync(path.join(tmpdir(), 'intent-leads-test-')) };
  // Run as root, PostgreSQL runs as "postgres" and must be able to enter this directory.
  chmodSync(infrastructure.tmpDir, 0o711);
  globalThis.__intentLeadsTestInfrastructure = infrastructure;

  // Independent, so they run side by side; each still reports its own time.
  const results = await Promise.allSettled([
    database(infrastructure),
    timed('Temporal dev server', () =>
      startTemporalDevServer({ headless: true, dynamicConfig: TEST_DYNAMIC_CONFIG }),
    ).then((server) => {
      infrastructure.temporal = server;
      return server.address;
    }),
    timed('workflow bundle', () => bundleWorkflows(infrastructure.tmpDir)),
  ]);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await globalTeardown().catch(() => undefined);
    throw failure.reason;
  }
  const [databaseUrl, temporalAddress, bundlePath] = results.map(
    (result) => (result as PromiseFulfilledResult<string>).value,
  );
  process.env.TEST_DATABASE_URL = databaseUrl;
  process.env.TEST_TEMPORAL_ADDRESS = temporalAddress;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  log(`ready: ${Date.now() - started} ms`);
}

async function database(infrastructure: TestInfrastructure): Promise<string> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    const postgres = await timed('embedded PostgreSQL', () =>
      startEmbeddedPostgres({ dataDir: path.join(infrastructure.tmpDir, 'postgres'), persistent: false }),
    );
    infrastructure.postgres = postgres;
    url = postgres.url;
  }
  const serverUrl = url;
  await timed('template database', () => prepareTestTemplate(serverUrl));
  return serverUrl;
}

async function bundleWorkflows(dir: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: new DefaultLogger('WARN'),
  });
  const file = path.join(dir, 'workflow-bundle.js');
  writeFileSync(file, code);
  return file;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  log(`${label}: ${Date.now() - started} ms`);
  return result;
}

function log(line: string): void {
  console.log(`[global-setup] ${line}`);
}
