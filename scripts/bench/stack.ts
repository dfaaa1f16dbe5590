/**
 * The benchmark's own throw-away stack, brought up the way `npm start` brings up its own:
 * embedded PostgreSQL, a Temporal dev server, the database migrated, then the worker and the
 * API as child processes from `dist/`. Everything lives in a temp dir on free ports, so a
 * benchmark never touches `.data/` or a running `npm start`, and the temp dir goes at the end.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { prepare } from '../../src/bootstrap';
import { findFreePort } from '../../infra/net/ports';
import { startEmbeddedPostgres } from '../../infra/postgres/embedded';
import { startTemporalDevServer } from '../../infra/temporal/dev-server';
import { startTemporalClusterServer, TEMPORAL_SERVER_VERSION } from '../../infra/temporal/cluster-server';
import { WORKER_NODE_FLAGS } from '../../worker/node-flags';
import { benchCpuSeconds, cpuSecondsOf, findPid, machineBusySeconds, postgresCpuSeconds, type CpuMeters } from './cpu';

// Compiled to dist/scripts/bench/stack.js.
export const DIST = path.resolve(__dirname, '..', '..');
export const ROOT = path.resolve(DIST, '..');
const CHILD_STOP_GRACE_MS = 15_000;
const READY_TIMEOUT_MS = 120_000;

export type BenchTemporal = 'dev' | 'cluster';

export interface StackOptions {
  /** Extra node flags for the worker (`--cpu-prof --cpu-prof-dir=…` to profile it). */
  workerNodeArgs?: string[];
  apiNodeArgs?: string[];
  /** Overrides of the service environment (the bench's own defaults are in `serviceEnv`). */
  env?: Record<string, string>;
  /** Settings left at the service's own defaults instead of the bench's (the scale-signals section's evaluation interval). */
  serviceDefaults?: string[];
  /** More environment for the worker only (its metrics port, say). */
  workerEnv?: Record<string, string>;
  /** The Temporal server: the dev server (`npm start`'s) or the cluster mode's full server. */
  temporal?: BenchTemporal;
  log(line: string): void;
}

/** A child process of the stack: its pid (for memory readings) and how to stop it. */
export interface ServiceProcess {
  name: string;
  pid: number;
  exited: Promise<void>;
  stop(): Promise<void>;
}

interface Part {
  name: string;
  stop(): Promise<void>;
}

export class BenchStack {
  readonly tmpDir: string;
  databaseUrl = '';
  temporalAddress = '';
  apiUrl = '';
  readonly adminToken = randomBytes(24).toString('base64url');
  readonly taskQueue = 'signals';
  worker?: ServiceProcess;
  api?: ServiceProcess;
  temporal?: Client;
  /** The dev server's process, for CPU readings (the wrapper does not expose it). */
  temporalPid?: number;
  private env: NodeJS.ProcessEnv = {};
  private readonly parts: Part[] = [];
  private closing = false;

  constructor(private readonly options: StackOptions) {
    this.tmpDir = mkdtempSync(path.join(tmpdir(), 'intent-leads-bench-'));
    // Run as root, PostgreSQL runs as "postgres" and must be able to enter this directory.
    chmodSync(this.tmpDir, 0o711);
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /** The environment the worker and API run with, as `npm start` builds it plus the bench's settings. */
  get serviceEnv(): NodeJS.ProcessEnv {
    return this.env;
  }

  async start(): Promise<void> {
    const log = this.options.log;
    let started = Date.now();
    // Durable settings, as `npm start` runs it (persistent: fsync on); the temp dir is removed at the end.
    const postgres = await startEmbeddedPostgres({
      dataDir: path.join(this.tmpDir, 'postgres'),
      persistent: true,
      onLog: (line) => {
        if (/\b(ERROR|FATAL|PANIC):/.test(line) && !this.closing) log(`[postgres] ${line}`);
      },
    });
    this.parts.push({ name: 'PostgreSQL', stop: postgres.stop });
    this.databaseUrl = postgres.url;
    log(`PostgreSQL ready at ${postgres.url.replace(/:[^:@/]+@/, ':***@')} (${Date.now() - started} ms)`);
    this.checkpoint();

    started = Date.now();
    await this.startTemporal();
    log(`${this.temporalLabel} ready on ${this.temporalAddress} (${Date.now() - started} ms)`);
    this.checkpoint();

    const apiPort = await findFreePort();
    this.apiUrl = `http://127.0.0.1:${apiPort}`;
    this.env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: this.databaseUrl,
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: this.taskQueue,
      ADMIN_TOKEN: this.adminToken,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      PORT: String(apiPort),
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      // Signals evaluate when the bench says so, never on their own in the middle of a measurement.
      SIGNAL_EVALUATION_INTERVAL: '1h',
      // The limiter still runs on every request; only its budget is out of reach of 50 connections.
      RATE_LIMIT_PER_SECOND: '1000000',
      ...this.options.env,
    };
    for (const name of this.options.serviceDefaults ?? []) delete this.env[name];
    started = Date.now();
    await prepare(this.env);
    log(`database migrated (${Date.now() - started} ms)`);
    this.checkpoint();

    const connection = await Connection.connect({ address: this.temporalAddress });
    this.temporal = new Client({ connection, namespace: 'default' });
    this.parts.push({ name: 'Temporal client', stop: () => connection.close() });

    await this.startWorker();
    this.checkpoint();
    this.api = this.spawnService('API', path.join(DIST, 'api', 'main.js'), this.options.apiNodeArgs ?? []);
    this.parts.push(this.api);
    await this.waitForApi();
    log(`worker (pid ${this.worker?.pid}) and API (pid ${this.api.pid}) ready at ${this.apiUrl}`);
  }

