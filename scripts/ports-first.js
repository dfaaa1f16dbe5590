#!/usr/bin/env node
/*
 * Runs before `npm start`'s build: the last build's start script checks this start's ports, so
 * a taken port stops the start at once instead of after the build. With no earlier build (a fresh
 * clone) there is nothing to run, and the start script checks them itself after the build.
 *
 * Plain JavaScript, like admin.js, so it runs before anything is compiled.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const compiled = path.resolve(__dirname, '..', 'dist', 'scripts', 'start.js');
// A build from before this check would start the service instead: only a copy that knows it runs.
if (existsSync(compiled) && readFileSync(compiled, 'utf8').includes("'--ports-only'")) {
  const check = spawnSync(process.execPath, [compiled, '--ports-only', ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(check.status ?? 1);
}
