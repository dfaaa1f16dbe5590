import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertPortFree, findFreePort } from '../../infra/net/ports';
import { buildProject, StartScript } from './start-script';

/**
 * Issue 22, item 6: `npm start` beside another `npm start` on the same machine, each with its
 * own ports and data directory, and a start on a taken port that says which port and which
 * variable moves it. Issue 31, finding 2: under `npm start` a worker that dies is started again
 * while the rest keeps running (last, on the first instance: starting a third `npm start` for it
 * alone cost a minute). Runs the compiled start script, as `npm start` does.
 */
const START_TIMEOUT_MS = 240_000;

interface Instance {
  env: Record<string, string | undefined>;
  ports: { api: number; metrics: number; postgres: number; temporal: number; temporalUi: number };
  dataDir: string;
}

let workDir: string;
const running: StartScript[] = [];
let first: Instance;
let second: Instance;

async function instance(name: string): Promise<Instance> {
  const ports = {
    api: await findFreePort(),
    metrics: await metricsPortBase(),
    postgres: await findFreePort(),
    temporal: await findFreePort(),
    temporalUi: await findFreePort(),
  };
  const dataDir = path.join(workDir, name);
  return {
    ports,
    dataDir,
    env: {
      NODE_ENV: 'test',
      ADMIN_TOKEN: `admin-token-${randomBytes(12).toString('hex')}`,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      DEMO_DATA: 'false',
      // Information lines too: they must reach the log files and stay off the console.
      LOG_LEVEL: 'info',
      // The machine's own servers, if the suite was pointed at any, are not this instance's.
      DATABASE_URL: undefined,
      TEMPORAL_ADDRESS: undefined,
      PORT: String(ports.api),
      METRICS_PORT: String(ports.metrics),
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
      LOCAL_TEMPORAL_PORT: String(ports.temporal),
      LOCAL_TEMPORAL_UI_PORT: String(ports.temporalUi),
      INTENT_LEADS_DATA_DIR: dataDir,
    },
  };
}

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

/** /readyz (PostgreSQL, Temporal and a polling worker) answers 200. */
async function untilReady(apiUrl: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await fetch(`${apiUrl}/readyz`).catch(() => undefined))?.status ?? 0;
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${apiUrl}/readyz answered ${status}, not 200, for ${START_TIMEOUT_MS / 1000}s`);
}

function start(env: Record<string, string | undefined>): StartScript {
  const script = new StartScript(env);
  running.push(script);
  return script;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'intent-leads-side-by-side-'));
  chmodSync(workDir, 0o711); // As root, PostgreSQL runs as "postgres" and must enter it.
  let phase = Date.now();
  const took = (what: string) => {
    console.log(`[side-by-side] ${what}: ${Date.now() - phase} ms`);
    phase = Date.now();
  };
  await buildProject();
  took('npm run build');
  first = await instance('first');
  second = await instance('second');
  const scripts = [start(first.env), start(second.env)];
  await Promise.all(scripts.map((script) => script.started(START_TIMEOUT_MS)));
  took('two instances started');
  await Promise.all([first, second].map(({ ports }) => untilReady(`http://127.0.0.1:${ports.api}`)));
  took('both ready');
}, 3 * START_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(running.map((script) => script.stop()));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

