/**
 * `npm start`: PostgreSQL, a Temporal dev server with its Web UI, the worker and the API as
 * one process tree on this machine. Ctrl-C stops them in reverse order; a second Ctrl-C
 * forces the exit. State lives under `.data/` (or INTENT_LEADS_DATA_DIR), so the next start
 * finds it.
 *
 * `npm run start:cluster` (`--cluster`): the production topology on this machine instead: the
 * full Temporal server on PostgreSQL with several history shards, two workers and two API
 * processes (PORT and PORT+1) sharing a PostgreSQL-backed rate limit. A worker that dies is
 * started again, as a process supervisor would; the other keeps working meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { prepare } from '../src/bootstrap';
import { startEmbeddedPostgres } from '../src/postgres/embedded';
import { startTemporalDevServer } from '../src/temporal/dev-server';
import { startTemporalClusterServer } from '../src/temporal/cluster-server';
import {
  onLauncherGone,
  onShutdownSignals,
  ProcessTree,
  relaunchDetached,
  spawnNode,
  type ChildExit,
  type NodeChild,
} from './process-tree';
import { WORKER_NODE_FLAGS } from '../worker/node-flags';

// Compiled to dist/scripts/start.js.
const DIST = path.resolve(__dirname, '..');
const ROOT = path.resolve(DIST, '..');
const DATA_DIR = process.env.INTENT_LEADS_DATA_DIR
  ? path.resolve(process.env.INTENT_LEADS_DATA_DIR)
  : path.join(ROOT, '.data');
const CLUSTER = process.argv.includes('--cluster');
/** Workers and API processes of each mode. */
const TOPOLOGY = CLUSTER ? { workers: 2, apis: 2 } : { workers: 1, apis: 1 };
const WORKER_RESTART_DELAY_MS = 1000;
/** Each process's `/metrics` port: API processes from here, workers from here + 10 (METRICS_PORT moves both). */
const METRICS_PORT_BASE = Number(process.env.METRICS_PORT ?? 9464);
const DEFAULT_POSTGRES_PORT = 54329;
/** The local Temporal server's frontend (dev server or cluster mode); LOCAL_TEMPORAL_PORT moves it. */
const TEMPORAL_PORT = Number(process.env.LOCAL_TEMPORAL_PORT ?? 7233);
const TEMPORAL_UI_PORT = 8233;
const CHILD_STOP_GRACE_MS = 10_000;
const API_READY_TIMEOUT_MS = 60_000;

function log(line: string): void {
  console.log(`[start] ${line}`);
}

/** Thrown by a start-up step that notices a shutdown began meanwhile. */
class ShuttingDown extends Error {}

interface Secret {
  value: string;
  generated: boolean;
}

function ensureDataDir(): void {
  // 0711: when run as root, PostgreSQL runs as "postgres" and must pass through to its
  // directory; the secret files themselves are 0600.
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o711 });
  if (userInfo().uid === 0) chmodSync(DATA_DIR, statSync(DATA_DIR).mode | 0o001);
}

/** The environment's value, else the one stored in `.data/<file>`, else a new one stored there. */
function secret(envValue: string | undefined, file: string, generate: () => string): Secret {
  if (envValue) return { value: envValue, generated: false };
  const location = path.join(DATA_DIR, file);
  if (existsSync(location)) {
    const stored = readFileSync(location, 'utf8').trim();
    if (!stored) throw new Error(`${location} is empty; delete it to generate a new value`);
    return { value: stored, generated: false };
  }
  const value = generate();
  writeFileSync(location, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, generated: true };
}

/** Reports a process that ends while it should be running. */
type Watch = (name: string, exited: Promise<ChildExit | void>) => void;

async function database(tree: ProcessTree, watch: Watch): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const port = Number(process.env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_POSTGRES_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`EMBEDDED_POSTGRES_PORT must be a port number, not ${process.env.EMBEDDED_POSTGRES_PORT}`);
  }
  const started = Date.now();
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(DATA_DIR, 'postgres'),
    port,
    persistent: true,
    // Everything else (initdb chatter, checkpoints) stays out of the way; failures quote it.
    onLog: (line) => {
      if (/\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) console.log(`[postgres] ${line}`);
    },
  });
  tree.add({ name: 'PostgreSQL', stop: postgres.stop });
  watch('PostgreSQL', postgres.exited);
  log(`PostgreSQL ready on 127.0.0.1:${port} (${Date.now() - started} ms)`);
  return postgres.url;
}

async function temporal(
  tree: ProcessTree,
  watch: Watch,
  namespace: string,
): Promise<{ address: string; uiUrl?: string }> {
  if (process.env.TEMPORAL_ADDRESS) return { address: process.env.TEMPORAL_ADDRESS };
  const started = Date.now();
  const server = await startTemporalDevServer({
    port: TEMPORAL_PORT,
    uiPort: TEMPORAL_UI_PORT,
    dbFilename: path.join(DATA_DIR, 'temporal.db'),
    namespace,
    onLog: (line) => console.log(`[temporal] ${line}`),
  });
  tree.add({ name: 'Temporal dev server', stop: server.stop });
  watch('Temporal dev server', server.exited);
  log(`Temporal dev server ready on ${server.address} (${Date.now() - started} ms)`);
  return server;
}

