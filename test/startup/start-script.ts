import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { oncePerRun } from '../setup/once-per-run';

const PROJECT = path.resolve(__dirname, '../..');
const STOP_TIMEOUT_MS = 60_000;

/**
 * `npm run build`, as `npm start` does before it runs the compiled start script; once per test
 * run for all the files that start it (they share dist/, so two builds at once would also race).
 */
export async function buildProject(): Promise<void> {
  await oncePerRun('npm-run-build', async () => {
    await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: PROJECT, maxBuffer: 32 * 1024 * 1024 });
  });
}

/** One run of the compiled `dist/scripts/start.js`, as `npm start` runs it after the build. */
export class StartScript {
  private readonly lines: string[] = [];
  private readonly child: ChildProcess;
  private readonly exitCode: Promise<number | null>;

  /** `env` over this process's environment; an undefined value removes the variable. */
  constructor(env: Record<string, string | undefined>, args: string[] = []) {
    // Supervised: no detached re-run, so this child is the process tree's root and SIGTERM stops it.
    const merged: NodeJS.ProcessEnv = { ...process.env, ...env, INTENT_LEADS_SUPERVISED: '1' };
    for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
    this.child = spawn(process.execPath, [path.join(PROJECT, 'dist/scripts/start.js'), ...args], {
      cwd: PROJECT,
      env: merged,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      let partial = '';
      stream.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        this.lines.push(...lines);
      });
    }
    this.exitCode = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get output(): string {
    return this.lines.join('\n');
  }

  /**
   * Resolves once the banner is printed (which a slow machine may print before /readyz
   * answers 200); rejects, quoting the output, if it exits first.
   */
  async started(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exitCode.then(() => (exited = true));
    while (!this.lines.some((line) => /intent-leads (is running|started)/.test(line))) {
      if (exited || Date.now() > deadline) {
        throw new Error(`the start script did not start; its output:\n${this.lines.slice(-60).join('\n')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Its exit code, once it ends by itself. */
  exited(): Promise<number | null> {
    return this.exitCode;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exitCode;
    clearTimeout(timer);
  }
}
