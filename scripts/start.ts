/**
 * `npm start`: PostgreSQL, a Temporal dev server with its Web UI, the worker and the API as
 * one process tree on this machine. Ctrl-C stops them in reverse order; a second Ctrl-C
 * forces the exit. State lives under `.data/` (or INTENT_LEADS_DATA_DIR), so the next start
 * finds it.
 *
 * `npm run start:cluster` (`--cluster`): the production topology on this machine instead: the
 * full Temporal server on PostgreSQL with several history shards and its Web UI server, two
 * workers and two API processes (PORT and PORT+1) sharing a PostgreSQL-backed rate limit.
 *
 * In both modes a worker that dies is started again, as a process supervisor would, and the
 * log says why it died (exit code or signal, its last error lines): a worker killed by what it
 * read (a hostile page, out of memory) is the sources' problem, not the API's, Temporal's or
 * PostgreSQL's, which keep running.
 *
 * Every fixed port is checked before anything starts, so a second instance beside this one
 * learns at once which ports it must move and with which variable.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { prepare } from '../src/bootstrap';
import { startEmbeddedPostgres } from '../infra/postgres/embedded';
import { startTemporalDevServer } from '../infra/temporal/dev-server';
import { startTemporalClusterServer } from '../infra/temporal/cluster-server';
import { startTemporalUiServer } from '../infra/temporal/ui-server';
import { assertPortsFree, type PortClaim } from '../infra/net/ports';
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
const LOG_DIR = path.join(DATA_DIR, 'logs');
const CLUSTER = process.argv.includes('--cluster');
/** Workers and API processes of each mode. */
const TOPOLOGY = CLUSTER ? { workers: 2, apis: 2 } : { workers: 1, apis: 1 };
const WORKER_RESTART_DELAY_MS = 1000;
/** A worker that dies sooner than this after its start waits twice as long before the next, up to the cap. */
const WORKER_QUICK_DEATH_MS = 30_000;
const WORKER_RESTART_DELAY_CAP_MS = 30_000;
/** Where this script's listeners go; each has a variable that moves it (see {@link portSettings}). */
interface Ports {
  /** The first API process; the cluster's second one takes the next port. */
  api: number;
  /** Each process's `/metrics` port: API processes from here, workers from here + 10. */
  metricsBase: number;
  postgres: number;
  /** The local Temporal server's frontend (dev server or cluster mode). */
  temporal: number;
  /** Its Web UI (the dev server's own, or the UI server beside the cluster). */
  temporalUi: number;
}
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

/**
 * Where a child's JSON log lines go: `.data/logs/<name>.log`, the console showing its warnings
 * and errors (so they do not bury the banner); `INTENT_LEADS_LOGS=console` shows them all there.
 */
