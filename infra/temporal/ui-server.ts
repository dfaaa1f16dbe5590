import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { temporalCliCacheDir } from './cli';
import { superviseServerProcess } from './server-process';

/**
 * The Temporal Web UI server, at the version the pinned CLI (1.5.1) embeds in its dev server,
 * so both modes show the same UI. docker-compose.yml runs `temporalio/ui` at this version.
 */
export const TEMPORAL_UI_VERSION = '2.42.1';
const PACKAGE = `github.com/temporalio/ui-server/v2/cmd/server@v${TEMPORAL_UI_VERSION}`;
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 30_000;

/** Beside the CLI's and the server's builds, keyed by version. */
export function temporalUiServerCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(temporalCliCacheDir(env)), `temporal-ui-server-${TEMPORAL_UI_VERSION}`);
}

/** The UI server binary, built with Go into the per-user cache on first use (minutes, then instant). */
export async function ensureTemporalUiServerBuilt(onLog: (line: string) => void = () => {}): Promise<string> {
  const dir = temporalUiServerCacheDir();
  const binary = path.join(dir, 'ui-server');
  if (existsSync(binary)) return binary;
  const go = process.env.GO ?? 'go';
  const staging = `${dir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  onLog(`building the Temporal Web UI server ${TEMPORAL_UI_VERSION} with Go into ${dir} (first time only, minutes)`);
  // Its web assets are embedded in the module (ui/assets), so the binary is all it needs.
  await promisify(execFile)(go, ['install', '-ldflags=-s -w', PACKAGE], {
    env: { ...process.env, GOBIN: staging },
    maxBuffer: 32 * 1024 * 1024,
  }).catch((err: Error & { stderr?: string }) => {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `could not build the Temporal Web UI server with Go (${go} install ${PACKAGE}): ${(err.stderr ?? err.message).slice(-2000)}`,
    );
  });
  renameSync(path.join(staging, 'server'), path.join(staging, 'ui-server'));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  onLog('Temporal Web UI server built');
  return binary;
}

export interface UiServerOptions {
  /** `host:port` of the Temporal frontend it shows. */
  temporalAddress: string;
  port: number;
  namespace?: string;
  /** Where its rendered configuration goes. */
  configDir: string;
  onLog?: (line: string) => void;
}

export interface RunningUiServer {
  url: string;
  stop(): Promise<void>;
  exited: Promise<void>;
}

/** The Web UI on `127.0.0.1:<port>` for the given frontend, ready (its /healthz answers) when it resolves. */
export async function startTemporalUiServer(options: UiServerOptions): Promise<RunningUiServer> {
  const binary = await ensureTemporalUiServerBuilt(options.onLog);
  mkdirSync(options.configDir, { recursive: true });
  // The server reads `<config dir>/base.yaml` then `<env>.yaml`; JSON is YAML.
  const config = {
    temporalGrpcAddress: options.temporalAddress,
    host: HOST,
    port: options.port,
    enableUi: true,
    defaultNamespace: options.namespace ?? 'default',
    // Plain http on loopback: a Secure cookie would never come back, and writes need it (CSRF).
    cors: { cookieInsecure: true, allowOrigins: [`http://${HOST}:${options.port}`] },
    notifyOnNewVersion: false,
    // One log line per request would drown the start script's output.
    hideLogs: true,
  };
  writeFileSync(path.join(options.configDir, 'base.yaml'), `${JSON.stringify(config, null, 2)}\n`);
  // It announces every (re)load of its configuration; the rest (errors) is worth showing.
  const onLog = (line: string) => {
    if (!/Loading config/.test(line)) options.onLog?.(line);
  };
  const server = superviseServerProcess(
    binary,
    ['--root', options.configDir, '--config', '.', '--env', 'intent-leads', 'start'],
    'Temporal Web UI server',
    onLog,
  );
  const url = `http://${HOST}:${options.port}`;
  try {
    await untilHealthy(url, server.failure);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url, stop: server.stop, exited: server.exited };
}

async function untilHealthy(url: string, failure: () => Error | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let problem = 'no answer yet';
  while (Date.now() < deadline) {
    const failed = failure();
    if (failed) throw failed;
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      problem = `/healthz answered ${response.status}`;
    } catch (err) {
      problem = (err as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`the Temporal Web UI server at ${url} was not ready within ${READY_TIMEOUT_MS / 1000}s: ${problem}`);
}
