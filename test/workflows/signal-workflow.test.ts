import { randomUUID } from 'node:crypto';
import { heartbeat } from '@temporalio/activity';
import type { signalWorkflow } from '../../workflows/signal';
import {
  SignalIdKey,
  SignalStatusKey,
  leadWorkflowId,
  signalWorkflowId,
  signalWorkflowMessages,
  signalWorkflowStateQuery,
  signalWorkflowType,
  type SignalWorkflowInput,
} from '../../src/temporal/contract';
import {
  Gate,
  batch,
  childrenStarted,
  eventually,
  producedLead,
  runsOf,
  stubBed,
  type ProducedBatch,
  type StubActivities,
  type StubBed,
} from './stub-worker';

/**
 * The signal workflow alone: a worker in this process with stub production and hand-off, and
 * the lead workflows it starts (on the same queue) delivering at once. Production is scripted
 * per signal: a batch, or a gate the test opens while the workflow waits on the batch.
 */

type Step = ProducedBatch | Gate<ProducedBatch>;
const scripts = new Map<string, Step[]>();
const production = new Map<string, Array<number | null>>();
const handedOff: string[][] = [];
const attempted: string[] = [];

const activities: StubActivities = {
  async produceLeads(signalId, evaluationDueAt) {
    production.get(signalId)!.push(evaluationDueAt);
    // Past the script: nothing more to produce.
    const step = scripts.get(signalId)!.shift() ?? batch([], false);
    if (!(step instanceof Gate)) return step;
    // Heartbeats as the real activity does, or its 5 s heartbeat time-out would retry it.
    const beating = setInterval(() => heartbeat(), 1_000);
    try {
      return await step.promise;
    } finally {
      clearInterval(beating);
    }
  },
  async recordHandOff(leadIds) {
    handedOff.push(leadIds);
  },
  async attemptDelivery(deliveryId) {
    attempted.push(deliveryId);
    return { outcome: 'delivered', statusCode: 200 };
  },
};

let bed: StubBed;
beforeAll(async () => {
  bed = await stubBed(activities);
});
afterAll(async () => {
  await bed?.close();
});

/** Starts a signal's workflow as the lifecycle service does, with production answering `steps` in turn. */
async function startSignal(steps: Step[], input: Partial<SignalWorkflowInput> = {}) {
  const signalId = randomUUID();
  scripts.set(signalId, steps);
  production.set(signalId, []);
  const handle = await bed.client.workflow.start<typeof signalWorkflow>(signalWorkflowType, {
    workflowId: signalWorkflowId(signalId),
    taskQueue: bed.taskQueue,
    args: [
      {
        signalId,
        accountId: randomUUID(),
        signalTypeId: 'job_changes',
        // An hour: only the first activation and messages evaluate, unless a test shortens it.
        evaluationIntervalMs: 3_600_000,
        leadTaskQueue: bed.taskQueue,
        ...input,
      },
    ],
    typedSearchAttributes: [
      { key: SignalIdKey, value: signalId },
      { key: SignalStatusKey, value: 'active' },
    ],
  });
  // The latest run's (a query follows continue-as-new).
  const state = () => bed.client.workflow.getHandle(handle.workflowId).query(signalWorkflowStateQuery);
  const status = async () =>
    (await bed.client.workflow.getHandle(handle.workflowId).describe()).typedSearchAttributes.get(SignalStatusKey);
  const runs = () =>
    runsOf({ client: bed.client, workflowId: handle.workflowId, firstRunId: handle.firstExecutionRunId });
  const latest = bed.client.workflow.getHandle(handle.workflowId);
  return { signalId, handle: latest, produced: production.get(signalId)!, state, status, runs };
}

const ids = (leads: Array<{ leadId: string }>) => leads.map((lead) => lead.leadId);
const handedOffIds = () => new Set(handedOff.flat());

afterEach(async () => {
  // Signal workflows wait for their next slot forever: end the ones a test left.
  for (const signalId of scripts.keys()) {
    await bed.client.workflow
      .getHandle(signalWorkflowId(signalId))
      .terminate('test over')
      .catch(() => undefined);
  }
  scripts.clear();
});

