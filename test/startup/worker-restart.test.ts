import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertPortFree, findFreePort } from '../../infra/net/ports';
import { buildProject, StartScript } from './start-script';

/**
 * Issue 31, finding 2: under `npm start` (the dev topology) a worker that dies (here killed,
 * as the kernel kills one out of memory) is started again and its death logged with the
 * reason, while the API, Temporal and PostgreSQL keep running. Runs the compiled start script.
 */
const START_TIMEOUT_MS = 240_000;

let workDir: string;
let script: StartScript;
let apiUrl: string;

/** The API's metrics port and the worker's, 10 above (scripts/start.ts), both free. */
async function metricsPortBase(): Promise<number> {
  for (;;) {
    const base = 40_000 + Math.floor(Math.random() * 10_000);
    try {
      for (const port of [base, base + 10]) await assertPortFree(port, 'a metrics listener');
      return base;
    } catch {
      // Taken: try another base.
    }
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = START_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // The old way: a dead worker stopped the whole tree.
    if (/\[start\] stopping\b/.test(script.output))
      throw new Error(`the start script is stopping while waiting for ${what}:\n${script.output.slice(-6000)}`);
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen in ${timeoutMs / 1000} s; the output:\n${script.output.slice(-6000)}`);
}

const workerPids = () =>
  [...script.output.matchAll(/\[start\] worker started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
const status = async (path: string) => (await fetch(`${apiUrl}${path}`).catch(() => undefined))?.status ?? 0;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'intent-leads-worker-restart-'));
  chmodSync(workDir, 0o711); // As root, PostgreSQL runs as "postgres" and must enter it.
  await buildProject();
  const port = await findFreePort();
  apiUrl = `http://127.0.0.1:${port}`;
  script = new StartScript({
    NODE_ENV: 'test',
    ADMIN_TOKEN: `admin-token-${randomBytes(12).toString('hex')}`,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    DATABASE_URL: undefined,
    TEMPORAL_ADDRESS: undefined,
    PORT: String(port),
    METRICS_PORT: String(await metricsPortBase()),
    EMBEDDED_POSTGRES_PORT: String(await findFreePort()),
    LOCAL_TEMPORAL_PORT: String(await findFreePort()),
    LOCAL_TEMPORAL_UI_PORT: String(await findFreePort()),
    INTENT_LEADS_DATA_DIR: path.join(workDir, 'data'),
  });
  await script.started(START_TIMEOUT_MS);
  await until('/readyz answering 200', async () => ((await status('/readyz')) === 200 ? true : undefined));
}, START_TIMEOUT_MS + 180_000);

afterAll(async () => {
  await script?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

test(
  'a killed worker is started again with its reason logged, and the API keeps answering meanwhile',
  async () => {
    const [first] = workerPids();
    expect(first).toBeDefined();

    // Watch /healthz the whole time, from the kill until the new worker polls.
    const answers: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        answers.push(await status('/healthz'));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    process.kill(first!, 'SIGKILL');

    const second = await until('a new worker', async () => workerPids().find((pid) => pid !== first));
    await until('/readyz answering 200 again', async () => ((await status('/readyz')) === 200 ? true : undefined));
    watching = false;
    await watcher;

    expect(second).not.toBe(first);
    expect(script.output).toMatch(/\[start\] worker exited \(SIGKILL\); starting it again/);
    expect(script.output).not.toMatch(/\[start\] stopping\b/);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer !== 200)).toEqual([]);
    // The start script itself, and with it PostgreSQL and Temporal, is still running.
    const stillRunning = await Promise.race([
      script.exited().then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 500)),
    ]);
    expect(stillRunning).toBe(true);
  },
  START_TIMEOUT_MS,
);