async function temporalCluster(
  tree: ProcessTree,
  watch: Watch,
  databaseUrl: string,
  namespace: string,
): Promise<{ address: string; shards: number }> {
  if (process.env.TEMPORAL_ADDRESS) throw new Error('--cluster starts its own Temporal server: unset TEMPORAL_ADDRESS');
  const started = Date.now();
  const server = await startTemporalClusterServer({
    databaseUrl,
    port: TEMPORAL_PORT,
    namespace,
    configDir: path.join(DATA_DIR, 'temporal-cluster'),
    onLog: (line) => console.log(`[temporal] ${line}`),
  });
  tree.add({ name: 'Temporal server', stop: server.stop });
  watch('Temporal server', server.exited);
  log(
    `Temporal server ready on ${server.address}: ${server.shards} history shards on PostgreSQL (${Date.now() - started} ms)`,
  );
  return server;
}

async function waitForApi(baseUrl: string, api: NodeChild, tree: ProcessTree): Promise<boolean> {
  let apiExited = false;
  void api.exited.then(() => (apiExited = true));
  const deadline = Date.now() + API_READY_TIMEOUT_MS;
  while (Date.now() < deadline && !apiExited && !tree.isClosing) {
    try {
      if ((await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) })).ok) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(1000);
  }
  return false;
}

/**
 * A worker process; in the cluster topology one that dies is started again after a second
 * (as systemd or Kubernetes would), while elsewhere any death stops the whole tree.
 */
function startWorker(tree: ProcessTree, watch: Watch, name: string, env: NodeJS.ProcessEnv): void {
  const worker = tree.add(
    spawnNode(name, path.join(DIST, 'worker', 'main.js'), env, CHILD_STOP_GRACE_MS, WORKER_NODE_FLAGS),
  );
  log(`${name} started (pid ${worker.pid}), metrics on ${env.METRICS_PORT}`);
  if (!CLUSTER) return watch(worker.name, worker.exited);
  void worker.exited.then(async (exit) => {
    if (tree.isClosing) return;
    log(`${name} exited (${exit.signal ?? `code ${exit.code}`}); starting it again`);
    await sleep(WORKER_RESTART_DELAY_MS);
    if (!tree.isClosing) startWorker(tree, watch, name, env);
  });
}

interface Banner {
  apiUrl: string;
  /** The other API processes of the cluster topology. */
  otherApiUrls: string[];
  shards?: number;
  uiUrl?: string;
  temporalAddress: string;
  ready: boolean;
  adminToken: Secret;
  demo?: { apiKey: string; webhookSecret: string; accountId: string; email: string; password: string };
}

