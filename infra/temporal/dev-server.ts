import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { assertPortFree, findFreePort } from '../net/ports';
import { findTemporalCli, missingTemporalCliMessage } from './cli';
import { devServerSearchAttributeFlags, searchAttributeKeys } from '../../src/temporal/contract/search-attributes';
import { superviseServerProcess } from './server-process';

export interface DevServerOptions {
  /** Frontend gRPC port; 0 or undefined picks a free one. */
  port?: number;
  /** Web UI port; 0 or undefined picks a free one. Ignored when headless. */
  uiPort?: number;
  headless?: boolean;
  /** SQLite file that keeps state across restarts; in memory when undefined. */
  dbFilename?: string;
  namespace?: string;
  logLevel?: string;
  onLog?: (line: string) => void;
  /** Dynamic config beside {@link SERVER_DYNAMIC_CONFIG} (the tests' shorter drainage checks). */
  dynamicConfig?: DynamicConfig;
}

export interface RunningDevServer {
  /** `host:port` of the frontend, for `Connection.connect` and `TEMPORAL_ADDRESS`. */
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
  /** Resolves when the server process ends, whether by stop() or not (never, for the SDK's). */
  exited: Promise<void>;
}

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
/**
 * SQLite settings of a dev server kept in a file (`npm start`): write-ahead logging, synced at
 * checkpoints instead of at every commit. SQLite's default, a rollback journal synced on every
 * commit, made the server 3–4× slower on a 2-core machine (docs/performance.md). A crash may
 * lose the last moments of workflow state but leaves the file consistent: right for a dev server.
 */
const FILE_SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];
const sqlitePragmaFlags = (dbFilename?: string) =>
  dbFilename ? FILE_SQLITE_PRAGMAS.flatMap((pragma) => ['--sqlite-pragma', pragma]) : [];
/** Dynamic config values (JSON values: the CLI's flags and the cluster's YAML file both read them). */
export type DynamicConfig = Readonly<Record<string, boolean | number | string>>;
/**
 * Eager activity execution (off by default in servers up to 1.31): the signal workflow's
 * production activity comes back with the workflow task's answer instead of a poll later.
 * Worker Deployments (Worker Versioning, docs/decisions/deploys.md): on by default in 1.29 and
 * 1.32, written out so that a server whose default differs still allows them.
 */
export const SERVER_DYNAMIC_CONFIG: DynamicConfig = {
  'system.enableActivityEagerExecution': true,
  'system.enableDeploymentVersions': true,
  'frontend.workerVersioningWorkflowAPIs': true,
};
const serverFlags = (dbFilename?: string, extra: DynamicConfig = {}) => [
  ...sqlitePragmaFlags(dbFilename),
  ...Object.entries({ ...SERVER_DYNAMIC_CONFIG, ...extra }).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]),
];

/**
 * A Temporal dev server with this project's search attributes registered, ready to serve
 * when the promise resolves: the frontend answers, the namespace exists, the attributes are
 * visible. Uses the `temporal` CLI found by {@link findTemporalCli}; without one, the SDK's
 * own download (needs internet).
 */
export async function startTemporalDevServer(opts: DevServerOptions = {}): Promise<RunningDevServer> {
  const namespace = opts.namespace ?? 'default';
  const port = await choosePort(opts.port, 'the Temporal dev server');
  const uiPort = opts.headless ? undefined : await choosePort(opts.uiPort, 'the Temporal Web UI');
  if (opts.dbFilename) mkdirSync(path.dirname(path.resolve(opts.dbFilename)), { recursive: true });
  const settings = {
    port,
    uiPort,
    namespace,
    dbFilename: opts.dbFilename,
    logLevel: opts.logLevel ?? 'warn',
    dynamicConfig: opts.dynamicConfig,
  };

  const cli = findTemporalCli();
  const server = cli ? spawnCliServer(cli, settings, opts.onLog) : await startDownloadedServer(settings);
  try {
    await waitUntilReady(server.address, namespace, server.failure);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { address: server.address, uiUrl: server.uiUrl, stop: server.stop, exited: server.exited };
}

interface ServerSettings {
  port: number;
  uiPort?: number;
  namespace: string;
  dbFilename?: string;
  logLevel: string;
  dynamicConfig?: DynamicConfig;
}

interface StartingServer extends RunningDevServer {
  /** Set once the server can no longer become ready (its process died). */
  failure(): Error | undefined;
}

async function choosePort(requested: number | undefined, purpose: string): Promise<number> {
  if (!requested) return findFreePort(HOST);
  await assertPortFree(requested, purpose, HOST);
  return requested;
}

function uiUrlOf(settings: ServerSettings): string | undefined {
  return settings.uiPort === undefined ? undefined : `http://${HOST}:${settings.uiPort}`;
}

function spawnCliServer(cli: string, settings: ServerSettings, onLog?: (line: string) => void): StartingServer {
  const args = [
    'server',
    'start-dev',
    '--ip',
    HOST,
    '--port',
    String(settings.port),
    ...(settings.uiPort === undefined ? ['--headless'] : ['--ui-port', String(settings.uiPort)]),
    ...(settings.dbFilename ? ['--db-filename', settings.dbFilename] : []),
    ...serverFlags(settings.dbFilename, settings.dynamicConfig),
    '--namespace',
    settings.namespace,
    '--log-level',
    settings.logLevel,
    ...devServerSearchAttributeFlags(),
  ];
  const server = superviseServerProcess(cli, args, 'temporal dev server', onLog);
  return { address: `${HOST}:${settings.port}`, uiUrl: uiUrlOf(settings), ...server };
}

async function startDownloadedServer(settings: ServerSettings): Promise<StartingServer> {
  // Loaded only here: it pulls in the native worker runtime, which nothing else needs.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        ip: HOST,
        port: settings.port,
        namespace: settings.namespace,
        dbFilename: settings.dbFilename,
        ui: settings.uiPort !== undefined,
        uiPort: settings.uiPort,
        searchAttributes: [...searchAttributeKeys],
        extraArgs: serverFlags(settings.dbFilename, settings.dynamicConfig),
        log: { format: 'pretty', level: settings.logLevel },
      },
    });
    let stopping: Promise<void> | undefined;
    return {
      address: env.address,
      uiUrl: uiUrlOf(settings),
      stop: () => (stopping ??= env.teardown()),
      exited: new Promise<void>(() => undefined),
      failure: () => undefined,
    };
  } catch (err) {
    throw new Error(
      `${missingTemporalCliMessage()}\nThe last resort, the SDK downloading a dev server, failed too: ${(err as Error).message}`,
      { cause: err },
    );
  }
}

async function waitUntilReady(address: string, namespace: string, failure: () => Error | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    const failed = failure();
    if (failed) throw failed;
    const problem = await probe(address, namespace);
    if (!problem) return;
    lastProblem = problem;
    await sleep(250);
  }
  throw new Error(`temporal dev server at ${address} was not ready within ${READY_TIMEOUT_MS / 1000}s: ${lastProblem}`);
}

/** Undefined when the server is ready, else what is still missing. */
async function probe(address: string, namespace: string): Promise<string | undefined> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: '2s' });
    await connection.workflowService.describeNamespace({ namespace });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = searchAttributeKeys.filter((key) => !customAttributes?.[key.name]).map((key) => key.name);
    return missing.length ? `search attributes not registered: ${missing.join(', ')}` : undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}
