import type { ChildProcess } from 'node:child_process';
import { startStack, type Stack } from '../setup/stack';
import { compiledProject, killWorker as kill, spawnWorker as spawnWorkerProcess } from '../setup/worker-process';
import { createAccount } from '../setup/http';
import {
  allLeads,
  allUsage,
  balanceOf,
  client,
  company,
  createSignal,
  daysAgo,
  event,
  getSignal,
  ingest,
  jobChangeData,
  person,
  waitFor,
  workflowState,
  type IngestRecord,
} from './fixtures';

/**
 * A worker killed (SIGKILL) in the middle of an evaluation and started again neither loses a
 * lead nor bills one twice. The worker runs in a process of its own, from the compiled
 * project, so that it can really be killed; this file's stack has no worker.
 */

const CANDIDATES = 300;
const CREDITS = 1000;

let stack: Stack;
let outDir: string;
const workers: ChildProcess[] = [];
const workerOutput: string[] = [];

function spawnWorker(): ChildProcess {
  const child = spawnWorkerProcess({ outDir, stack, env: { SIGNAL_EVALUATION_INTERVAL: '1h' }, output: workerOutput });
  workers.push(child);
  return child;
}

async function count(sql: string, args: unknown[]): Promise<number> {
  const [{ n }] = await stack.db.query(sql, args);
  return n;
}

beforeAll(async () => {
  const [started] = await Promise.all([
    startStack({ worker: false, env: { SIGNAL_EVALUATION_INTERVAL: '1h', RATE_LIMIT_PER_SECOND: '100000' } }),
    compiledProject().then((dir) => void (outDir = dir)),
  ]);
  stack = started;
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map(kill));
  await stack?.stop();
});

test('SIGKILL of the worker mid-evaluation, then a new worker: every lead exactly once, billed once, handed off', async () => {
  const account = await createAccount(stack, { credits: CREDITS });
  const api = client(stack, account);
  const co = company('wc-co');
  const records: IngestRecord[] = [co];
  for (let i = 0; i < CANDIDATES; i++) {
    const slug = `wc-${String(i).padStart(3, '0')}`;
    const who = person(slug, co.id, { title: 'CTO' });
    records.push(
      who,
      event(`ev-${slug}`, 'job_change', daysAgo(30 - i * 0.05), co.id, {
        personId: who.id,
        data: jobChangeData('CTO', co.name),
      }),
    );
  }
  await ingest(stack, records);

  const first = spawnWorker();
  const signal = await createSignal(api, 'job-changes', {
    name: 'Crash-tested CTOs',
    status: 'active',
    dailyLeadLimit: 1000,
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  const leadsOfSignal = () => count(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1`, [signal.id]);

  // Kill as soon as some, not all, leads exist: inside the first production batch.
  const atKill = await waitFor('the first leads', leadsOfSignal, (n) => n >= 30, {
    timeoutMs: 45_000,
    intervalMs: 20,
  }).catch((err) => {
    throw new Error(`${err.message}\nworker output:\n${workerOutput.join('')}`);
  });
  await kill(first);
  expect(atKill).toBeLessThan(CANDIDATES);

  // Production has stopped: the count no longer moves.
  await new Promise((r) => setTimeout(r, 300));
  const stopped = await leadsOfSignal();
  await new Promise((r) => setTimeout(r, 1500));
  expect(await leadsOfSignal()).toBe(stopped);
  expect(stopped).toBeLessThan(CANDIDATES);

  // A new worker takes over and finishes the evaluation.
  spawnWorker();
  await waitFor(
    `all ${CANDIDATES} leads handed off`,
    () => count(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1 AND handed_off_at IS NOT NULL`, [signal.id]),
    (n) => n >= CANDIDATES,
    { timeoutMs: 150_000, intervalMs: 200 },
  ).catch(async (err) => {
    throw new Error(`${err.message} (${await leadsOfSignal()} leads)\nworker output:\n${workerOutput.join('')}`);
  });

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(CANDIDATES);
  const leadIds = leads.map((l) => l.contact.lead_id as string);
  expect(new Set(leadIds).size).toBe(CANDIDATES);
  expect(new Set(leads.map((l) => l.contact.last_name)).size).toBe(CANDIDATES);
  expect(await leadsOfSignal()).toBe(CANDIDATES);
  expect(
    await count(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1 AND handed_off_at IS NULL`, [signal.id]),
  ).toBe(0);

  // Billed exactly once per lead.
  expect(
    await count(`SELECT count(*)::int AS n FROM credit_ledger WHERE signal_id = $1 AND operation = 'lead'`, [
      signal.id,
    ]),
  ).toBe(CANDIDATES);
  const usage = await allUsage(api, signal.id);
  expect(
    usage
      .filter((u) => u.operation === 'lead')
      .map((u) => u.leadId)
      .sort(),
  ).toEqual([...leadIds].sort());
  expect(await balanceOf(api)).toBe(CREDITS - CANDIDATES * 2);
  expect(await getSignal(api, signal.id)).toMatchObject({ status: 'active', leadsTotal: CANDIDATES });

  // Every lead was handed off once: the signal workflow counted each batch's hand-off once.
  const state = await workflowState(stack, signal.id);
  expect(state?.leadsStarted).toBe(CANDIDATES);
}, 260_000);
