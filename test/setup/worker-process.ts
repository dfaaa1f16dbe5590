import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Stack } from './stack';

/**
 * A worker in a process of its own, from the compiled project, so that a test can really kill
 * it (SIGKILL) mid-work. The test's stack then runs without an in-process worker.
 */

const PROJECT = path.resolve(__dirname, '../..');

/** Compiles the project into `dir` (tsconfig.build.json); slow (tens of seconds). */
async function compileProject(dir: string): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [PROJECT] });
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dir], {
      cwd: PROJECT,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    // Type errors still emit JavaScript; only a missing worker entry point is fatal.
    if (!existsSync(path.join(dir, 'worker/main.js'))) throw err;
  }
}

/**
 * The compiled project, built once per test run into the run's temporary folder and shared by
 * every file that spawns workers; the first file to ask compiles, the others wait for it.
 */
export async function compiledProject(): Promise<string> {
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  if (!bundle) throw new Error('TEST_WORKFLOW_BUNDLE is not set: run the tests through jest (global setup)');
  const dir = path.join(path.dirname(bundle), 'compiled');
  const done = path.join(`${dir}.state`, 'done');
  const failed = path.join(`${dir}.state`, 'failed');
  try {
    mkdirSync(`${dir}.state`); // atomic: exactly one file wins the right to compile
  } catch {
    for (;;) {
      if (existsSync(done)) return dir;
      if (existsSync(failed)) throw new Error(`the shared compile failed: ${readFileSync(failed, 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await compileProject(dir);
    writeFileSync(done, '');
    return dir;
  } catch (err) {
    writeFileSync(failed, String(err));
    throw err;
  }
}

export interface WorkerProcessOptions {
  /** Where `compiledProject` put the project. */
  outDir: string;
  /** Its database, Temporal and task queue are the worker's. */
  stack: Stack;
  /** Extra environment (evaluation interval, webhook retry settings…). */
  env?: Record<string, string>;
  /** Receives the worker's output (the last 200 chunks), to show when a test fails. */
  output?: string[];
}

/** Starts `worker/main.js` of the compiled project against the stack's database and queues. */
export function spawnWorker(options: WorkerProcessOptions): ChildProcess {
  const { stack } = options;
  const child = spawn(process.execPath, [path.join(options.outDir, 'worker/main.js')], {
    cwd: PROJECT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      // The compiled files live outside the project: resolve packages from its node_modules.
      NODE_PATH: path.join(PROJECT, 'node_modules'),
      DATABASE_URL: stack.config.DATABASE_URL,
      TEMPORAL_ADDRESS: stack.config.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE: stack.config.TEMPORAL_NAMESPACE,
      TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
      ADMIN_TOKEN: stack.config.ADMIN_TOKEN,
      SECRETS_KEY: stack.config.SECRETS_KEY,
      WORKFLOW_BUNDLE_PATH: process.env.TEST_WORKFLOW_BUNDLE ?? '',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      WORKFLOW_FAIL_ON_NONDETERMINISM: 'true',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = options.output;
  const keep = (chunk: Buffer) => {
    if (!output) return;
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return child;
}

/** SIGKILL, as a crash or a lost machine: no draining, no clean shutdown. */
export function killWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