function logFileOf(name: string): string | undefined {
  if (process.env.INTENT_LEADS_LOGS === 'console') return undefined;
  mkdirSync(LOG_DIR, { recursive: true });
  return path.join(LOG_DIR, `${name.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}.log`);
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
type Watch = (name: string, exited: Promise<ChildExit | void>, lastErrorLines?: () => string[]) => void;

/** A port variable's value, else its default; a typo stops the start instead of becoming NaN. */
function portSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a port number (1-65535), not ${raw}`);
  }
  return port;
}

function portSettings(): Ports {
  return {
    api: portSetting('PORT', 3000),
    metricsBase: portSetting('METRICS_PORT', 9464),
    postgres: portSetting('EMBEDDED_POSTGRES_PORT', 54329),
    temporal: portSetting('LOCAL_TEMPORAL_PORT', 7233),
    temporalUi: portSetting('LOCAL_TEMPORAL_UI_PORT', 8233),
  };
}

/** Every fixed port this start will listen on, with the variable that moves it. */
function portClaims(ports: Ports): PortClaim[] {
  const claims: PortClaim[] = [];
  for (let i = 0; i < TOPOLOGY.apis; i++) {
    claims.push({ port: ports.api + i, purpose: `${apiName(i)}`, movedBy: 'PORT' });
    claims.push({ port: ports.metricsBase + i, purpose: `the metrics of ${apiName(i)}`, movedBy: 'METRICS_PORT' });
  }
  for (let i = 0; i < TOPOLOGY.workers; i++) {
    const port = ports.metricsBase + 10 + i;
    claims.push({ port, purpose: `the metrics of ${workerName(i)}`, movedBy: 'METRICS_PORT' });
  }
  if (!process.env.DATABASE_URL) {
    claims.push({ port: ports.postgres, purpose: 'the embedded PostgreSQL', movedBy: 'EMBEDDED_POSTGRES_PORT' });
  }
  if (!process.env.TEMPORAL_ADDRESS) {
    claims.push({ port: ports.temporal, purpose: 'the Temporal frontend', movedBy: 'LOCAL_TEMPORAL_PORT' });
    claims.push({ port: ports.temporalUi, purpose: 'the Temporal Web UI', movedBy: 'LOCAL_TEMPORAL_UI_PORT' });
  }
  return claims;
}

const apiName = (i: number) => (TOPOLOGY.apis > 1 ? `API-${i + 1}` : 'API');
const workerName = (i: number) => (TOPOLOGY.workers > 1 ? `worker-${i + 1}` : 'worker');

async function database(tree: ProcessTree, watch: Watch, port: number): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
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

/**
 * The CLI names its listeners `localhost` although they listen on 127.0.0.1 only (`--ip`); the
 * banner and every other line say 127.0.0.1, so its address lines do too.
 */
function asListening(line: string): string {
  return /^(Server|UI|Metrics):\s/.test(line) ? line.replace(/\blocalhost\b/g, '127.0.0.1') : line;
}

/** The Temporal frontend the processes use, and what the banner says of it. */
interface TemporalServer {
  address: string;
  uiUrl?: string;
  /** History shards, for the cluster mode's own server. */
  shards?: number;
}

async function temporal(tree: ProcessTree, watch: Watch, namespace: string, ports: Ports): Promise<TemporalServer> {
  if (process.env.TEMPORAL_ADDRESS) return { address: process.env.TEMPORAL_ADDRESS };
  const started = Date.now();
  const server = await startTemporalDevServer({
    port: ports.temporal,
    uiPort: ports.temporalUi,
    dbFilename: path.join(DATA_DIR, 'temporal.db'),
    namespace,
    onLog: (line) => console.log(`[temporal] ${asListening(line)}`),
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
  ports: Ports,
): Promise<TemporalServer> {
  if (process.env.TEMPORAL_ADDRESS) throw new Error('--cluster starts its own Temporal server: unset TEMPORAL_ADDRESS');
  const started = Date.now();
  const server = await startTemporalClusterServer({
    databaseUrl,
    port: ports.temporal,
    namespace,
    configDir: path.join(DATA_DIR, 'temporal-cluster'),
    onLog: (line) => console.log(`[temporal] ${line}`),
  });
  tree.add({ name: 'Temporal server', stop: server.stop });
  watch('Temporal server', server.exited);
  log(
    `Temporal server ready on ${server.address}: ${server.shards} history shards on PostgreSQL (${Date.now() - started} ms)`,
  );
  if (tree.isClosing) throw new ShuttingDown();
  const uiStarted = Date.now();
  const ui = await startTemporalUiServer({
    temporalAddress: server.address,
    port: ports.temporalUi,
    namespace,
    configDir: path.join(DATA_DIR, 'temporal-ui'),
    onLog: (line) => console.log(`[temporal-ui] ${line}`),
  });
  tree.add({ name: 'Temporal Web UI server', stop: ui.stop });
  watch('Temporal Web UI server', ui.exited);
  log(`Temporal Web UI ready on ${ui.url} (${Date.now() - uiStarted} ms)`);
  return { address: server.address, shards: server.shards, uiUrl: ui.url };
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
 * A worker process; one that dies is started again after a second (as systemd or Kubernetes
 * would), its reason logged; one that keeps dying at once waits longer each time (up to 30 s).
 * Temporal keeps its work meanwhile, and the API answers (/readyz says no worker polls).
 */
function startWorker(tree: ProcessTree, name: string, env: NodeJS.ProcessEnv, delayMs = WORKER_RESTART_DELAY_MS): void {
  const worker = tree.add(
    spawnNode(name, path.join(DIST, 'worker', 'main.js'), env, CHILD_STOP_GRACE_MS, WORKER_NODE_FLAGS, logFileOf(name)),
  );
  const startedAt = Date.now();
  log(`${name} started (pid ${worker.pid}), metrics on ${env.METRICS_PORT}`);
  void worker.exited.then(async (exit) => {
    if (tree.isClosing) return;
    const quick = Date.now() - startedAt < WORKER_QUICK_DEATH_MS;
    const wait = quick ? delayMs : WORKER_RESTART_DELAY_MS;
    const said = worker.lastErrorLines();
    const quote = said.length ? `; its last error output:\n${said.map((line) => `    ${line}`).join('\n')}` : '';
    log(`${name} exited (${exit.signal ?? `code ${exit.code}`}); starting it again in ${wait / 1000} s${quote}`);
    await sleep(wait);
    if (!tree.isClosing) startWorker(tree, name, env, Math.min(wait * 2, WORKER_RESTART_DELAY_CAP_MS));
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
    ['Temporal UI', b.uiUrl ?? `(external Temporal at ${b.temporalAddress})`],
    ...(b.shards
      ? [['Temporal', `${b.temporalAddress}, ${b.shards} history shards on PostgreSQL`] as [string, string]]
      : []),
  ];
  if (process.env.INTENT_LEADS_LOGS !== 'console')
    rows.push(['Logs', `${path.relative(process.cwd(), LOG_DIR) || '.'}/   (warnings and errors also here)`]);
  const tokenFile = path.join(path.relative(process.cwd(), DATA_DIR) || '.', 'admin-token');
  // Every start says where the token is: after the first, it is no longer printed itself.
  if (b.adminToken.generated) rows.push(['Admin token', `${b.adminToken.value}   (new; kept in ${tokenFile})`]);
  else
    rows.push([
      'Admin token',
      process.env.ADMIN_TOKEN ? 'from ADMIN_TOKEN' : `in ${tokenFile}   (npm run admin -- help reads it there)`,
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
  const ports = portSettings();
  await assertPortsFree(portClaims(ports));
  ensureDataDir();
  const adminToken = secret(process.env.ADMIN_TOKEN, 'admin-token', () => randomBytes(32).toString('base64url'));
  const secretsKey = secret(process.env.SECRETS_KEY, 'secrets-key', () => randomBytes(32).toString('base64'));
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';

  const databaseUrl = await database(tree, watch, ports.postgres);
  checkpoint();
  const temporalServer = CLUSTER
    ? await temporalCluster(tree, watch, databaseUrl, namespace, ports)
    : await temporal(tree, watch, namespace, ports);
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
    PORT: String(ports.api),
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    // Several API processes must share one budget per key.
    RATE_LIMIT_STORE: process.env.RATE_LIMIT_STORE ?? (TOPOLOGY.apis > 1 ? 'postgres' : 'memory'),
    // Workers are versions of a Worker Deployment; on this machine the newest build takes new work
    // at once (docs/operating.md, "Deploying new workflow code").
    TEMPORAL_DEPLOYMENT_NAME: process.env.TEMPORAL_DEPLOYMENT_NAME ?? 'intent-leads',
    TEMPORAL_DEPLOYMENT_PROMOTE: process.env.TEMPORAL_DEPLOYMENT_PROMOTE ?? 'always',
  };

  const prepared = Date.now();
  const { demo } = await prepare(env);
  shown.demo = demo;
  log(`database migrated (${Date.now() - prepared} ms)`);
  checkpoint();

  // Started before the APIs so that /readyz, which wants a polling worker, can answer 200.
  for (let i = 0; i < TOPOLOGY.workers; i++) {
    const metrics = String(ports.metricsBase + 10 + i);
    startWorker(tree, workerName(i), { ...env, METRICS_PORT: metrics });
  }
  const apiUrls: string[] = [];
  const apis: NodeChild[] = [];
  for (let i = 0; i < TOPOLOGY.apis; i++) {
    const port = String(ports.api + i);
    const name = apiName(i);
    const metrics = String(ports.metricsBase + i);
    const api = tree.add(
      spawnNode(
        name,
        path.join(DIST, 'api', 'main.js'),
        { ...env, PORT: port, METRICS_PORT: metrics },
        CHILD_STOP_GRACE_MS,
        [],
        logFileOf(name),
      ),
    );
    log(`${name} started (pid ${api.pid}) on port ${port}, metrics on ${metrics}`);
    watch(api.name, api.exited, api.lastErrorLines);
    apis.push(api);
    apiUrls.push(`http://127.0.0.1:${port}`);
  }

  let ready = true;
  for (let i = 0; i < apis.length; i++) ready = (await waitForApi(apiUrls[i]!, apis[i]!, tree)) && ready;
  checkpoint();
  printBanner({
    apiUrl: apiUrls[0]!,
    otherApiUrls: apiUrls.slice(1),
    uiUrl: temporalServer.uiUrl,
    temporalAddress: temporalServer.address,
    shards: temporalServer.shards,
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
    // A failed start says its reason once, last (below); a stop asked for says why it stops.
    log(exitCode === 0 ? `stopping: ${reason}` : 'stopping');
    // A start-up step in flight finishes first (seconds at most) and the next one is skipped,
    // so nothing is stopped while something else is still being set up on top of it.
    tree.requestClose();
    await startup.catch(() => undefined);
    await tree.close(log);
    printUnshownDemo(shown);
    // Last, below the stopping lines, so the reason is what a failed start leaves on screen.
    if (exitCode !== 0) console.error(`\n[start] ${shown.bannerPrinted ? 'stopped' : 'could not start'}: ${reason}\n`);
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

  const watch: Watch = (name, exited, lastErrorLines) => {
    void exited.then((exit) => {
      if (stopping) return;
      const detail = exit ? ` (${exit.signal ?? `code ${exit.code}`})` : '';
      const said = lastErrorLines?.() ?? [];
      const quote = said.length ? `; its last error output:\n${said.map((line) => `    ${line}`).join('\n')}` : '';
      void shutdown(`${name} exited unexpectedly${detail}${quote}`, 1);
    });
  };
  startup = startAll(tree, shown, watch);
  startup.catch((err: unknown) => {
    if (err instanceof ShuttingDown) return;
    // Already stopping for another reason: this failure is likely its consequence, but say it.
    if (stopping) return log(`a start-up step failed meanwhile: ${reasonOf(err)}`);
    void shutdown(reasonOf(err), 1);
  });
}

/**
 * What went wrong, in words, whatever was thrown: Node's connection errors are often an
 * AggregateError with an empty message, and a wrapped error's cause may hold the point.
 */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err) || 'an unknown error';
  const code = (err as NodeJS.ErrnoException).code;
  let reason = err.message;
  if (!reason && err instanceof AggregateError) reason = [...new Set(err.errors.map(reasonOf))].join('; ');
  if (!reason) reason = code ? `${err.name} ${code}` : err.name;
  if (err.cause !== undefined) {
    const cause = reasonOf(err.cause);
    if (!reason.includes(cause)) reason += ` (cause: ${cause})`;
  }
  return reason;
}

/**
 * `--ports-only`: checks this start's ports and exits, so `npm start` learns of a taken port
 * before its build (scripts/ports-first.js runs the last build's copy of this check).
 */
async function checkPortsOnly(): Promise<void> {
  try {
    await assertPortsFree(portClaims(portSettings()));
  } catch (err) {
    console.error(`\n[start] could not start: ${reasonOf(err)}\n`);
    process.exit(1);
  }
}

if (process.argv.includes('--ports-only')) void checkPortsOnly();
else main();
