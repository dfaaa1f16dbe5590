import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { Client as PgClient } from 'pg';
import { findFreePort, findFreePortBetween } from '../net/ports';
import { temporalCliCacheDir } from './cli';
import { SERVER_DYNAMIC_CONFIG } from './dev-server';
import { registerSearchAttributes } from '../../src/temporal/search-attribute-registration';
import { superviseServerProcess } from './server-process';

/**
 * The full Temporal server, pinned. docker-compose.yml runs the same version's image with the
 * same values (shards, dynamic config); change them together.
 */
export const TEMPORAL_SERVER_VERSION = '1.32.1';
/** History shards of the cluster mode; fixed once its database exists (Temporal cannot reshard). */
export const CLUSTER_HISTORY_SHARDS = 4;
const MODULE = 'go.temporal.io/server';
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 90_000;
const NAMESPACE_RETENTION_MS = 7 * 86_400_000; // As docker-compose.yml's temporal-setup.

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  /** `schema/postgresql/v12` of the same module version. */
  schemaDir: string;
}

/** Next to the CLI's cache folder, keyed by version, so every clone of this user shares one build. */
export function temporalServerCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(temporalCliCacheDir(env)), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

/**
 * The server and its SQL tool, built with Go into the per-user cache on first use (6–13
 * minutes on 2 cores, then instant), with the PostgreSQL schema files copied beside them.
 */
