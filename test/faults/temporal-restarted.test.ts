import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type RunningWorker, type Stack } from '../setup/stack';
import { startTemporalDevServer, type RunningDevServer } from '../../infra/temporal/dev-server';
import { findFreePort } from '../../infra/net/ports';
import {
  FAULT_ENV,
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  faultTestBed,
  note,
  progressOf,
  waitForEveryLeadDelivered,
  waitForProgress,
} from './lead-flow';

/**
 * The Temporal server stopped and started again while 150 leads are in flight. This file runs
 * its own dev server (the shared one serves every other test file and must never go down),
 * keeping its state in a SQLite file and coming back on the same port, as a real Temporal
 * cluster comes back with its persistence. The API and worker of this file's stack talk to
 * it; a worker that gives up while the server is away is replaced, as a process supervisor
 * would.
 */

const FILE = 'temporal-restarted';
const LEADS = 150;

let dir: string;
let port: number;
let temporal: RunningDevServer | undefined;
let supervisor: WorkerSupervisor | undefined;

/** The server's warnings and errors, for the failure message of a stuck flow. */
const serverLog: string[] = [];
const startTemporal = () =>
  startTemporalDevServer({
    port,
    headless: true,
    dbFilename: path.join(dir, 'temporal.sqlite'),
    onLog: (line) => {
      serverLog.push(line);
      if (serverLog.length > 200) serverLog.shift();
    },
  });

/** Keeps one worker pair of the stack running: when either of the pair fails, both go and a new pair starts. */
class WorkerSupervisor {
  restarts = 0;
  failures: string[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(private readonly stack: Stack) {
    this.loop = this.supervise();
  }

  private async supervise(): Promise<void> {
    while (!this.stopped) {
      let current: RunningWorker;
      try {
        current = await this.stack.startWorker();
      } catch (err) {
        // The server is still away: try again shortly.
        this.failures.push(`start: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      const failure = await current.running.then(
        () => undefined,
        (err: Error) => err,
      );
      if (this.stopped || !failure) return;
      this.failures.push(`run: ${failure.message}`);
      this.restarts++;
      // Promise.all rejected on the first failure; the other worker of the pair may still poll.
      this.stack.worker = undefined;
      await this.retire(current);
    }
  }

  private async retire(current: RunningWorker): Promise<void> {
    for (const worker of [current.worker, current.deliveryWorker, current.sourceWorker]) {
      try {
        worker.shutdown();
      } catch {
        // Already stopping or failed.
      }
    }
    const until = Date.now() + 30_000;
    while (
      [current.worker, current.deliveryWorker, current.sourceWorker].some(
        (w) => !['STOPPED', 'FAILED'].includes(w.getState()),
      ) &&
      Date.now() < until
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await current.connection.close().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.stack.stopWorker().catch(() => undefined);
    await this.loop;
  }
}

const testBed = faultTestBed({
  start: async () => {
    // The state file on tmpfs where there is one: it survives the server's restart all the same,
    // and the server's disk syncs (one per commit with SQLite's defaults: 150 leads then took
    // ~100 s instead of ~25 s here) would only measure the disk of a shared, loaded machine.
    dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'faults-temporal-'));
    port = await findFreePort();
    temporal = await startTemporal();
    const stack = await startStack({ worker: false, env: { ...FAULT_ENV, TEMPORAL_ADDRESS: temporal.address } });
    supervisor = new WorkerSupervisor(stack);
    return stack;
  },
  startTimeoutMs: 120_000,
  stopWorkers: async () => {
    await supervisor?.stop();
  },
  stopServers: async () => {
    await temporal?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

test('Temporal restarted mid-flow: each lead once, billed once, delivered under one X-Webhook-Id', async () => {
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
  await temporal!.stop();
  temporal = undefined;
  note(
    FILE,
    `stopped Temporal at ${JSON.stringify(atStop)} in ${Date.now() - stopping} ms, ${stopping - started} ms in; then ${JSON.stringify(await progressOf(flow))}`,
  );

  // Down long enough for polls and completions to fail, then back on the same port and state.
  await new Promise((r) => setTimeout(r, 3000));
  const restarting = Date.now();
  temporal = await startTemporal();
  note(FILE, `Temporal back after ${Date.now() - stopping} ms down (start took ${Date.now() - restarting} ms)`);

  const done = await waitForEveryLeadDelivered(flow, {
    timeoutMs: 180_000,
    logAs: FILE,
    diagnose: () =>
      `worker failures: ${supervisor!.failures.join('\n')}\nserver log:\n${serverLog.slice(-40).join('\n')}\n`,
  });
  note(
    FILE,
    `all delivered ${Date.now() - started} ms in: ${JSON.stringify(done)}; worker restarts: ${supervisor!.restarts} (${supervisor!.failures.join(' | ').slice(0, 500)})`,
  );

  const { repeatedLeads, requests } = await expectEveryLeadOnceBilledOnceDelivered(flow);
  note(FILE, `${requests} webhook requests; ${repeatedLeads} leads received more than once`);
}, 270_000);
