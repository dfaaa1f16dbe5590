#!/usr/bin/env node
/*
 * `npm run admin -- <command>`: runs the compiled operator CLI (dist/src/cli/admin.js), and
 * compiles it first only when it is missing or older than its sources. Rebuilding the whole
 * project before every call took 33-84 s; this answers `help` in a fraction of a second.
 *
 * Plain JavaScript, like install-temporal.js, so it runs before anything is compiled. The CLI
 * imports only Node's modules and the files of src/cli, so those files (and the compiler
 * settings) are all that can make the compiled copy stale.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SOURCES = path.join(ROOT, 'src', 'cli');
const COMPILED = path.join(ROOT, 'dist', 'src', 'cli', 'admin.js');
const SETTINGS = ['tsconfig.json', 'tsconfig.cli.json'].map((file) => path.join(ROOT, file));

function modifiedAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

function isStale() {
  const compiledAt = modifiedAt(COMPILED);
  if (compiledAt === 0) return true;
  return [...sourceFiles(SOURCES), ...SETTINGS].some((file) => modifiedAt(file) > compiledAt);
}

if (isStale()) {
  console.error('[admin] compiling the operator CLI (src/cli changed or was never built) ...');
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const built = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.cli.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) {
    console.error('[admin] the operator CLI did not compile; see the errors above');
    process.exit(built.status ?? 1);
  }
}

require(COMPILED);