  /** The worker's /metrics page, when started with a metrics port (the schedule section). */
  workerMetricsUrl?: string;
  /** What the measurements ran on, printed beside them. */
  temporalLabel = '';

  private async startTemporal(): Promise<void> {
    const onLog = (line: string) => {
      if (!this.closing) this.options.log(`[temporal] ${line}`);
    };
    if (this.options.temporal === 'cluster') {
      const configDir = path.join(this.tmpDir, 'temporal-cluster');
      const server = await startTemporalClusterServer({ databaseUrl: this.databaseUrl, configDir, onLog });
      this.parts.push({ name: 'Temporal server', stop: server.stop });
      this.temporalAddress = server.address;
      this.temporalPid = findPid(configDir);
      this.temporalLabel = `Temporal server ${TEMPORAL_SERVER_VERSION}, PostgreSQL, ${server.shards} history shards`;
      return;
    }
    // A SQLite file, as `npm start` keeps it; headless because nobody looks at the UI here.
    const server = await startTemporalDevServer({
      headless: true,
      dbFilename: path.join(this.tmpDir, 'temporal.db'),
      onLog,
    });
    this.parts.push({ name: 'Temporal dev server', stop: server.stop });
    this.temporalAddress = server.address;
    this.temporalPid = findPid(path.join(this.tmpDir, 'temporal.db'));
    this.temporalLabel = 'Temporal dev server, SQLite, 1 history shard';
  }

