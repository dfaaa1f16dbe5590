import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The pinned CLI version. Later versions carry a `replace` directive in their go.mod and
 * cannot be built with `go install …@version`, so moving past it needs another install route.
 * scripts/install-temporal.js repeats this value and the cache path below (see there why).
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';

const BINARY_NAME = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

/** Keyed by version so every clone and CI run of this user reuses one build. */
export function temporalCliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  // The XDG spec says to ignore a relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME;
  const cacheRoot = xdg && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache');
  return path.join(cacheRoot, 'intent-leads', `temporal-${TEMPORAL_CLI_VERSION}`);
}

/** Where the install step records why its build failed, so the run-time error can point at it. */
export function temporalCliBuildLog(env: NodeJS.ProcessEnv = process.env): string {
  return `${temporalCliCacheDir(env)}.build-error.log`;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, BINARY_NAME);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The `temporal` CLI to run: `TEMPORAL_CLI_PATH`, else one on `PATH`, else the copy the
 * install step built. Undefined when there is none (callers may fall back to the SDK's download).
 *
 * @throws when `TEMPORAL_CLI_PATH` is set but is not an executable file: an explicit choice
 *   that is wrong must not be silently replaced by some other binary.
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.TEMPORAL_CLI_PATH;
  if (explicit) {
    const resolved = path.resolve(explicit);
    if (!isExecutableFile(resolved)) {
      throw new Error(
        `TEMPORAL_CLI_PATH=${explicit} is not an executable file; point it at a temporal CLI binary or unset it`,
      );
    }
    return resolved;
  }
  const fromPath = onPath(env);
  if (fromPath) return fromPath;
  const cached = path.join(temporalCliCacheDir(env), BINARY_NAME);
  return isExecutableFile(cached) ? cached : undefined;
}

/** The explanation shown when no CLI is available, with every way to fix it. */
export function missingTemporalCliMessage(env: NodeJS.ProcessEnv = process.env): string {
  const cacheDir = temporalCliCacheDir(env);
  const buildLog = temporalCliBuildLog(env);
  const lines = [
    'No temporal CLI found. Looked at TEMPORAL_CLI_PATH (unset), PATH, and ' + path.join(cacheDir, BINARY_NAME) + '.',
  ];
  if (existsSync(buildLog)) lines.push(`The install step tried to build it and failed; its output is in ${buildLog}.`);
  lines.push(
    'Fix it in one of these ways:',
    `  - with Go installed: node scripts/install-temporal.js   (runs: go install github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION})`,
    '  - download a temporal CLI binary and export TEMPORAL_CLI_PATH=/path/to/temporal',
    '  - put a temporal binary on PATH',
  );
  return lines.join('\n');
}

/** Like {@link findTemporalCli}, for callers that cannot do without the CLI. */
export function requireTemporalCli(env: NodeJS.ProcessEnv = process.env): string {
  const found = findTemporalCli(env);
  if (!found) throw new Error(missingTemporalCliMessage(env));
  return found;
}