test('every started lead is handed off, a batch at a time, and its workflow delivers it', async () => {
  const first = [producedLead(), producedLead(), producedLead(undefined, ['webhook', 'hubspot'])];
  const second = [producedLead(), producedLead()];
  const signal = await startSignal([batch(first, true), batch(second, false)]);

  await eventually(async () => (await signal.state()).leadsStarted === 5, 'five leads started');
  // Each batch recorded as handed off right after its starts (at least once).
  await eventually(() => [...ids(first), ...ids(second)].every((id) => handedOffIds().has(id)), 'both hand-offs');
  expect(handedOff).toContainEqual(ids(first));
  expect(handedOff).toContainEqual(ids(second));
  // The evaluation was the first activation's, not a slot's.
  expect(signal.produced).toEqual([null, null]);

  for (const lead of [...first, ...second]) {
    const result = await bed.client.workflow.getHandle(leadWorkflowId(lead.leadId)).result();
    expect(result.routes).toEqual(Object.fromEntries(lead.routes.map((route) => [route, 'delivered'])));
  }
  expect(attempted).toEqual(
    expect.arrayContaining([...first, ...second].flatMap((l) => l.deliveries.map((d) => d.deliveryId))),
  );

  // It started leads, so it moved on to a new run carrying its counters; it waits for its next slot there.
  const runs = await eventually(async () => {
    const all = await signal.runs();
    return all.length === 2 && all;
  }, 'a second run');
  expect(childrenStarted(runs).sort()).toEqual([...first, ...second].map((l) => leadWorkflowId(l.leadId)).sort());
  const state = await signal.state();
  expect(state).toMatchObject({
    signalId: signal.signalId,
    status: 'active',
    evaluating: false,
    evaluations: 1,
    leadsStarted: 5,
    leadsStartedThisEvaluation: 5,
  });
  expect(Date.parse(state.nextEvaluationAt!)).toBeGreaterThan(Date.parse(state.lastEvaluatedAt!));
});

test('continue-as-new mid-evaluation carries its state: the next run goes on with the evaluation, no lead started twice', async () => {
  const batches = [[producedLead(), producedLead()], [producedLead(), producedLead()], [producedLead()]];
  const signal = await startSignal(
    [batch(batches[0]!, true), batch(batches[1]!, true), batch(batches[2]!, false)],
    // Two lead workflows per run: each full batch ends its run.
    { leadsPerRun: 2 },
  );

  const runs = await eventually(async () => {
    const all = await signal.runs();
    return all.length === 4 && all;
  }, 'four runs');
  // Runs 1 and 2 cut the evaluation short, run 3 finished it, run 4 waits for the next slot.
  expect(runs.map((history) => childrenStarted([history]).length)).toEqual([2, 2, 1, 0]);
  const started = childrenStarted(runs);
  expect(new Set(started).size).toBe(started.length);
  expect(started.sort()).toEqual(
    batches
      .flat()
      .map((lead) => leadWorkflowId(lead.leadId))
      .sort(),
  );
  expect(signal.produced).toEqual([null, null, null]);
  expect(handedOff).toEqual(expect.arrayContaining(batches.map(ids)));

  // One evaluation across three runs, and its count of leads carried through.
  expect(await signal.state()).toMatchObject({
    evaluating: false,
    evaluations: 1,
    leadsStarted: 5,
    leadsStartedThisEvaluation: 5,
    status: 'active',
  });
});

