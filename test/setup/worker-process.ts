import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Stack } from './stack';
import { oncePerRun } from './once-per-run';

/**
 * A worker in a process of its own, from the compiled project, so that a test can really kill
 * it (SIGKILL) mid-work. The test's stack then runs without an in-process worker.
 */

const PROJECT = path.resolve(__dirname, '../..');

/** The folders `tsconfig.build.json` compiles; the worker and API entry points live in them. */
const SOURCE_FOLDERS = ['src', 'api', 'worker', 'workflows', 'activities', 'infra', 'scripts'];
/** The options jest's own transform uses (jest.config.js), so the child runs the code the in-process tests run. */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  swcrc: false,
  configFile: false,
} as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/**
 * Compiles the project into `dir` with swc, file by file (about a second; tsc took a minute on
 * a loaded machine). Type checking is `npm run typecheck`'s, and `npm run build` is tested by
 * test/startup/.
 */
async function compileProject(dir: string): Promise<void> {
  const { transformFile } = await import('@swc/core');
  const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(PROJECT, folder)));
  await Promise.all(
    files.map(async (file) => {
      const { code } = await transformFile(file, { ...SWC_OPTIONS, filename: file });
      const out = path.join(dir, path.relative(PROJECT, file)).replace(/\.ts$/, '.js');
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
}

/**
 * The compiled project, built once per test run into the run's temporary folder and shared by
 * every file that spawns workers.
 */
export async function compiledProject(): Promise<string> {
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  if (!bundle) throw new Error('TEST_WORKFLOW_BUNDLE is not set: run the tests through jest (global setup)');
  const dir = path.join(path.dirname(bundle), 'compiled');
  await oncePerRun('compiled', () => compileProject(dir));
  return dir;
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
      // As the test stack: a test steps its signals' evaluations, or opts in to waking.
      SIGNAL_WAKE_ON_ARRIVAL: 'false',
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
