import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertPortFree, findFreePort } from '../../infra/net/ports';
import { TEST_ADMIN_TOKEN } from '../setup/stack';

const PROJECT = path.resolve(__dirname, '../..');
const START_TIMEOUT_MS = 30 * 60_000; // A fresh machine builds the Temporal server first.
const STOP_TIMEOUT_MS = 60_000;

export interface ClusterTopology {
  /** The environment the processes run with (database, secrets, settings). */
  env: Record<string, string>;
  apiUrls: string[];
  temporalAddress: string;
  shards: number;
  /** The Temporal Web UI server beside the cluster, `http://127.0.0.1:<port>`. */
  uiUrl: string;
  /** The current process of each worker (`worker-1`, `worker-2`); a restarted worker has a new one. */
  workerPids: Map<string, number>;
  /** Each process's metrics address (`worker-1`, `API-1`, ...). */
  metricsUrls: Map<string, string>;
  /** SIGKILL, as a lost machine: no draining. Resolves once the process is gone. */
  killWorker(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm run start:cluster` as a user runs it: the project is built, then the compiled start
 * script runs with `--cluster` on free ports. What it prints tells the test its addresses and
 * its workers' process ids.
 */
export async function startClusterTopology(options: {
  dataDir: string;
  env: Record<string, string>;
}): Promise<ClusterTopology> {
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: PROJECT, maxBuffer: 32 * 1024 * 1024 });
  const port = await twoFreePorts();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    ...options.env,
    PORT: String(port),
    METRICS_PORT: String(await metricsPortBase()),
    LOCAL_TEMPORAL_PORT: String(await findFreePort()),
    LOCAL_TEMPORAL_UI_PORT: String(await findFreePort()),
    INTENT_LEADS_DATA_DIR: options.dataDir,
  };
  const child = spawn(process.execPath, [path.join(PROJECT, 'dist/scripts/start.js'), '--cluster'], {
    cwd: PROJECT,
    // Supervised: no detached re-run, so this child is the process tree's root and SIGTERM stops it.
    env: { ...process.env, ...env, INTENT_LEADS_SUPERVISED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const topology = new RunningTopology(child, env);
  await topology.started();
  return topology;
}

class RunningTopology implements ClusterTopology {
  apiUrls: string[] = [];
  temporalAddress = '';
  shards = 0;
  uiUrl = '';
  readonly workerPids = new Map<string, number>();
  readonly metricsUrls = new Map<string, string>();
  private readonly output: string[] = [];
  private readonly exited: Promise<void>;
  private running = false;
  private onLine?: () => void;

  constructor(
    private readonly child: ChildProcess,
    readonly env: Record<string, string>,
  ) {
    let partial = '';
    const read = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.read(line);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  private read(line: string): void {
    this.output.push(line);
    if (this.output.length > 300) this.output.shift();
    const worker = /\[start\] (worker-\d) started \(pid (\d+)\)/.exec(line);
    if (worker) this.workerPids.set(worker[1]!, Number(worker[2]));
    const metrics = /\[start\] ((?:worker|API)-\d) started .*metrics on (\d+)/.exec(line);
    if (metrics) this.metricsUrls.set(metrics[1]!, `http://127.0.0.1:${metrics[2]}/metrics`);
    const api = /\[start\] API-\d started \(pid \d+\) on port (\d+)/.exec(line);
    if (api) this.apiUrls.push(`http://127.0.0.1:${api[1]}`);
    const server = /Temporal server ready on (\S+): (\d+) history shards/.exec(line);
    if (server) [this.temporalAddress, this.shards] = [server[1]!, Number(server[2])];
    const ui = /Temporal Web UI ready on (\S+)/.exec(line);
    if (ui) this.uiUrl = ui[1]!;
    if (line.includes('intent-leads is running')) this.running = true;
    this.onLine?.();
  }

  async started(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let gone = false;
    void this.exited.then(() => (gone = true));
    while (!this.running) {
      if (gone || Date.now() > deadline) {
        throw new Error(`the cluster did not start; its output:\n${this.output.slice(-60).join('\n')}`);
      }
      await new Promise<void>((resolve) => {
        this.onLine = resolve;
        setTimeout(resolve, 500);
      });
    }
  }

  async killWorker(name: string): Promise<void> {
    const pid = this.workerPids.get(name);
    if (!pid) throw new Error(`no ${name} in this cluster`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The API processes' metrics ports start here, the workers' 10 above (scripts/start.ts). */
async function metricsPortBase(): Promise<number> {
  for (;;) {
    // Above the range the Temporal server takes its membership ports from (20000–32000).
    const base = 40_000 + Math.floor(Math.random() * 10_000);
    try {
      for (const port of [base, base + 1, base + 10, base + 11]) await assertPortFree(port, 'a metrics listener');
      return base;
    } catch {
      // Taken: try another base.
    }
  }
}

/** A port whose next one is free too: the second API process listens on PORT + 1. */
async function twoFreePorts(): Promise<number> {
  for (;;) {
    const port = await findFreePort();
    try {
      await assertPortFree(port + 1, 'the second API process');
      return port;
    } catch {
      // Taken: try another pair.
    }
  }
}
