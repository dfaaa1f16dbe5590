import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack } from '../setup/stack';
import { findFreePort } from '../../infra/net/ports';
import { migrate } from '../../src/db/data-source';
import {
  FAULT_ENV,
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  faultTestBed,
  note,
  waitForEveryLeadDelivered,
  waitForProgress,
} from './lead-flow';
import { startPostgresProcess, type PostgresProcess } from './postgres-process';

/**
 * PostgreSQL stopped and started again while 150 leads are in flight. This file runs its own
 * PostgreSQL (the shared one serves every other test file and must never go down), durable,
 * on a fixed port so the service's connection string stays valid across the restart. While
 * it is down, activities fail and Temporal retries them; the API may answer 500. Afterwards
 * everything completes: no lead lost or doubled, none billed twice.
 */

const FILE = 'postgres-restarted';
const LEADS = 150;

let dir: string;
let port: number;
let postgres: PostgresProcess | undefined;

const startPostgres = () => startPostgresProcess({ dataDir: path.join(dir, 'cluster'), port, persistent: true });

const testBed = faultTestBed({
  start: async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'faults-postgres-'));
    // Run as root, PostgreSQL runs as "postgres" and must be able to enter this directory.
    chmodSync(dir, 0o711);
    port = await findFreePort();
    postgres = await startPostgres();
    await migrate(postgres.url);
    return startStack({ env: { ...FAULT_ENV, DATABASE_URL: postgres.url } });
  },
  startTimeoutMs: 120_000,
  stopServers: async () => {
    await postgres?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

test('PostgreSQL restarted mid-flow: each lead once, billed once, delivered under one X-Webhook-Id', async () => {
  const started = Date.now();
  const prepared = await testBed.prepareLeadFlow(LEADS);
  const flow = await activateSignal(prepared);

  // Stop with leads being produced and deliveries under way, so both kinds of work are cut off.
  const atStop = await waitForProgress(
    flow,
    'leads produced and deliveries begun',
    (p) => p.produced >= 30 && p.requests >= 1,
    {
      timeoutMs: 60_000,
      intervalMs: 20,
    },
  );
  const stopping = Date.now();
  await postgres!.stop();
  postgres = undefined;
  const down = await waitForProgress(flow, 'the database to be unreachable', (p) => p.produced === -1, {
    timeoutMs: 10_000,
  });
  note(
    FILE,
    `stopped PostgreSQL at ${JSON.stringify(atStop)} in ${Date.now() - stopping} ms, ${stopping - started} ms in; while down: ${JSON.stringify(down)}`,
  );
  // While it is down the API answers, with an error envelope.
  const answer = await flow.api.get(`/signals/${flow.signalId}/leads?limit=1`);
  note(FILE, `API while PostgreSQL is down: ${answer.status} ${answer.text.slice(0, 200)}`);
  expect(answer.body?.error?.code).toEqual(expect.any(String));

  // Down long enough for activities to fail and back off, then back on the same port and data.
  await new Promise((r) => setTimeout(r, 3000));
  const restarting = Date.now();
  postgres = await startPostgres();
  note(FILE, `PostgreSQL back after ${Date.now() - stopping} ms down (start took ${Date.now() - restarting} ms)`);

  const done = await waitForEveryLeadDelivered(flow, { timeoutMs: 180_000, logAs: FILE });
  note(FILE, `all delivered ${Date.now() - started} ms in: ${JSON.stringify(done)}`);

  const { repeatedLeads, requests } = await expectEveryLeadOnceBilledOnceDelivered(flow);
  note(FILE, `${requests} webhook requests; ${repeatedLeads} leads received more than once`);
}, 270_000);