describe('two instances of npm start on one machine', () => {
  it('says in the banner where the admin token comes from (issue 38)', () => {
    for (const script of running.slice(0, 2)) expect(script.output).toMatch(/Admin token\s+from ADMIN_TOKEN/);
  });

  it("names the Temporal server's addresses as the banner does, 127.0.0.1 (issue 38)", () => {
    for (const script of running.slice(0, 2)) {
      expect(script.output).toMatch(/\[temporal\] Server:\s+127\.0\.0\.1:\d+/);
      expect(script.output).not.toMatch(/\[temporal\].*localhost/);
    }
  });

  it("keeps the processes' JSON log lines in .data/logs, off the console that shows the banner (issue 38)", () => {
    for (const [i, { dataDir }] of [first, second].entries()) {
      expect(running[i]!.output).not.toMatch(/^\{"level":/m);
      for (const file of ['api.log', 'worker.log']) {
        const lines = readFileSync(path.join(dataDir, 'logs', file), 'utf8')
          .split('\n')
          .filter(Boolean);
        expect(lines.length).toBeGreaterThan(0);
        expect(JSON.parse(lines[0]!)).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });
      }
    }
  });

  it('both answer on their own API and Web UI ports', async () => {
    for (const { ports } of [first, second]) {
      const health = await fetch(`http://127.0.0.1:${ports.api}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${ports.api}/readyz`);
      expect(ready.status).toBe(200);

      const ui = await fetch(`http://127.0.0.1:${ports.temporalUi}/`);
      expect(ui.status).toBe(200);
      expect(ui.headers.get('content-type')).toMatch(/text\/html/);
      expect(await ui.text()).toMatch(/<html/i);
      // The UI serves its own server's namespace: each instance's UI reaches its own frontend.
      const namespace = await fetch(`http://127.0.0.1:${ports.temporalUi}/api/v1/namespaces/default`);
      expect(namespace.status).toBe(200);
      expect(await namespace.json()).toMatchObject({ namespaceInfo: { name: 'default' } });
    }
  });

  it('keeps each instance state in its own data directory', () => {
    for (const { dataDir } of [first, second]) {
      expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'temporal.db'))).toBe(true);
    }
  });

  it('refuses a third start on taken ports, naming each port and the variable that moves it', async () => {
    const third = await instance('third');
    const started = Date.now();
    const script = start({
      ...third.env,
      PORT: String(first.ports.api),
      LOCAL_TEMPORAL_UI_PORT: String(second.ports.temporalUi),
    });

    expect(await script.exited()).toBe(1);
    const output = script.output;
    expect(output).toContain(`API needs 127.0.0.1:${first.ports.api}, but it is in use`);
    expect(output).toContain('set PORT to another port');
    expect(output).toContain(`the Temporal Web UI needs 127.0.0.1:${second.ports.temporalUi}, but it is in use`);
    expect(output).toContain('set LOCAL_TEMPORAL_UI_PORT to another port');
    expect(output).toMatch(/\[start\] could not start: ports are taken:/);
    // Said once, as the reason the start ends (not also as the reason it stops).
    expect(output.split(`API needs 127.0.0.1:${first.ports.api}`)).toHaveLength(2);
    // Checked before anything starts: nothing was created, and no time went on starting servers.
    expect(existsSync(third.dataDir)).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);

    // The first two are unharmed.
    for (const { ports } of [first, second]) {
      expect((await fetch(`http://127.0.0.1:${ports.api}/healthz`)).status).toBe(200);
    }
  });

  it('checks the ports before the build of npm start (with the last build), and says so once', () => {
    const check = spawnSync(process.execPath, [path.resolve(__dirname, '../../scripts/ports-first.js')], {
      env: { ...process.env, PORT: String(first.ports.api), INTENT_LEADS_SUPERVISED: '1' },
      encoding: 'utf8',
    });
    expect(check.status).toBe(1);
    expect(check.stderr.split(`API needs 127.0.0.1:${first.ports.api}, but it is in use`)).toHaveLength(2);
    expect(check.stderr).toContain('set PORT to another port');
  });

  it('names a taken port of a process started later (the metrics of the worker) too', async () => {
    const third = await instance('fourth');
    const script = start({ ...third.env, METRICS_PORT: String(first.ports.metrics) });

    expect(await script.exited()).toBe(1);
    expect(script.output).toContain(`the metrics of API needs 127.0.0.1:${first.ports.metrics}, but it is in use`);
    expect(script.output).toContain(`the metrics of worker needs 127.0.0.1:${first.ports.metrics + 10}`);
    expect(script.output).toContain('set METRICS_PORT to another port');
  });
});

describe('a killed worker under npm start (issue 31, finding 2)', () => {
  /** Fails early if the start script gives up (the old way: a dead worker stopped the whole tree). */
  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const script = running[0]!;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (/\[start\] stopping\b/.test(script.output))
        throw new Error(`the start script is stopping while waiting for ${what}:\n${script.output.slice(-6000)}`);
      const found = await probe();
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(
      `${what} did not happen in ${START_TIMEOUT_MS / 1000} s; the output:\n${script.output.slice(-6000)}`,
    );
  }

  it(
    'is started again with its reason logged, and the API keeps answering meanwhile',
    async () => {
      const script = running[0]!;
      const apiUrl = `http://127.0.0.1:${first.ports.api}`;
      const status = async (path: string) => (await fetch(`${apiUrl}${path}`).catch(() => undefined))?.status ?? 0;
      const workerPids = () =>
        [...script.output.matchAll(/\[start\] worker started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
      const [firstPid] = workerPids();
      expect(firstPid).toBeDefined();

      // Watch /healthz the whole time, from the kill until the new worker polls.
      const answers: number[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          answers.push(await status('/healthz'));
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      process.kill(firstPid!, 'SIGKILL');

      const secondPid = await until('a new worker', async () => workerPids().find((pid) => pid !== firstPid));
      await until('/readyz answering 200 again', async () => ((await status('/readyz')) === 200 ? true : undefined));
      watching = false;
      await watcher;

      expect(secondPid).not.toBe(firstPid);
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
});
