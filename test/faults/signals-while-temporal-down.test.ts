import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { startTemporalDevServer, type RunningDevServer } from '../../infra/temporal/dev-server';
import { findFreePort } from '../../infra/net/ports';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import {
  signalReconciliationScheduleId,
  signalReconciliationWorkflowType,
  signalSweepScheduleId,
  signalWorkflowId,
} from '../../src/temporal/contract';
import { client, createSignal, expectStatus, waitFor, workflowState, type Client } from '../leads/fixtures';
import { note } from './lead-flow';
import { connectAssistant, toolOk } from '../mcp/helpers';

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
  stack = await startStack({
    // The service's own bound on waiting for Temporal in an answer (the other tests allow more).
    env: { TEMPORAL_ADDRESS: temporal.address, SIGNAL_EVALUATION_INTERVAL: '1h', TEMPORAL_ANSWER_WAIT_MS: '1000' },
  });
  // What a worker process does at start-up (worker/main.ts).
  await stack.services.signalReconciliation.schedule();
}, 120_000);

test('each worker makes sure of the two reconciliation schedules, with the interval and scope of its version', async () => {
  const s = stack!;
  const handle = s.temporal.schedule.getHandle(signalReconciliationScheduleId(s.config.TEMPORAL_TASK_QUEUE));
  // As an earlier version left it (every 5 minutes, every signal); then a second worker starts.
  await handle.update((previous) => ({
    ...previous,
    spec: { intervals: [{ every: '5 minutes' }] },
    action: { ...previous.action, args: [] },
  }));
  await s.services.signalReconciliation.schedule();
  const described = await handle.describe();
  expect(described.spec.intervals?.map((interval) => interval.every)).toEqual([30_000]);
  expect(described.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: signalReconciliationWorkflowType,
    taskQueue: s.config.TEMPORAL_TASK_QUEUE,
    args: ['unconfirmed'],
  });
  expect(described.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
  const sweep = await s.temporal.schedule.getHandle(signalSweepScheduleId(s.config.TEMPORAL_TASK_QUEUE)).describe();
  expect(sweep.spec.intervals?.map((interval) => interval.every)).toEqual([86_400_000]);
  expect(sweep.action).toMatchObject({ workflowType: signalReconciliationWorkflowType, args: ['all'] });
});

test('the outbox: a change Temporal took leaves no mark; a workflow ended behind the product is left to the sweep, which restarts it', async () => {
  const s = stack!;
  const account = await createAccount(s, { credits: 100 });
  const api = client(s, account);
  const signal = await createSignal(api, 'job-changes', body('ended by hand', 'active'));
  await waitFor(
    'the first evaluation',
    () => workflowState(s, signal.id),
    (state) => (state?.evaluations ?? 0) >= 1,
  );
  expect(await unconfirmed(s, [signal.id])).toEqual([]);
  const paused = expectStatus(await api.post(`/signals/${signal.id}/pause`), 200);
  expect(paused.warnings ?? []).toEqual([]);
  expect(await unconfirmed(s, [signal.id])).toEqual([]);
  expectStatus(await api.post(`/signals/${signal.id}/resume`), 200);
  expect(await unconfirmed(s, [signal.id])).toEqual([]);

  // Terminated in the Web UI: nothing in PostgreSQL changed, so the outbox has nothing to mend.
  await s.temporal.workflow.getHandle(signalWorkflowId(signal.id)).terminate('by hand');
  const mended = await s.services.signalReconciliation.reconcile('unconfirmed');
  expect(mended.started).not.toContain(signal.id);
  expect((await s.temporal.workflow.getHandle(signalWorkflowId(signal.id)).describe()).status.name).toBe('TERMINATED');
  // The sweep compares every active signal with the running workflows.
  const swept = await s.services.signalReconciliation.reconcile('all');
  expect(swept).toMatchObject({ scope: 'all' });
  expect(swept.started).toContain(signal.id);
  expect((await s.temporal.workflow.getHandle(signalWorkflowId(signal.id)).describe()).status.name).toBe('RUNNING');
  expectStatus(await api.delete(`/signals/${signal.id}`), 204);
  expect(await unconfirmed(s, [signal.id])).toEqual([]);
});

