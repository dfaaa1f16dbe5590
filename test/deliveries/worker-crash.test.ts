import type { ChildProcess } from 'node:child_process';
import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { compiledProject, killWorker, spawnWorker } from '../setup/worker-process';
import { startReceiver, type Receiver } from './receiver';
import { leadDeliveriesAre, leadsTo, seedCompany, waitForDeliveries } from './fixtures';

/**
 * The worker is killed (SIGKILL) while a webhook send is in flight; a new worker takes the
 * delivery over. The worker runs in a process of its own, from the compiled project, so that
 * it can really be killed; this file's stack has no worker.
 */

const WORKER_ENV = {
  SIGNAL_EVALUATION_INTERVAL: '1h',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_RETRY_INITIAL_MS: '200',
  WEBHOOK_RETRY_MAX_INTERVAL_MS: '1000',
  WEBHOOK_RETRY_WINDOW_MS: '60000',
};
const CREDITS = 100;

let stack: Stack;
let outDir: string;
let r: Receiver | undefined;
const workers: ChildProcess[] = [];
const workerOutput: string[] = [];

beforeAll(async () => {
  const [started] = await Promise.all([
    startStack({ worker: false, env: WORKER_ENV }),
    compiledProject().then((dir) => void (outDir = dir)),
  ]);
  stack = started;
  await seedCompany(stack);
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map(killWorker));
  await r?.close();
  await stack?.stop();
});

const worker = () => {
  const child = spawnWorker({ outDir, stack, env: WORKER_ENV, output: workerOutput });
  workers.push(child);
  return child;
};

const withOutput = (err: Error) => new Error(`${err.message}\nworker output:\n${workerOutput.join('')}`);

test('SIGKILL of the worker mid-send, then a new worker: the lead still arrives, under the same id, billed once', async () => {
  const account = await createAccount(stack, { credits: CREDITS });
  r = await startReceiver({ secret: account.webhookSecret });
  // The first send hangs (it answers after 8 s, to a worker long dead); later ones answer at once.
  r.script({ status: 200, delayMs: 8000 });
  const first = worker();
  const signalId = await leadsTo(stack, account, r.url);
  const [inFlight] = await r.waitFor(1, 60_000).catch((err) => Promise.reject(withOutput(err)));
  await killWorker(first);

  worker();
  // The dead worker's workflow task (with its local activity) times out; the new worker runs the attempt again.
  const requests = await r.waitFor(2, 60_000).catch((err) => Promise.reject(withOutput(err)));
  const retried = requests[1];
  expect(retried.headers['x-webhook-id']).toBe(inFlight.headers['x-webhook-id']);
  expect(retried.rawBody.equals(inFlight.rawBody)).toBe(true);
  expect(retried.verified).toBe(true);
  // How soon depends on the machine (a new worker process starting); that it is delivered within
  // the retry window, under the same id, is what the rows below prove.

  const [delivery] = await waitForDeliveries(stack, account, signalId, leadDeliveriesAre('delivered'), 30_000);
  expect(delivery).toMatchObject({ id: inFlight.headers['x-webhook-id'], lastStatusCode: 200 });
  // Billed once, when the lead was produced; the redelivery costs nothing.
  const [lead] = await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [signalId]);
  const charges = await stack.db.query(
    `SELECT lead_id, operation, credits::float8 AS credits FROM credit_ledger WHERE signal_id = $1`,
    [signalId],
  );
  expect(charges).toEqual([{ lead_id: lead.id, operation: 'lead', credits: -2 }]);
  // The new worker replayed the lead workflow and ran its attempt once more: two attempts, one delivery.
  expect(delivery.attempts).toBe(2);
}, 150_000);
