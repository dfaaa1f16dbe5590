import { rmSync } from 'node:fs';
import type { RunningPostgres } from '../../infra/postgres/embedded';
import type { RunningDevServer } from '../../infra/temporal/dev-server';
import { nondeterministicWorkflows } from './nondeterminism';

/** What global-setup started; jest runs setup and teardown in the same process. */
export interface TestInfrastructure {
  tmpDir: string;
  postgres?: RunningPostgres;
  temporal?: RunningDevServer;
}

declare global {
  var __intentLeadsTestInfrastructure: TestInfrastructure | undefined;
}

/** Stops whatever global-setup got running; also its clean-up when it fails half-way. */
export default async function globalTeardown(): Promise<void> {
  const infrastructure = globalThis.__intentLeadsTestInfrastructure;
  if (!infrastructure) return;
  globalThis.__intentLeadsTestInfrastructure = undefined;
  // Asked before the server stops; only a finished setup has workflows to ask about.
  const nondeterministic = infrastructure.temporal
    ? await nondeterministicWorkflows(infrastructure.temporal.address).catch((err: unknown) => [
        `could not list the failed workflows: ${String(err)}`,
      ])
    : [];
  const started = Date.now();
  const results = await Promise.allSettled([infrastructure.temporal?.stop(), infrastructure.postgres?.stop()]);
  rmSync(infrastructure.tmpDir, { recursive: true, force: true });
  console.log(`[global-teardown] stopped Temporal and PostgreSQL: ${Date.now() - started} ms`);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  if (nondeterministic.length > 0) {
    throw new Error(
      `${nondeterministic.length} workflow(s) failed with a nondeterminism error:\n${nondeterministic.join('\n')}`,
    );
  }
}