  /** Starts a worker and waits until it polls both task queues (its identity carries its pid). */
  async startWorker(): Promise<ServiceProcess> {
    const worker = this.spawnService(
      'worker',
      path.join(DIST, 'worker', 'main.js'),
      [...WORKER_NODE_FLAGS, ...(this.options.workerNodeArgs ?? [])],
      { ...this.env, ...this.options.workerEnv },
    );
    this.worker = worker;
    this.parts.push(worker);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let exited = false;
    void worker.exited.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error('the worker exited during start-up');
      if (Date.now() > deadline) throw new Error(`the worker did not poll within ${READY_TIMEOUT_MS / 1000}s`);
      if (
        (await this.isPolling(worker.pid, this.taskQueue)) &&
        (await this.isPolling(worker.pid, `${this.taskQueue}-deliveries`))
      ) {
        return worker;
      }
      await sleep(250);
    }
  }

  /** Stops the worker (SIGTERM: it drains in-flight tasks) and starts a fresh one. */
  async restartWorker(): Promise<ServiceProcess> {
    const old = this.worker;
    if (old) {
      await old.stop();
      this.parts.splice(this.parts.indexOf(old), 1);
    }
    return this.startWorker();
  }

  private async isPolling(pid: number, taskQueue: string): Promise<boolean> {
    const response = await this.temporal!.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: taskQueue },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    return (response.pollers ?? []).some((poller) => poller.identity?.startsWith(`${pid}@`));
  }

  private async waitForApi(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      this.checkpoint();
      try {
        if ((await fetch(`${this.apiUrl}/readyz`, { signal: AbortSignal.timeout(2000) })).ok) return;
      } catch {
        // Not listening yet.
      }
      await sleep(500);
    }
    throw new Error(`the API did not answer /readyz within ${READY_TIMEOUT_MS / 1000}s`);
  }

  /** A node process of ours, its output prefixed; killed with us if we die first. */
  spawnService(name: string, script: string, nodeArgs: string[], env: NodeJS.ProcessEnv = this.env): ServiceProcess {
    const child = spawn(process.execPath, [...nodeArgs, script], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const killOnExit = () => child.kill('SIGKILL');
    process.on('exit', killOnExit);
    prefixLines(child, name, this.options.log, () => this.closing);
    const exited = new Promise<void>((resolve) => {
      child.once('error', () => resolve());
      child.once('exit', (code, signal) => {
        if (!this.closing && !stopping) this.options.log(`${name} exited unexpectedly (${signal ?? `code ${code}`})`);
        resolve();
      });
    }).finally(() => process.removeListener('exit', killOnExit));
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= terminate(child, exited));
    return { name, pid: child.pid ?? -1, exited, stop };
  }

  /**
   * A bench helper process (ceiling worker, direct sender, bare handler) with an IPC channel,
   * stopped with the stack if the section does not stop it first.
   */
  forkHelper(
    name: string,
    script: string,
    env: NodeJS.ProcessEnv = {},
    nodeArgs: string[] = [],
  ): { child: ChildProcess; stop(): Promise<void> } {
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      cwd: ROOT,
      execArgv: nodeArgs,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const killOnExit = () => child.kill('SIGKILL');
    process.on('exit', killOnExit);
    prefixLines(child, name, this.options.log, () => this.closing);
    const exited = new Promise<void>((resolve) => {
      child.once('error', () => resolve());
      child.once('exit', () => resolve());
    }).finally(() => process.removeListener('exit', killOnExit));
    let stopping: Promise<void> | undefined;
    const part = {
      name,
      stop: () =>
        (stopping ??= terminate(child, exited).then(() => {
          const index = this.parts.indexOf(part);
          if (index >= 0) this.parts.splice(index, 1);
        })),
    };
    this.parts.push(part);
    return { child, stop: part.stop };
  }

  /** Stops everything in reverse order of start, then removes the temp dir. */
  async close(): Promise<void> {
    this.closing = true;
    for (let part = this.parts.pop(); part; part = this.parts.pop()) {
      const started = Date.now();
      try {
        await part.stop();
        this.options.log(`stopped ${part.name} (${Date.now() - started} ms)`);
      } catch (err) {
        this.options.log(`could not stop ${part.name} cleanly: ${(err as Error).message}`);
      }
    }
    rmSync(this.tmpDir, { recursive: true, force: true });
  }

  /** CPU meters of the stack's processes, this process and the whole machine (see cpu.ts). */
  cpuMeters(extra: Record<string, number | undefined> = {}): CpuMeters {
    const worker = this.worker?.pid ?? -1;
    const api = this.api?.pid ?? -1;
    const temporal = this.temporalPid ?? -1;
    const meters: CpuMeters = {
      'Temporal server': () => cpuSecondsOf(temporal),
      worker: () => cpuSecondsOf(worker),
      API: () => cpuSecondsOf(api),
      PostgreSQL: () => postgresCpuSeconds(path.join(this.tmpDir, 'postgres')),
      'bench (receiver, load generator)': benchCpuSeconds,
    };
    for (const [name, pid] of Object.entries(extra)) meters[name] = () => cpuSecondsOf(pid ?? -1);
    meters.machine = machineBusySeconds;
    return meters;
  }

  /** Registers something to stop with the stack (a bench helper process, a pool). */
  adopt(part: Part): void {
    this.parts.push(part);
  }

  private checkpoint(): void {
    if (this.closing) throw new Error('the benchmark is stopping');
  }
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const escalation = setTimeout(() => child.kill('SIGKILL'), CHILD_STOP_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}

function prefixLines(child: ChildProcess, name: string, log: (line: string) => void, quiet: () => boolean): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() && !quiet()) log(`[${name}] ${line}`);
    });
  }
}

/** Resident memory of a process in MB (10^6 bytes, the unit of the target), from /proc (Linux). */
export function residentMB(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: (kib('VmRSS') * 1024) / 1e6, peak: (kib('VmHWM') * 1024) / 1e6 };
  } catch {
    return undefined;
  }
}
