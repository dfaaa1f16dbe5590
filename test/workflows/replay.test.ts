import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { call } from '../setup/http';
import { leadWorkflowId, signalWorkflowId } from '../../src/temporal/contract';
import { DELIVERY_ENV, deliveryTestBed, leadsTo, sleep, waitForDeliveries } from '../deliveries/fixtures';

/**
 * Determinism: the workflow code of this commit must replay the histories recorded from earlier
 * versions (`histories/*.binpb`, binary protobuf) and the ones it makes itself below. A change to workflow code
 * that breaks replay fails here. `RECORD_WORKFLOW_HISTORIES=1 npx jest test/workflows/replay`
 * rewrites the stored histories from this run, once a change is meant to be incompatible
 * (allowed before the first release; after it, version with `patched`).
 */

const HISTORIES = path.join(__dirname, 'histories');
type History = temporal.api.history.v1.IHistory;

const testBed = deliveryTestBed({ env: DELIVERY_ENV, credits: 1000 });

async function replay(
  histories: Array<{ workflowId: string; history: History }>,
): Promise<Array<{ workflowId: string; error?: string }>> {
  const results: Array<{ workflowId: string; error?: string }> = [];
  const workflowBundle = { codePath: process.env.TEST_WORKFLOW_BUNDLE! };
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    results.push({ workflowId: result.workflowId, ...(result.error ? { error: String(result.error) } : {}) });
  }
  return results;
}

test('the stored histories of earlier workflow code replay on this code', async () => {
  const files = readdirSync(HISTORIES).filter((file) => file.endsWith('.binpb'));
  expect(files.length).toBeGreaterThan(0);
  const stored = files.map((file) => ({
    workflowId: file.replace(/\.binpb$/, ''),
    history: temporal.api.history.v1.History.decode(readFileSync(path.join(HISTORIES, file))),
  }));
  const results = await replay(stored);
  expect(results).toEqual(stored.map(({ workflowId }) => ({ workflowId })));
});

test('the histories this code makes (delivered, retried, failed, cancelled leads; pause, resume, replay) replay', async () => {
  const { stack, account } = testBed;
  const r = await testBed.receiver();
  // By the lead's person: one delivered at once, one after a 500, one failed for good (410).
  const firstAnswer: Record<string, { status: number }> = {
    Lovelace0: { status: 200 },
    Lovelace1: { status: 500 },
    Lovelace2: { status: 410 },
  };
  const answered = new Set<string>();
  r.answerWith((body) => {
    const person = body?.contact?.last_name as string;
    if (body?.signal?.is_replay || answered.has(person)) return { status: 200 };
    answered.add(person);
    return firstAnswer[person] ?? { status: 503 };
  });
  const signalId = await leadsTo(stack, account, r.url, 3);
  const deliveries = await waitForDeliveries(
    stack,
    account,
    signalId,
    (items) => items.length === 3 && items.every((d) => d.status !== 'pending'),
  );
  const api = (method: string, suffix: string) =>
    call(`${stack.url}/api/v1/signals/${signalId}${suffix}`, { token: account.apiKey, method });
  expect((await api('POST', '/pause')).status).toBe(200);
  expect((await api('POST', '/resume')).status).toBe(200);
  const replayed = await api('POST', '/replay-webhook');
  expect(replayed.body).toEqual({ total: 3, sent: 3, failed: 0 });
  // A lead still being retried when its signal is deleted: cancelled.
  const stuck = await testBed.receiver();
  stuck.script(...Array.from({ length: 20 }, () => ({ status: 503 })));
  const doomedSignalId = await leadsTo(stack, account, stuck.url, 1);
  await stuck.waitFor(2);
  await sleep(300);
  expect(
    (await call(`${stack.url}/api/v1/signals/${doomedSignalId}`, { token: account.apiKey, method: 'DELETE' })).status,
  ).toBe(204);

  const [doomed] = await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [doomedSignalId]);
  const [replayRun] = await stack.db.query(
    `SELECT DISTINCT kind FROM deliveries WHERE signal_id = $1 AND kind = 'replay'`,
    [signalId],
  );
  expect(replayRun).toEqual({ kind: 'replay' });
  // Every run of the signal workflow: it continues as new after each batch of leads it starts.
  const signalRuns: Array<[string, WorkflowHandle]> = [];
  for await (const execution of stack.temporal.workflow.list({
    query: `WorkflowId = '${signalWorkflowId(signalId)}'`,
  })) {
    signalRuns.push([
      `signal-${execution.startTime.toISOString().replace(/[^0-9]/g, '')}`,
      stack.temporal.workflow.getHandle(execution.workflowId, execution.runId),
    ]);
  }
  expect(signalRuns.length).toBeGreaterThanOrEqual(2);
  const handles: Array<[string, WorkflowHandle]> = [
    ...signalRuns,
    ['lead-cancelled', stack.temporal.workflow.getHandle(leadWorkflowId(doomed.id))],
    ...deliveries.map((d, i): [string, WorkflowHandle] => [
      `lead-${i}`,
      stack.temporal.workflow.getHandle(leadWorkflowId(d.leadId)),
    ]),
  ];
  await stack.temporal.workflow.getHandle(leadWorkflowId(doomed.id)).result();
  // Visibility is eventually consistent: the replay run is listed within a moment.
  for (const until = Date.now() + 10_000; !handles.some(([name]) => name === 'replay'); await sleep(200)) {
    if (Date.now() > until) throw new Error('the replay workflow was not listed');
    for await (const execution of stack.temporal.workflow.list({
      query: `WorkflowType = 'replayWorkflow' AND SignalId = '${signalId}'`,
    })) {
      handles.push(['replay', stack.temporal.workflow.getHandle(execution.workflowId)]);
    }
  }
  const histories = await Promise.all(
    handles.map(async ([name, handle]) => ({
      name,
      workflowId: handle.workflowId,
      history: await handle.fetchHistory(),
    })),
  );

  expect(await replay(histories)).toEqual(histories.map(({ workflowId }) => ({ workflowId })));
  if (process.env.RECORD_WORKFLOW_HISTORIES) {
    mkdirSync(HISTORIES, { recursive: true });
    // Binary protobuf: the SDK's JSON export trips over its two copies of protobufjs.
    for (const { name, history } of histories) {
      writeFileSync(path.join(HISTORIES, `${name}.binpb`), temporal.api.history.v1.History.encode(history).finish());
    }
  }
});