test('paused during an evaluation: the batch under way finishes and is handed off, no further batch, status paused; resumed: evaluates again', async () => {
  const underWay = new Gate<ProducedBatch>();
  const lateLead = producedLead();
  const signal = await startSignal([underWay, batch([lateLead], false)]);
  await eventually(() => signal.produced.length === 1, 'the first batch under way');

  await signal.handle.signal(signalWorkflowMessages.pause);
  await eventually(async () => (await signal.state()).status === 'paused', 'the pause seen');
  expect(await signal.state()).toMatchObject({ evaluating: true, status: 'paused' });

  // The batch's transaction read the signal before the pause reached PostgreSQL: active, more to come.
  const leads = [producedLead(), producedLead()];
  underWay.release(batch(leads, true));
  await eventually(async () => (await signal.runs()).length === 2, 'the run that started the leads moved on');
  expect(await signal.state()).toMatchObject({
    evaluating: false,
    evaluations: 1,
    leadsStarted: 2,
    status: 'paused',
    nextEvaluationAt: null,
  });
  expect(await signal.status()).toBe('paused');
  expect(signal.produced).toHaveLength(1);
  expect(handedOff).toContainEqual(ids(leads));

  await signal.handle.signal(signalWorkflowMessages.resume);
  await eventually(async () => (await signal.state()).evaluations === 2, 'the evaluation the resume asked for');
  expect(signal.produced).toEqual([null, null]);
  expect(await signal.state()).toMatchObject({ status: 'active', leadsStarted: 3, leadsStartedThisEvaluation: 1 });
  expect(await signal.status()).toBe('active');
  await eventually(() => handedOffIds().has(lateLead.leadId), 'the resumed evaluation handed off');
});

test('paused and resumed within one batch: the evaluation goes on to its next batch', async () => {
  const underWay = new Gate<ProducedBatch>();
  const leads = [producedLead(), producedLead()];
  const signal = await startSignal([underWay, batch([leads[1]!], false)]);
  await eventually(() => signal.produced.length === 1, 'the first batch under way');

  await signal.handle.signal(signalWorkflowMessages.pause);
  await signal.handle.signal(signalWorkflowMessages.resume);
  await eventually(async () => (await signal.state()).status === 'active' && signal.produced.length === 1, 'resumed');
  expect(await signal.state()).toMatchObject({ evaluating: true });
  underWay.release(batch([leads[0]!], true));

  // The second batch belongs to the same evaluation; the resume also asked for one of its own,
  // which the next run makes (production has nothing more).
  await eventually(async () => (await signal.state()).evaluations === 2, 'both evaluations');
  expect(signal.produced).toEqual([null, null, null]);
  const runs = await signal.runs();
  expect(childrenStarted(runs.slice(0, 1)).sort()).toEqual(leads.map((l) => leadWorkflowId(l.leadId)).sort());
  expect(await signal.state()).toMatchObject({ status: 'active', leadsStarted: 2, leadsStartedThisEvaluation: 0 });
});

test('deleted during an evaluation: the batch under way is still handed off, then the workflow ends', async () => {
  const underWay = new Gate<ProducedBatch>();
  const signal = await startSignal([underWay, batch([producedLead()], false)]);
  await eventually(() => signal.produced.length === 1, 'the first batch under way');

  await signal.handle.signal(signalWorkflowMessages.delete);
  // Leads already produced (and billed) are never dropped: their workflows start and deliver.
  const leads = [producedLead(), producedLead()];
  underWay.release(batch(leads, true));

  await signal.handle.result();
  expect(signal.produced).toHaveLength(1);
  expect(handedOff).toContainEqual(ids(leads));
  const runs = await signal.runs();
  expect(runs).toHaveLength(1);
  expect(childrenStarted(runs).sort()).toEqual(leads.map((l) => leadWorkflowId(l.leadId)).sort());
  for (const lead of leads) {
    expect((await bed.client.workflow.getHandle(leadWorkflowId(lead.leadId)).result()).routes).toEqual({
      webhook: 'delivered',
    });
  }
});

test('a signal production finds deleted ends its workflow without a message', async () => {
  const signal = await startSignal([batch([], false, { state: 'deleted' })]);
  await signal.handle.result();
  expect(signal.produced).toEqual([null]);
  expect((await signal.runs()).map((history) => history.events?.at(-1)?.eventType)).toEqual([
    2, // WORKFLOW_EXECUTION_COMPLETED
  ]);
});