/** The signals among `ids` whose last change Temporal has not confirmed. */
async function unconfirmed(s: Stack, ids: string[]): Promise<string[]> {
  const marked = await s.db.query(
    `SELECT id FROM signals WHERE id = ANY($1::uuid[]) AND workflow_unconfirmed_since IS NOT NULL`,
    [ids],
  );
  return (marked as Array<{ id: string }>).map((row) => row.id);
}

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

/** The warning an answer carries when Temporal did not take the change within the answer's wait. */
const pending = (change: string) =>
  expect.objectContaining({ code: 'WORKFLOW_PENDING', severity: 'warning', values: [change] });

/** One answer, timed for the log (timing is measured, not asserted: the bound is the service's wait). */
async function timed<T>(times: Record<string, number>, route: string, answer: Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await answer;
  times[route] = Date.now() - started;
  return result;
}

test('while Temporal is down every change answers within the wait with a warning; each lands once Temporal is back', async () => {
  const s = stack!;
  const account = await createAccount(s, { credits: 100 });
  const api = client(s, account);
  // Before the outage: a paused signal whose workflow waits paused, a draft without one, and
  // active signals with running workflows, to pause (by REST and by tool), reconfigure and delete.
  const paused = await createSignal(api, 'job-changes', body('paused before', 'active'));
  const toPause = await createSignal(api, 'job-changes', body('to pause', 'active'));
  const toPauseByTool = await createSignal(api, 'job-changes', body('to pause by tool', 'active'));
  const toConfigure = await createSignal(api, 'job-changes', body('to configure', 'active'));
  const toDelete = await createSignal(api, 'job-changes', body('to delete', 'active'));
  const running = [paused, toPause, toPauseByTool, toConfigure, toDelete];
  await Promise.all(
    running.map((signal) =>
      waitFor(
        'the first evaluation',
        () => workflowState(s, signal.id),
        (state) => (state?.evaluations ?? 0) >= 1,
      ),
    ),
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
  const assistant = await connectAssistant(s, account.apiKey);
  const api0 = s.api;
  const worker0 = s.worker!;

  await temporal!.stop();
  temporal = undefined;
  // While Temporal is down the API saves every change and answers once the service's wait
  // (1 s) is over, with a warning, instead of waiting out the client's retries (about 20 s).
  const times: Record<string, number> = {};
  const down = Date.now();
  const [resumedPaused, resumedDraft, created, pausedNow, configured, deleted, pausedByTool, sources] =
    await Promise.all([
      timed(times, 'POST /signals/{id}/resume', api.post(`/signals/${paused.id}/resume`)),
      timed(times, 'POST /signals/{id}/resume (draft)', api.post(`/signals/${draft.id}/resume`)),
      timed(
        times,
        'POST /signals/job-changes (active)',
        api.post('/signals/job-changes', body('created while down', 'active')),
      ),
      timed(times, 'POST /signals/{id}/pause', api.post(`/signals/${toPause.id}/pause`)),
      timed(
        times,
        'PATCH /signals/{id} (config)',
        api.patch(`/signals/${toConfigure.id}`, { config: { jobTitles: ['Chief Financial Officer'] } }),
      ),
      timed(times, 'DELETE /signals/{id}', api.delete(`/signals/${toDelete.id}`)),
      timed(times, 'tool pause_signal', toolOk(assistant, 'pause_signal', { signalId: toPauseByTool.id })),
      timed(times, 'GET /admin/v1/sources', call(`${s.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN })),
    ]);
  note(FILE, `answers with Temporal down, ms: ${JSON.stringify(times)} (all side by side: ${Date.now() - down} ms)`);
  expect(expectStatus(resumedPaused, 200).warnings).toContainEqual(pending('activate'));
  expect(expectStatus(resumedDraft, 200).warnings).toContainEqual(pending('activate'));
  expect(expectStatus(created, 201).warnings).toContainEqual(pending('activate'));
  expect(expectStatus(pausedNow, 200).warnings).toContainEqual(pending('pause'));
  expect(expectStatus(configured, 200).warnings).toContainEqual(pending('config'));
  expect(pausedByTool.warnings).toContainEqual(pending('pause'));
  // 204 carries no body: the warning is its header.
  expect(deleted.status).toBe(204);
  expect(deleted.headers.get('warning')).toMatch(/^199 - ".*did not confirm within 1000 ms/);
  // The sources' status is PostgreSQL's: it answers, without the schedules' next runs.
  expect(sources.status).toBe(200);
  expect(sources.body.items.length).toBeGreaterThan(0);
  expect(sources.body.items.map((source: { nextRunAt: string | null }) => source.nextRunAt)).toEqual(
    sources.body.items.map(() => null),
  );
  // Saved, all of them.
  const createdId = (created.body as { id: string }).id;
  for (const id of [paused.id, draft.id, createdId]) expect(await statusOf(api, id)).toBe('active');
  for (const id of [toPause.id, toPauseByTool.id]) expect(await statusOf(api, id)).toBe('paused');
  expect(
    (await statusOf(api, toConfigure.id)) && (await api.get(`/signals/${toConfigure.id}`)).body.config,
  ).toMatchObject({
    jobTitles: ['Chief Financial Officer'],
  });
  expectStatus(await api.get(`/signals/${toDelete.id}`), 404);
  // Each status change and deletion waits in the outbox; a new config needs no telling.
  const changedWhileDown = [paused.id, draft.id, createdId, toPause.id, toPauseByTool.id, toDelete.id];
  expect((await unconfirmed(s, [...changedWhileDown, toConfigure.id])).sort()).toEqual([...changedWhileDown].sort());

  // From the restart itself: the schedule may act while the server is still settling.
  const back = Date.now();
  temporal = await startTemporal();
  const states = await waitFor(
    'every active signal to have its running, unpaused workflow',
    () => Promise.all([paused.id, draft.id, createdId].map((id) => workflowState(s, id).catch(() => null))),
    // The paused one shows active once resumed, and has evaluated again once that evaluation ends.
    (all) =>
      all.every((state) => state !== null && state.status === 'active' && state.evaluations >= 1) &&
      all[0]!.evaluations > evaluationsBefore,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  const waited = Date.now() - back;
  note(FILE, `every signal had its running workflow ${waited} ms after Temporal was started again`);
  expect(waited).toBeLessThan(60_000);
  // The paused one was resumed: it evaluated again.
  expect(states[0]!.evaluations).toBeGreaterThan(evaluationsBefore);
  for (const id of [paused.id, draft.id, createdId]) {
    const described = await s.temporal.workflow.getHandle(signalWorkflowId(id)).describe();
    expect(described.status.name).toBe('RUNNING');
  }
  // The pauses reached their workflows, and the deleted signal's workflow ended.
  await waitFor(
    "the paused signals' workflows to show paused",
    () => Promise.all([toPause.id, toPauseByTool.id].map((id) => workflowState(s, id).catch(() => null))),
    (all) => all.every((state) => state?.status === 'paused'),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  await waitFor(
    "the deleted signal's workflow to end",
    () =>
      s.temporal.workflow
        .getHandle(signalWorkflowId(toDelete.id))
        .describe()
        .catch(() => null),
    (described) => described?.status.name === 'COMPLETED',
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  // Every change made while Temporal was down is confirmed: the outbox is empty again.
  await waitFor(
    'the outbox to be mended',
    () => unconfirmed(s, changedWhileDown),
    (marked) => marked.length === 0,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  // The reconfigured one still runs, active, and reads its new settings at its next evaluation.
  expect((await workflowState(s, toConfigure.id))?.status).toBe('active');
  // Nothing but Temporal was restarted: the same API server and worker objects, still running.
  expect(s.api).toBe(api0);
  expect(s.worker).toBe(worker0);
  expect([worker0.worker.getState(), worker0.deliveryWorker.getState()]).toEqual(['RUNNING', 'RUNNING']);
  await assistant.close();
}, 300_000);
