import { Connection, Client as TemporalClient } from '@temporalio/client';
import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { createLogger } from '../../src/logger';
import { TemporalSignalLifecycle } from '../../src/services/signals/temporal-lifecycle';
import { SignalActivityReader } from '../../src/services/signals/activity';
import {
  AccountIdKey,
  LeadIdKey,
  RoutesKey,
  SignalIdKey,
  SignalStatusKey,
  SignalTypeKey,
  leadWorkflowId,
  signalWorkflowId,
} from '../../src/temporal/contract';
import { evaluationPhaseMs, nextEvaluationSlot } from '../../workflows/evaluation-slots';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import {
  client,
  createSignal,
  daysAgo,
  expectStatus,
  ingest,
  jobChanger,
  settled,
  startLeadsStack,
  waitFor,
} from '../leads/fixtures';

/** What an operator finds in the Temporal Web UI, and what the API asks the workflows. */

let stack: Stack;
let receiver: Receiver | undefined;
beforeAll(async () => {
  stack = await startLeadsStack();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

test('every lead has a lead workflow of the signal, findable by SignalId, saying who it is and where it went', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
  const changer = jobChanger('ui-1', daysAgo(3), {
    title: 'Chief Technology Officer',
    person: { firstName: 'Jane', lastName: 'Doe' },
  });
  await ingest(stack, changer.records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Web UI',
    status: 'active',
    webhookUrl: receiver.url,
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  await settled(stack, signal.id);
  const [lead] = await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [signal.id]);
  const handle = stack.temporal.workflow.getHandle(leadWorkflowId(lead.id));
  await expect(handle.result()).resolves.toEqual({ email: 'not_requested', routes: { webhook: 'delivered' } });

  const description = await handle.describe();
  expect(description.typedSearchAttributes.get(SignalIdKey)).toBe(signal.id);
  expect(description.typedSearchAttributes.get(AccountIdKey)).toBe(account.accountId);
  expect(description.typedSearchAttributes.get(SignalTypeKey)).toBe('job_changes');
  expect(description.typedSearchAttributes.get(LeadIdKey)).toBe(lead.id);
  expect(description.typedSearchAttributes.get(RoutesKey)).toEqual(['webhook']);
  expect(await description.staticSummary()).toBe(
    `Jane Doe, Chief Technology Officer at ${changer.company.name}: job change → webhook`,
  );
  // Its route answered at once: the whole lead was one workflow task (local activities).
  const history = await handle.fetchHistory();
  expect(history.events?.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  // Said once: "delivered — delivered (200)" read as a stutter (issue 38).
  expect(metadata.currentDetails).toMatch(/^- \*\*webhook\*\*: delivered — HTTP 200 \(delivery `/);

  // By SignalId, the operator finds the signal's runs (it continues as new after starting leads)
  // and one lead run per lead.
  const found = await waitFor(
    'visibility to list the signal and its lead',
    async () => {
      const runs: Array<{ workflowId: string; type: string }> = [];
      for await (const execution of stack.temporal.workflow.list({ query: `SignalId = '${signal.id}'` })) {
        runs.push({ workflowId: execution.workflowId, type: execution.type });
      }
      return runs;
    },
    (runs) =>
      runs.some((run) => run.type === 'leadWorkflow') &&
      runs.filter((run) => run.type === 'signalWorkflow').length === 2,
  );
  expect(new Set(found.map((run) => run.workflowId))).toEqual(
    new Set([leadWorkflowId(lead.id), signalWorkflowId(signal.id)]),
  );
  expect(found.filter((run) => run.type === 'leadWorkflow')).toHaveLength(1);
});

test('the signal workflow keeps SignalStatus true, so one query lists every paused signal', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Status',
    status: 'active',
    config: { jobTitles: ['Chief Revenue Officer'] },
  });
  await settled(stack, signal.id);
  const handle = stack.temporal.workflow.getHandle(signalWorkflowId(signal.id));
  expect((await handle.describe()).typedSearchAttributes.get(SignalStatusKey)).toBe('active');

  expectStatus(await api.post(`/signals/${signal.id}/pause`), 200);
  const paused = async () => {
    const ids: string[] = [];
    const query = `SignalStatus = 'paused' AND AccountId = '${account.accountId}'`;
    for await (const execution of stack.temporal.workflow.list({ query })) ids.push(execution.workflowId);
    return ids;
  };
  expect(await waitFor('the paused signal to be listed', paused, (ids) => ids.length === 1)).toEqual([
    signalWorkflowId(signal.id),
  ]);

  expectStatus(await api.post(`/signals/${signal.id}/resume`), 200);
  await waitFor('the resumed signal to leave the list', paused, (ids) => ids.length === 0);
  expect((await handle.describe()).typedSearchAttributes.get(SignalStatusKey)).toBe('active');
});

test('the activity endpoint asks the workflow, and answers from PostgreSQL alone when Temporal cannot', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  await ingest(stack, jobChanger('ui-3', daysAgo(2), { title: 'Chief Marketing Officer' }).records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Activity',
    status: 'active',
    config: { jobTitles: ['Chief Marketing Officer'] },
  });
  await settled(stack, signal.id);

  const live = expectStatus(await api.get(`/signals/${signal.id}/activity`), 200);
  expect(live).toMatchObject({
    signalId: signal.id,
    status: 'active',
    source: 'workflow',
    workflowStatus: 'active',
    evaluating: false,
    leadsStartedThisEvaluation: 1,
    leadsToday: 1,
    leadsTotal: 1,
    leadsBeingDelivered: 0,
  });
  // The interval is an hour: the next evaluation is the signal's own slot, half an hour to an hour and a half on.
  const lastEvaluatedAt = Date.parse(live.lastEvaluatedAt);
  const nextEvaluationAt = Date.parse(live.nextEvaluationAt);
  expect(nextEvaluationAt).toBe(nextEvaluationSlot(signal.id, 3_600_000, lastEvaluatedAt));
  expect(nextEvaluationAt % 3_600_000).toBe(evaluationPhaseMs(signal.id, 3_600_000));
  expect(nextEvaluationAt - lastEvaluatedAt).toBeGreaterThanOrEqual(1_800_000);
  expect(nextEvaluationAt - lastEvaluatedAt).toBeLessThanOrEqual(5_400_000);

  // A Temporal that does not answer (nothing listens there): the read still answers, marked as such.
  const unreachable = new TemporalClient({
    connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 200 }),
  });
  const lifecycle = new TemporalSignalLifecycle(stack.db, stack.config, createLogger('silent', 'test'), unreachable);
  const reader = new SignalActivityReader(stack.db, stack.services.signals, (id) => lifecycle.liveState(id));
  expect(await reader.read(account.accountId, signal.id)).toEqual({
    signalId: signal.id,
    status: 'active',
    source: 'database',
    workflowStatus: null,
    evaluating: null,
    lastEvaluatedAt: null,
    nextEvaluationAt: null,
    leadsStartedThisEvaluation: null,
    leadsBeingDelivered: 0,
    leadsToday: 1,
    leadsTotal: 1,
  });
  expectStatus(await api.get(`/signals/00000000-0000-4000-8000-000000000000/activity`), 404);
});