export async function ensureTemporalServerBuilt(
  onLog: (line: string) => void = () => {},
): Promise<TemporalServerBinaries> {
  const dir = temporalServerCacheDir();
  const binaries = {
    server: path.join(dir, 'server'),
    sqlTool: path.join(dir, 'sql'),
    schemaDir: path.join(dir, 'schema'),
  };
  if (Object.values(binaries).every((file) => existsSync(file))) return binaries;

  const go = process.env.GO ?? 'go';
  const staging = `${dir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  onLog(
    `building the Temporal server ${TEMPORAL_SERVER_VERSION} with Go into ${dir} (first time only, several minutes)`,
  );
  const packages = [
    `${MODULE}/cmd/server@v${TEMPORAL_SERVER_VERSION}`,
    `${MODULE}/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`,
  ];
  // The server's own Makefile builds with these flags.
  await run(go, ['install', '-tags', 'disable_grpc_modules', '-ldflags=-s -w', ...packages], {
    ...process.env,
    GOBIN: staging,
  }).catch((err: Error) => {
    throw new Error(`could not build the Temporal server with Go (${go}); cluster mode needs Go 1.26+: ${err.message}`);
  });
  const modCache = (await run(go, ['env', 'GOMODCACHE'], process.env)).trim();
  cpSync(
    path.join(modCache, `${MODULE}@v${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12'),
    path.join(staging, 'schema'),
    {
      recursive: true,
    },
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  onLog('Temporal server built');
  return binaries;
}

export interface ClusterServerOptions {
  /** A PostgreSQL server the cluster keeps its two databases in (any database name in the URL). */
  databaseUrl: string;
  /** Names of its databases: `<prefix>` and `<prefix>_visibility`. */
  databasePrefix?: string;
  /** Frontend gRPC port; 0 or undefined picks a free one. */
  port?: number;
  namespace?: string;
  /** Where the rendered configuration goes. */
  configDir: string;
  onLog?: (line: string) => void;
}

export interface RunningClusterServer {
  address: string;
  shards: number;
  stop(): Promise<void>;
  exited: Promise<void>;
}

/**
 * A Temporal server with its four services in one process, on PostgreSQL with
 * {@link CLUSTER_HISTORY_SHARDS} history shards: the schema is set up or upgraded (idempotent),
 * the namespace created and this project's search attributes registered before it resolves.
 */
export async function startTemporalClusterServer(options: ClusterServerOptions): Promise<RunningClusterServer> {
  const log = options.onLog ?? (() => {});
  const namespace = options.namespace ?? 'default';
  const binaries = await ensureTemporalServerBuilt(log);
  const database = new URL(options.databaseUrl);
  const prefix = options.databasePrefix ?? 'temporal';
  const names = { main: prefix, visibility: `${prefix}_visibility` };
  await createDatabases(options.databaseUrl, Object.values(names));
  await prepareSchema(binaries, database, names.main, path.join(binaries.schemaDir, 'temporal', 'versioned'));
  await prepareSchema(binaries, database, names.visibility, path.join(binaries.schemaDir, 'visibility', 'versioned'));

  const ports = await freePorts(options.port);
  mkdirSync(options.configDir, { recursive: true });
  const dynamicConfigFile = path.join(options.configDir, 'dynamic-config.yaml');
  writeFileSync(dynamicConfigFile, dynamicConfigYaml());
  const configFile = path.join(options.configDir, 'temporal-server.yaml');
  writeFileSync(configFile, serverConfigYaml({ database, names, ports, dynamicConfigFile }));

  const server = superviseServerProcess(
    binaries.server,
    ['--config-file', configFile, '--allow-no-auth', 'start'],
    'Temporal server',
    log,
  );
  const address = `${HOST}:${ports.frontend}`;
  try {
    await untilReady(address, namespace, server.failure);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { address, shards: CLUSTER_HISTORY_SHARDS, stop: server.stop, exited: server.exited };
}

async function createDatabases(databaseUrl: string, names: string[]): Promise<void> {
  const client = new PgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const name of names) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

/** `setup-schema -v 0.0` then `update-schema`: both no-ops on a database already current. */
async function prepareSchema(binaries: TemporalServerBinaries, database: URL, name: string, versionedDir: string) {
  const connection = [
    '--plugin',
    'postgres12',
    '--endpoint',
    database.hostname,
    '--port',
    database.port || '5432',
    '--user',
    decodeURIComponent(database.username),
    '--db',
    name,
  ];
  // The password goes through the environment, not the process list.
  const env = { ...process.env, SQL_PASSWORD: decodeURIComponent(database.password) };
  await run(binaries.sqlTool, [...connection, 'setup-schema', '-v', '0.0'], env);
  await run(binaries.sqlTool, [...connection, 'update-schema', '-d', versionedDir], env);
}

interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

async function freePorts(frontend?: number): Promise<ServerPorts> {
  const next = () => findFreePort(HOST);
  // Membership ports are stored as smallint in the cluster_membership table.
  const membership = () => findFreePortBetween(20_000, 32_000, HOST);
  return {
    frontend: frontend || (await next()),
    frontendHttp: await next(),
    frontendMembership: await membership(),
    history: await next(),
    historyMembership: await membership(),
    matching: await next(),
    matchingMembership: await membership(),
    worker: await next(),
    workerMembership: await membership(),
  };
}

function dynamicConfigYaml(): string {
  return Object.entries(SERVER_DYNAMIC_CONFIG)
    .map(([key, value]) => `${key}:\n  - value: ${JSON.stringify(value)}\n`)
    .join('');
}

/** Modelled on the module's config/development-postgres12.yaml; values are JSON, which YAML reads. */
function serverConfigYaml(input: {
  database: URL;
  names: { main: string; visibility: string };
  ports: ServerPorts;
  dynamicConfigFile: string;
}): string {
  const { database, names, ports } = input;
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${database.hostname}:${database.port || '5432'}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(database.username),
      password: decodeURIComponent(database.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number, extra: object = {}) => ({
    rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra },
  });
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: CLUSTER_HISTORY_SHARDS,
      datastores: { 'postgres-default': store(names.main, 20), 'postgres-visibility': store(names.visibility, 10) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: HOST } },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `${HOST}:${ports.frontend}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: input.dynamicConfigFile, pollInterval: '10s' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The frontend answers, the namespace exists (created here), the search attributes are registered. */
async function untilReady(address: string, namespace: string, failure: () => Error | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let problem = 'no answer yet';
  while (Date.now() < deadline) {
    const failed = failure();
    if (failed) throw failed;
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: '2s' });
      await ensureNamespace(connection, namespace);
      await registerSearchAttributes(connection, namespace, { timeoutMs: Math.max(1000, deadline - Date.now()) });
      return;
    } catch (err) {
      problem = (err as Error).message;
    } finally {
      await connection?.close().catch(() => undefined);
    }
    await sleep(500);
  }
  throw new Error(`the Temporal server at ${address} was not ready within ${READY_TIMEOUT_MS / 1000}s: ${problem}`);
}

async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch {
    await connection.workflowService
      .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION_MS) })
      .catch((err: Error & { code?: number }) => {
        if (err.code !== 6) throw err; // ALREADY_EXISTS: another start created it meanwhile.
      });
    // A new namespace takes a few seconds to reach every service's cache.
    await connection.workflowService.describeNamespace({ namespace });
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return promisify(execFile)(command, args, { env, maxBuffer: 32 * 1024 * 1024 }).then(
    ({ stdout }) => stdout,
    (err: Error & { stderr?: string }) => {
      throw new Error(
        `${path.basename(command)} ${args.join(' ')} failed: ${(err.stderr ?? err.message).slice(-2000)}`,
      );
    },
  );
}
