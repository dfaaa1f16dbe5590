import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../infra/postgres/embedded';
import type { TestInfrastructure } from '../setup/global-teardown';

/**
 * Once per `npm run test:cluster`: a PostgreSQL server (embedded unless DATABASE_URL is set)
 * for the cluster's Temporal server and the service, passed on as TEST_DATABASE_URL, and a
 * temporary folder (TEST_CLUSTER_DIR). The teardown is the main suite's.
 */
export default async function globalSetup(): Promise<void> {
  const infrastructure: TestInfrastructure = { tmpDir: mkdtempSync(path.join(tmpdir(), 'intent-leads-cluster-')) };
  chmodSync(infrastructure.tmpDir, 0o711); // As root, PostgreSQL runs as "postgres" and must enter it.
  globalThis.__intentLeadsTestInfrastructure = infrastructure;
  let url = process.env.DATABASE_URL;
  if (!url) {
    infrastructure.postgres = await startEmbeddedPostgres({
      dataDir: path.join(infrastructure.tmpDir, 'postgres'),
      persistent: false,
    });
    url = infrastructure.postgres.url;
  }
  process.env.TEST_DATABASE_URL = url;
  process.env.TEST_CLUSTER_DIR = infrastructure.tmpDir;
}
