import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { startTemporalDevServer, type RunningDevServer } from '../../infra/temporal/dev-server';
import { findFreePort } from '../../infra/net/ports';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import {
  signalReconciliationScheduleId,
  signalReconciliationWorkflowType,
  signalWorkflowId,
} from '../../src/temporal/contract';
import { client, createSignal, expectStatus, waitFor, workflowState, type Client } from '../leads/fixtures';
import { note } from './lead-flow';

/**
 * Signals activated and resumed while Temporal is down are saved (the failed workflow start is
 * only a warning), and the signal reconciliation schedule gives each its running workflow
 * within a minute of Temporal coming back, with the same API and worker as before: nothing is
 * restarted but Temporal. Like temporal-restarted.test.ts, this file runs a dev server of its
 * own that comes back on the same port with its state.
 */

const FILE = 'signals-while-temporal-down';

let dir: string;
let port: number;
let temporal: RunningDevServer | undefined;
let stack: Stack | undefined;

const startTemporal = () =>
  startTemporalDevServer({ port, headless: true, dbFilename: path.join(dir, 'temporal.sqlite') });

beforeAll(async () => {
  dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'faults-reconcile-'));
  port = await findFreePort();
  temporal = await startTemporal();
  stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address, SIGNAL_EVALUATION_INTERVAL: '1h' } });
  // What a worker process does at start-up (worker/main.ts).
  await stack.services.signalReconciliation.schedule();
}, 120_000);

test('each worker makes sure of one reconciliation schedule, with the interval of its version', async () => {
  const s = stack!;
  const handle = s.temporal.schedule.getHandle(signalReconciliationScheduleId(s.config.TEMPORAL_TASK_QUEUE));
  // As an earlier version left it; then a second worker starts.
  await handle.update((previous) => ({ ...previous, spec: { intervals: [{ every: '5 minutes' }] } }));
  await s.services.signalReconciliation.schedule();
  const described = await handle.describe();
  expect(described.spec.intervals?.map((interval) => interval.every)).toEqual([30_000]);
  expect(described.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: signalReconciliationWorkflowType,
    taskQueue: s.config.TEMPORAL_TASK_QUEUE,
  });
  expect(described.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
});

afterAll(async () => {
  await stack?.stop();
  await temporal?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const body = (name: string, status: string) => ({
  name,
  status,
  config: { jobTitles: ['Chief Technology Officer'] },
});

async function statusOf(api: Client, signalId: string): Promise<string> {
  return expectStatus(await api.get(`/signals/${signalId}`), 200).status;
}

test('signals activated and resumed while Temporal is down get their workflows within a minute of its return', async () => {
  const s = stack!;
  const account = await createAccount(s, { credits: 100 });
  const api = client(s, account);
  // Before the outage: a paused signal whose workflow waits paused, and a draft without one.
  const paused = await createSignal(api, 'job-changes', body('paused before', 'active'));
  await waitFor(
    'the first evaluation',
    () => workflowState(s, paused.id),
    (state) => (state?.evaluations ?? 0) >= 1,
  );
  expectStatus(await api.post(`/signals/${paused.id}/pause`), 200);
  await waitFor(
    'the workflow to show paused',
    () => workflowState(s, paused.id),
    (state) => state?.status === 'paused',
  );
  const evaluationsBefore = (await workflowState(s, paused.id))!.evaluations;
  const draft = await createSignal(api, 'job-changes', body('draft before', 'draft'));
  expect(await workflowState(s, draft.id)).toBeNull();
  const api0 = s.api;
  const worker0 = s.worker!;

  await temporal!.stop();
  temporal = undefined;
  const down = Date.now();
  // While Temporal is down the API still answers and saves every change (each call waits out
  // the client's retries of the workflow start, hence at once).
  const [resumedPaused, resumedDraft, created] = await Promise.all([
    api.post(`/signals/${paused.id}/resume`),
    api.post(`/signals/${draft.id}/resume`),
    createSignal(api, 'job-changes', body('created while down', 'active')),
  ]);
  expectStatus(resumedPaused, 200);
  expectStatus(resumedDraft, 200);
  for (const id of [paused.id, draft.id, created.id]) expect(await statusOf(api, id)).toBe('active');
  note(FILE, `three API calls answered in ${Date.now() - down} ms with Temporal down`);

  // From the restart itself: the schedule may act while the server is still settling.
  const back = Date.now();
  temporal = await startTemporal();
  const states = await waitFor(
    'every signal to have its running, unpaused workflow',
    () => Promise.all([paused.id, draft.id, created.id].map((id) => workflowState(s, id).catch(() => null))),
    (all) => all.every((state) => state !== null && state.status === 'active' && state.evaluations >= 1),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  const waited = Date.now() - back;
  note(FILE, `every signal had its running workflow ${waited} ms after Temporal was started again`);
  expect(waited).toBeLessThan(60_000);
  // The paused one was resumed: it evaluated again.
  expect(states[0]!.evaluations).toBeGreaterThan(evaluationsBefore);
  for (const id of [paused.id, draft.id, created.id]) {
    const described = await s.temporal.workflow.getHandle(signalWorkflowId(id)).describe();
    expect(described.status.name).toBe('RUNNING');
  }
  // Nothing but Temporal was restarted: the same API server and worker objects, still running.
  expect(s.api).toBe(api0);
  expect(s.worker).toBe(worker0);
  expect([worker0.worker.getState(), worker0.deliveryWorker.getState()]).toEqual(['RUNNING', 'RUNNING']);
  // The schedule started them (the only caller of the reconciliation in this process).
  const schedule = await s.temporal.schedule
    .getHandle(signalReconciliationScheduleId(s.config.TEMPORAL_TASK_QUEUE))
    .describe();
  expect(schedule.info.recentActions.some((action) => action.takenAt.getTime() >= back)).toBe(true);
}, 240_000);