test("the day's cap reached mid-evaluation ends the evaluation; the signal stays active and waits for its next slot", async () => {
  const first = [producedLead(), producedLead(), producedLead()];
  const last = [producedLead()];
  const signal = await startSignal([
    batch(first, true),
    // Production stopped at the cap: one lead, nothing more today.
    batch(last, false, { deferredBy: 'dailyLeadLimit' }),
  ]);

  await eventually(async () => (await signal.runs()).length === 2, 'the evaluation over');
  const state = await signal.state();
  expect(state).toMatchObject({ evaluating: false, evaluations: 1, leadsStartedThisEvaluation: 4, status: 'active' });
  expect(state.nextEvaluationAt).not.toBeNull();
  expect(signal.produced).toEqual([null, null]);
  expect(await signal.status()).toBe('active');
  expect(handedOff).toEqual(expect.arrayContaining([ids(first), ids(last)]));
});

test('credits running out mid-evaluation show credits_exhausted; an evaluation with credits again shows active', async () => {
  const first = [producedLead(), producedLead()];
  const signal = await startSignal([
    batch(first, true),
    batch([], false, { deferredBy: 'credits' }),
    batch([producedLead()], false),
  ]);

  await eventually(async () => (await signal.state()).evaluations === 1, 'the evaluation over');
  expect(await signal.state()).toMatchObject({ status: 'credits_exhausted', leadsStartedThisEvaluation: 2 });
  expect(await signal.status()).toBe('credits_exhausted');
  expect(signal.produced).toHaveLength(2);

  await signal.handle.signal(signalWorkflowMessages.evaluateNow);
  await eventually(async () => (await signal.state()).evaluations === 2, 'the evaluation asked for');
  expect(await signal.state()).toMatchObject({ status: 'active', leadsStarted: 3 });
  expect(await signal.status()).toBe('active');
});

test('between messages it evaluates on its slots (an interval of seconds through its input), telling production the slot', async () => {
  const signal = await startSignal([batch([], false)], { evaluationIntervalMs: 2_000 });
  const waiting = await eventually(async () => {
    const state = await signal.state();
    return state.evaluations === 1 && state.nextEvaluationAt !== null && state;
  }, 'the first evaluation over');
  // No lead started: the same run waits for its slot, between half and one and a half intervals away.
  const slotAt = Date.parse(waiting.nextEvaluationAt!);
  expect(slotAt - Date.parse(waiting.lastEvaluatedAt!)).toBeGreaterThanOrEqual(1_000);
  expect(slotAt - Date.parse(waiting.lastEvaluatedAt!)).toBeLessThanOrEqual(3_000);

  await eventually(() => signal.produced.length === 2, 'the slot evaluation');
  expect(signal.produced).toEqual([null, slotAt]);
  expect(await signal.runs()).toHaveLength(1);
});

test("a batch's nextDueAt wakes it then, well before its hourly slot; an evaluation answering none waits for the slot again", async () => {
  const dueAt = new Date(Date.now() + 3_000).toISOString();
  const signal = await startSignal([batch([], false, { nextDueAt: dueAt }), batch([], false)]);
  const waiting = await eventually(async () => {
    const state = await signal.state();
    return state.evaluations === 1 && state.nextEvaluationAt !== null && state;
  }, 'the first evaluation over');
  expect(waiting.nextEvaluationAt).toBe(dueAt);

  await eventually(async () => (await signal.state()).evaluations === 2, 'the evaluation due by time', 15_000);
  // Due by time, not a slot: production is told no slot.
  expect(signal.produced).toEqual([null, null]);
  const after = await eventually(async () => (await signal.state()).nextEvaluationAt, 'waiting again');
  expect(Date.parse(after) - Date.parse(dueAt)).toBeGreaterThan(30 * 60_000);
  expect(await signal.runs()).toHaveLength(1);
});

test('the time due is carried across continue-as-new: the run after a hand-off wakes at it', async () => {
  const dueAt = new Date(Date.now() + 4_000).toISOString();
  const signal = await startSignal([batch([producedLead()], false, { nextDueAt: dueAt }), batch([], false)]);
  await eventually(async () => (await signal.runs()).length === 2, 'continued as new after the hand-off');
  await eventually(
    async () => (await signal.state()).nextEvaluationAt === dueAt,
    'the new run waiting for the time due',
  );

  await eventually(async () => (await signal.state()).evaluations === 2, 'the evaluation due by time', 15_000);
  expect(signal.produced).toEqual([null, null]);
});
