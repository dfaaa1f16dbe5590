#!/usr/bin/env node
/*
 * postinstall: makes sure `npm start` and `npm test` have a `temporal` CLI (dev server + Web UI).
 *
 * Finds one in the order infra/temporal/cli.ts uses at run time (TEMPORAL_CLI_PATH, PATH, the
 * per-user cache) and otherwise builds the pinned version with Go into that cache. This file
 * repeats the version and the cache path of infra/temporal/cli.ts because it runs during
 * `npm ci`, before `tsc` has compiled anything and without any dependency; keep both in step.
 *
 * It never fails the install: a machine may supply TEMPORAL_CLI_PATH later, and the run-time
 * finder reports a missing CLI with the same advice printed here.
 */
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const VERSION = '1.5.1';
const MODULE = `github.com/temporalio/cli/cmd/temporal@v${VERSION}`;
const BINARY_NAME = process.platform === 'win32' ? 'temporal.exe' : 'temporal';
const BUILD_TIMEOUT_MS = 30 * 60 * 1000;
const PROGRESS_EVERY_MS = 30 * 1000;
// A build dir older than this belongs to a killed build, not to a concurrent `npm ci`.
const STALE_BUILD_MS = 2 * BUILD_TIMEOUT_MS;

function say(message) {
  console.log(`[install-temporal] ${message}`);
}

function cacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  const root = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(root, 'intent-leads', `temporal-${VERSION}`);
}

function buildLogPath() {
  return `${cacheDir()}.build-error.log`;
}

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && isExecutableFile(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

function findExistingCli() {
  const explicit = process.env.TEMPORAL_CLI_PATH;
  if (explicit) {
    if (isExecutableFile(path.resolve(explicit))) return { path: path.resolve(explicit), source: 'TEMPORAL_CLI_PATH' };
    say(`WARNING: TEMPORAL_CLI_PATH=${explicit} is not an executable file; npm start and npm test will refuse it.`);
    return { path: undefined, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = findOnPath(BINARY_NAME);
  if (fromPath) return { path: fromPath, source: 'PATH' };
  const cached = path.join(cacheDir(), BINARY_NAME);
  if (isExecutableFile(cached)) return { path: cached, source: 'cache' };
  return undefined;
}

function findGo() {
  const goName = process.platform === 'win32' ? 'go.exe' : 'go';
  const candidates = [findOnPath(goName), path.join('/usr/local/go/bin', goName)];
  if (process.env.GOROOT) candidates.push(path.join(process.env.GOROOT, 'bin', goName));
  return candidates.find((candidate) => candidate && isExecutableFile(candidate));
}

function howToSupplyBinary() {
  return [
    'To supply a temporal CLI yourself, do one of:',
    '  - export TEMPORAL_CLI_PATH=/path/to/temporal (a downloaded release binary works)',
    '  - put a `temporal` binary on PATH',
    `  - install Go and run: node scripts/install-temporal.js   (builds ${MODULE})`,
  ].join('\n');
}

function removeStaleBuildDirs(parent) {
  const prefix = `.temporal-${VERSION}-build-`;
  let entries = [];
  try {
    entries = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const dir = path.join(parent, entry);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > STALE_BUILD_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another install removed it first.
    }
  }
}

function formatElapsed(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** Runs `go install` with GOBIN in a fresh dir; resolves with { ok, output }. */
function runGoInstall(go, gobin) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(go, ['install', MODULE], {
      env: { ...process.env, GOBIN: gobin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk) => {
      output += chunk.toString();
      if (output.length > 64 * 1024) output = output.slice(-64 * 1024);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);

    const progress = setInterval(
      () => say(`still building (${formatElapsed(Date.now() - started)})…`),
      PROGRESS_EVERY_MS,
    );
    const timeout = setTimeout(() => {
      output += `\n(build stopped after ${formatElapsed(BUILD_TIMEOUT_MS)})`;
      child.kill('SIGKILL');
    }, BUILD_TIMEOUT_MS);

    // A Ctrl-C during `npm ci` must not leave go running or a half-built binary behind.
    const interrupt = (signal) => {
      child.kill('SIGKILL');
      fs.rmSync(gobin, { recursive: true, force: true });
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);

    const finish = (result) => {
      clearInterval(progress);
      clearTimeout(timeout);
      process.removeListener('SIGINT', interrupt);
      process.removeListener('SIGTERM', interrupt);
      resolve({ ...result, elapsed: Date.now() - started });
    };
    child.on('error', (err) => finish({ ok: false, output: `${output}\n${err.message}` }));
    child.on('close', (code, signal) =>
      finish({
        ok: code === 0,
        output: code === 0 ? output : `${output}\n(go exited with ${signal || `code ${code}`})`,
      }),
    );
  });
}

function reportBuildFailure(why, output) {
  const logFile = buildLogPath();
  try {
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    fs.writeFileSync(logFile, `${new Date().toISOString()} ${why}\n\n${output}\n`);
  } catch {
    // The message below still says what went wrong.
  }
  const tail = output.trim().split('\n').slice(-15).join('\n');
  console.error(
    [
      '',
      '************************************************************************',
      `[install-temporal] BUILDING THE TEMPORAL CLI FAILED: ${why}`,
      tail ? `last output:\n${tail}` : '',
      `full output: ${logFile}`,
      '',
      "npm start and npm test will try the SDK's own download (needs internet) and otherwise stop with this advice.",
      howToSupplyBinary(),
      '************************************************************************',
      '',
    ].join('\n'),
  );
}

async function build(go) {
  const target = path.join(cacheDir(), BINARY_NAME);
  const parent = path.dirname(cacheDir());
  fs.mkdirSync(cacheDir(), { recursive: true });
  removeStaleBuildDirs(parent);
  // Same filesystem as the target, so the final rename is atomic.
  const gobin = fs.mkdtempSync(path.join(parent, `.temporal-${VERSION}-build-`));
  say(`no temporal CLI found; building ${MODULE} with ${go}`);
  say('this takes a few minutes the first time and is cached for every later install');
  try {
    const result = await runGoInstall(go, gobin);
    const built = path.join(gobin, BINARY_NAME);
    if (!result.ok || !isExecutableFile(built)) {
      reportBuildFailure(result.ok ? 'go install produced no binary' : 'go install failed', result.output);
      return;
    }
    fs.renameSync(built, target);
    fs.rmSync(buildLogPath(), { force: true });
    say(`built ${target} in ${formatElapsed(result.elapsed)}`);
  } finally {
    fs.rmSync(gobin, { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.INTENT_LEADS_SKIP_TEMPORAL_INSTALL === '1') {
    say('skipped (INTENT_LEADS_SKIP_TEMPORAL_INSTALL=1)');
    return;
  }
  const existing = findExistingCli();
  if (existing && existing.path) {
    say(`using ${existing.path} (from ${existing.source})`);
    return;
  }
  if (existing && !existing.path) return; // TEMPORAL_CLI_PATH is set: the user chose; don't build behind their back.

  const go = findGo();
  if (!go) {
    console.error(
      [
        '[install-temporal] No temporal CLI and no Go toolchain found.',
        'npm start and npm test will fall back to the SDK downloading a Temporal dev server,',
        'which needs internet access.',
        howToSupplyBinary(),
      ].join('\n'),
    );
    return;
  }
  await build(go);
}

main().catch((err) => {
  reportBuildFailure('unexpected error', err && err.stack ? err.stack : String(err));
});