function printBanner(b: Banner): void {
  const rows: Array<[string, string]> = [
    ['Dashboard', `${b.apiUrl}/`],
    ['API', `${b.apiUrl}/api/v1`],
    ['OpenAPI', `${b.apiUrl}/api/v1/openapi.json`],
    ['MCP', `${b.apiUrl}/mcp`],
    ['Operator API', `${b.apiUrl}/admin/v1`],
    ...b.otherApiUrls.map((url): [string, string] => ['Also API', `${url}  (same service, second process)`]),
    [
      'Temporal UI',
      b.uiUrl ??
        (b.shards
          ? `(none in cluster mode: Temporal server at ${b.temporalAddress}, ${b.shards} history shards; temporal workflow list --address ${b.temporalAddress})`
          : `(external Temporal at ${b.temporalAddress})`),
    ],
  ];
  if (b.adminToken.generated)
    rows.push([
      'Admin token',
      `${b.adminToken.value}   (new; kept in ${path.join(path.relative(process.cwd(), DATA_DIR) || '.', 'admin-token')})`,
    ]);
  if (b.demo) {
    rows.push(
      ['Demo account', b.demo.accountId],
      ['Demo API key', `${b.demo.apiKey}   (shown only now)`],
      ['Webhook secret', b.demo.webhookSecret],
      ['Demo sign-in', `${b.demo.email}  password ${b.demo.password}   (shown only now)`],
    );
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  const status = b.ready ? 'intent-leads is running' : 'intent-leads started, but /readyz has not answered 200 yet';
  console.log(['', `  ${status}`, ...lines, '', '  Ctrl-C stops everything.', ''].join('\n'));
}

/** What a failed start must still show: the demo key exists only in this process's memory. */
interface Shown {
  demo?: Banner['demo'];
  bannerPrinted: boolean;
}

async function startAll(tree: ProcessTree, shown: Shown, watch: Watch): Promise<void> {
  const checkpoint = () => {
    if (tree.isClosing) throw new ShuttingDown();
  };
  ensureDataDir();
  const adminToken = secret(process.env.ADMIN_TOKEN, 'admin-token', () => randomBytes(32).toString('base64url'));
  const secretsKey = secret(process.env.SECRETS_KEY, 'secrets-key', () => randomBytes(32).toString('base64'));
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';

  const databaseUrl = await database(tree, watch);
  checkpoint();
  const temporalServer = CLUSTER
    ? await temporalCluster(tree, watch, databaseUrl, namespace)
    : await temporal(tree, watch, namespace);
  checkpoint();

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: process.env.TEMPORAL_TASK_QUEUE ?? 'signals',
    ADMIN_TOKEN: adminToken.value,
    SECRETS_KEY: secretsKey.value,
    DEMO_DATA: process.env.DEMO_DATA ?? 'true',
    PORT: process.env.PORT ?? '3000',
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    // Several API processes must share one budget per key.
    RATE_LIMIT_STORE: process.env.RATE_LIMIT_STORE ?? (TOPOLOGY.apis > 1 ? 'postgres' : 'memory'),
  };

  const prepared = Date.now();
  const { demo } = await prepare(env);
  shown.demo = demo;
  log(`database migrated (${Date.now() - prepared} ms)`);
  checkpoint();

  // Started before the APIs so that /readyz, which wants a polling worker, can answer 200.
  for (let i = 1; i <= TOPOLOGY.workers; i++) {
    const metrics = String(METRICS_PORT_BASE + 10 + i - 1);
    startWorker(tree, watch, TOPOLOGY.workers > 1 ? `worker-${i}` : 'worker', { ...env, METRICS_PORT: metrics });
  }
  const apiUrls: string[] = [];
  const apis: NodeChild[] = [];
  for (let i = 0; i < TOPOLOGY.apis; i++) {
    const port = String(Number(env.PORT) + i);
    const name = TOPOLOGY.apis > 1 ? `API-${i + 1}` : 'API';
    const metrics = String(METRICS_PORT_BASE + i);
    const api = tree.add(
      spawnNode(
        name,
        path.join(DIST, 'api', 'main.js'),
        { ...env, PORT: port, METRICS_PORT: metrics },
        CHILD_STOP_GRACE_MS,
      ),
    );
    log(`${name} started (pid ${api.pid}) on port ${port}, metrics on ${metrics}`);
    watch(api.name, api.exited);
    apis.push(api);
    apiUrls.push(`http://127.0.0.1:${port}`);
  }

  let ready = true;
  for (let i = 0; i < apis.length; i++) ready = (await waitForApi(apiUrls[i]!, apis[i]!, tree)) && ready;
  checkpoint();
  printBanner({
    apiUrl: apiUrls[0]!,
    otherApiUrls: apiUrls.slice(1),
    uiUrl: 'uiUrl' in temporalServer ? temporalServer.uiUrl : undefined,
    temporalAddress: temporalServer.address,
    shards: 'shards' in temporalServer ? temporalServer.shards : undefined,
    ready,
    adminToken,
    demo,
  });
  shown.bannerPrinted = true;
}

function printUnshownDemo(shown: Shown): void {
  if (!shown.demo || shown.bannerPrinted) return;
  console.log(
    [
      '',
      '  The demo account was created on this start; its key is shown only once:',
      `  account ${shown.demo.accountId}`,
      `  API key ${shown.demo.apiKey}`,
      `  webhook secret ${shown.demo.webhookSecret}`,
      `  dashboard sign-in ${shown.demo.email}, password ${shown.demo.password}`,
      '',
    ].join('\n'),
  );
}

function main(): void {
  if (relaunchDetached()) return;
  const tree = new ProcessTree();
  const shown: Shown = { bannerPrinted: false };
  let startup: Promise<void> = Promise.resolve();
  let stopping = false;

  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${reason}`);
    // A start-up step in flight finishes first (seconds at most) and the next one is skipped,
    // so nothing is stopped while something else is still being set up on top of it.
    tree.requestClose();
    await startup.catch(() => undefined);
    await tree.close(log);
    printUnshownDemo(shown);
    process.exit(exitCode);
  };

  onShutdownSignals(
    (signal) => void shutdown(`received ${signal}`, 0),
    () => {
      log('second interrupt: exiting now, killing what is left');
      process.exit(130);
    },
  );
  onLauncherGone(() => void shutdown('the launching process went away', 0));

  const watch: Watch = (name, exited) => {
    void exited.then((exit) => {
      if (stopping) return;
      const detail = exit ? ` (${exit.signal ?? `code ${exit.code}`})` : '';
      void shutdown(`${name} exited unexpectedly${detail}`, 1);
    });
  };
  startup = startAll(tree, shown, watch);
  startup.catch((err: unknown) => {
    if (err instanceof ShuttingDown || stopping) return;
    console.error(`\n[start] could not start: ${(err as Error).message}\n`);
    void shutdown('start-up failed', 1);
  });
}

main();
