import type { ChildProcess } from 'node:child_process';
import { startStack } from '../setup/stack';
import {
  FAULT_ENV,
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  faultTestBed,
  note,
  waitForEveryLeadDelivered,
  waitForProgress,
} from './lead-flow';
import { compiledProject, killWorker, spawnWorker } from '../setup/worker-process';

/**
 * The worker process SIGKILLed while 500 leads are in flight (some produced and not yet
 * delivered, some webhook requests open at the receiver), then a new worker started: nothing
 * is lost, nothing billed twice, and a delivery the dead worker had sent is sent again under
 * the same X-Webhook-Id. The worker runs in a process of its own so it can really be killed;
 * this file's stack has no worker.
 */

const FILE = 'worker-killed';
const LEADS = 500;

let outDir: string;
const workers: ChildProcess[] = [];
const workerOutput: string[] = [];

const testBed = faultTestBed({
  start: async () => {
    const [stack] = await Promise.all([
      startStack({ worker: false, env: FAULT_ENV }),
      compiledProject().then((dir) => void (outDir = dir)),
    ]);
    return stack;
  },
  startTimeoutMs: 150_000,
  stopWorkers: async () => {
    await Promise.all(workers.map(killWorker));
  },
});

const startWorker = () =>
  workers.push(spawnWorker({ outDir, stack: testBed.stack, env: FAULT_ENV, output: workerOutput }));

test('SIGKILL of the worker with 500 leads in flight, then a new worker: each lead once, billed once, delivered under one X-Webhook-Id', async () => {
  const started = Date.now();
  const prepared = await testBed.prepareLeadFlow(LEADS);
  const { receiver } = prepared;
  // Answers take a second, so the kill finds webhook requests open at the receiver: the worker
  // dies after sending and before hearing back, the case that must resend the same id.
  const SLOW_ANSWERS = 400;
  receiver.script(...Array.from({ length: SLOW_ANSWERS }, () => ({ status: 200, delayMs: 1000 })));
  const heldOpen = () => receiver.requests.slice(0, SLOW_ANSWERS).filter((r) => Date.now() - r.at < 800);

  startWorker();
  const flow = await activateSignal(prepared);
  const showWorkerOutput = () => `worker output:\n${workerOutput.join('')}`;

  // Kill once production is well under way, with leads produced and not yet delivered (in
  // flight between production and delivery) and webhook requests held open by the receiver.
  const atKill = await waitForProgress(
    flow,
    'leads produced, deliveries begun, requests open',
    (p) => p.produced >= 150 && p.produced - p.acknowledged >= 20 && heldOpen().length > 0,
    { timeoutMs: 90_000, intervalMs: 20, diagnose: showWorkerOutput },
  );
  const openAtKill = heldOpen().map((r) => r.body?.contact?.lead_id as string);
  await killWorker(workers[0]);
  note(
    FILE,
    `killed the worker at ${JSON.stringify(atKill)} with ${openAtKill.length} webhook requests held open, ${Date.now() - started} ms in`,
  );

  startWorker();
  // Generous for a loaded machine; an unloaded one is done in about a minute.
  const done = await waitForEveryLeadDelivered(flow, { timeoutMs: 240_000, logAs: FILE, diagnose: showWorkerOutput });
  note(FILE, `all delivered ${Date.now() - started} ms in: ${JSON.stringify(done)}`);

  const { repeatedLeads, requests } = await expectEveryLeadOnceBilledOnceDelivered(flow);
  note(FILE, `${requests} webhook requests; ${repeatedLeads} leads received more than once`);
  // The requests the dead worker never heard back from were sent again (under the same id,
  // checked above).
  const received = (leadId: string) => receiver.requests.filter((r) => r.body?.contact?.lead_id === leadId).length;
  expect(openAtKill.filter((leadId) => received(leadId) < 2)).toEqual([]);
}, 360_000);
