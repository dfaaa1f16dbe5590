import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { startStack, type Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import {
  balanceOf,
  client,
  company,
  createSignal,
  daysAgo,
  event,
  ingest,
  jobChangeData,
  person,
  requestEvaluation,
  waitFor,
  workflowState,
  type Client,
  type IngestRecord,
} from '../leads/fixtures';
import { createWorker } from '../../worker/worker';
import { WorkerDeployments } from '../../src/temporal/worker-deployment';
import { deliveryTaskQueue, leadWorkflowId, signalWorkflowId } from '../../src/temporal/contract';
import { listPersonas } from '../../src/catalogue/personas';
import { BUILD_B_PATCH, BUILD_QUERY } from './build-b/names';
import { failedTasks } from './failed-tasks';

/**
 * A deploy of new workflow code under running work, as docs/operating.md ("Deploying new
 * workflow code") has an operator do it: signals and lead workflows waiting on webhook retries
 * run on build A; build B, whose signal and lead workflows changed (test/deploy/build-b), starts
 * beside it and is made current; every lead finishes on A, every signal goes on on B, nothing
 * fails to replay, nothing is lost or billed twice; A then drains and stops, and B alone goes on.
 *
 * The 200 signals and 500 leads run with `npm run soak:deploy`; the suite runs fewer
 * (DEPLOY_TEST_SIGNALS, DEPLOY_TEST_LEADS) to fit its time on a 2-core machine.
 */
const SIGNALS = Number(process.env.DEPLOY_TEST_SIGNALS ?? 20);
const LEADS = Number(process.env.DEPLOY_TEST_LEADS ?? 40);
/** Signals that produce the leads, each with a persona of its own; the others find nothing. */
const LEAD_SIGNALS = Math.min(10, SIGNALS - 1, LEADS);
/** Leads produced once B is current (a lead signal's new job changes). */
const LEADS_ON_B = 3;
const CREDITS_PER_LEAD = 2;
const SCALE = Math.max(1, (SIGNALS + LEADS) / 60);
jest.setTimeout(600_000 * SCALE);

const deploymentName = `deploy-test-${randomUUID().slice(0, 8)}`;
const A = { deploymentName, buildId: 'build-a' };
const B = { deploymentName, buildId: 'build-b' };
const { VersioningBehavior } = temporal.api.enums.v1;
const { EventType } = temporal.api.enums.v1;

let stack: Stack;
let account: TestAccount;
let api: Client;
let receiver: Receiver;
let deployments: WorkerDeployments;
let bundleB: string;
let workersB: Awaited<ReturnType<typeof createWorker>> | undefined;
let runningB: Promise<unknown> | undefined;
const credits = (LEADS + LEADS_ON_B + 1) * CREDITS_PER_LEAD + 100;
const personas = listPersonas().map((p) => p.name);
const signalIds: string[] = [];
const leadsOfA: string[] = [];

beforeAll(async () => {
  stack = await startStack({
    worker: false,
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      RATE_LIMIT_PER_SECOND: '100000',
      WEBHOOK_TIMEOUT_MS: '4000',
      // Each lead wakes every few seconds to try again: the timers fire on A while B is current.
      WEBHOOK_RETRY_INITIAL_MS: '1000',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '4000',
      WEBHOOK_RETRY_WINDOW_MS: '3600000',
      TEMPORAL_DEPLOYMENT_NAME: deploymentName,
      BUILD_ID: A.buildId,
    },
  });
  deployments = new WorkerDeployments(stack.temporal, stack.config.TEMPORAL_NAMESPACE);
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('./build-b/workflows'),
    logger: new DefaultLogger('WARN'),
  });
  bundleB = path.join(
    path.dirname(process.env.TEST_WORKFLOW_BUNDLE!),
    `workflow-bundle-${B.buildId}-${randomUUID()}.js`,
  );
  writeFileSync(bundleB, code);
  account = await createAccount(stack, { credits });
  api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
  // Build A: the suite's bundle, as a version of the deployment; the first start makes it current.
  await stack.startWorker();
});

afterAll(async () => {
  workersB?.worker.shutdown();
  workersB?.deliveryWorker.shutdown();
  workersB?.sourceWorker.shutdown();
  await runningB;
  await workersB?.connection.close();
  await receiver?.close();
  await stack?.stop();
});

/** `count` job changes at one company whose people all hold `persona`, so one signal takes them. */
function jobChanges(slug: string, persona: string, count: number): IngestRecord[] {
  const co = company(slug);
  const records: IngestRecord[] = [co];
  for (let i = 0; i < count; i++) {
    const who = person(`${slug}-${i}`, co.id, { title: persona });
    records.push(
      who,
      event(`ev-${slug}-${i}`, 'job_change', daysAgo(10 + i * 0.001), co.id, {
        personId: who.id,
        data: jobChangeData(persona, co.name),
      }),
    );
  }
  return records;
}

const leadsPerSignal = (i: number) => Math.floor(LEADS / LEAD_SIGNALS) + (i < LEADS % LEAD_SIGNALS ? 1 : 0);
/** Nobody ingested holds it: the quiet signals watch it. */
const quietPersona = () => personas[LEAD_SIGNALS]!;

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [{ n }] = await stack.db.query(sql, params);
  return n;
}

/** What a workflow's tasks were completed by: the build ids its history names, and whether any task failed. */
async function historyOf(workflowId: string, runId?: string) {
  const history = await stack.temporal.workflow.getHandle(workflowId, runId).fetchHistory();
  const builds = new Set<string>();
  for (const e of history.events ?? []) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      const attrs = e.workflowTaskCompletedEventAttributes;
      builds.add(attrs?.deploymentVersion?.buildId ?? attrs?.workerDeploymentVersion?.split('.')[1] ?? 'unversioned');
    }
  }
  const failures = failedTasks(history).map((failure) => `${workflowId}: ${failure}`);
  // A patch's marker carries its id in a payload of its details.
  const patchedB = (history.events ?? []).some((e) =>
    Object.values(e.markerRecordedEventAttributes?.details ?? {}).some((payloads) =>
      (payloads.payloads ?? []).some((p) =>
        Buffer.from(p.data ?? [])
          .toString('utf8')
          .includes(BUILD_B_PATCH),
      ),
    ),
  );
  return { builds: [...builds], failures, patchedB };
}

async function versioningOf(workflowId: string) {
  const described = await stack.temporal.workflow.getHandle(workflowId).describe();
  const info = described.raw.workflowExecutionInfo?.versioningInfo;
  return {
    status: described.status.name,
    buildId: info?.deploymentVersion?.buildId ?? info?.version?.split('.')[1] ?? null,
    behavior: info?.behavior ?? VersioningBehavior.VERSIONING_BEHAVIOR_UNSPECIFIED,
    /** Set by build B's changes only. */
    memoBuild: (described.memo?.build as string | undefined) ?? null,
  };
}

/** Every run of every workflow on the test's two task queues (signals and deliveries). */
async function allRuns(): Promise<WorkflowExecutionInfo[]> {
  const queues = [stack.config.TEMPORAL_TASK_QUEUE, deliveryTaskQueue(stack.config)];
  const runs: WorkflowExecutionInfo[] = [];
  for await (const run of stack.temporal.workflow.list({
    query: queues.map((queue) => `TaskQueue = '${queue}'`).join(' OR '),
  })) {
    runs.push(run);
  }
  return runs;
}

/** At most `width` at once: hundreds of describes or histories must not flood the dev server. */
async function eachLimited<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

test(`build A: ${SIGNALS} active signals, ${LEADS} lead workflows waiting on webhook retries`, async () => {
  expect(await deployments.describe(deploymentName)).toMatchObject({ currentBuildId: A.buildId });
  // Every delivery of A's leads is answered 503 until B is current: they wait on durable timers.
  receiver.answerWith(() => ({ status: 503 }));
  const records: IngestRecord[] = [];
  for (let i = 0; i < LEAD_SIGNALS; i++) records.push(...jobChanges(`deploy-${i}`, personas[i]!, leadsPerSignal(i)));
  await ingest(stack, records);
  for (let i = 0; i < SIGNALS; i++) {
    const signal = await createSignal(api, 'job-changes', {
      name: `deploy ${i}`,
      status: 'active',
      dailyLeadLimit: LEADS + 100,
      webhookUrl: receiver.url,
      config: { jobTitles: [i < LEAD_SIGNALS ? personas[i]! : quietPersona()] },
    });
    signalIds.push(signal.id);
  }
  // Each lead handed off and tried once at least (its first answer a 503).
  await waitFor(
    `${LEADS} leads handed off and tried`,
    async () => ({
      handedOff: await count(`SELECT count(*)::int AS n FROM leads WHERE handed_off_at IS NOT NULL`),
      tried: new Set(receiver.requests.map((r) => r.body?.contact?.lead_id)).size,
    }),
    (p) => p.handedOff === LEADS && p.tried === LEADS,
    { timeoutMs: 120_000 * SCALE, intervalMs: 500 },
  );
  leadsOfA.push(...(await stack.db.query(`SELECT id FROM leads`)).map((row: { id: string }) => row.id));
  expect(leadsOfA).toHaveLength(LEADS);
  // Every signal evaluated once on A (the quiet ones too, which may come after the leads).
  await waitFor(
    `${SIGNALS} signals evaluated`,
    async () =>
      (await eachLimited(signalIds, 8, (id) => workflowState(stack, id))).filter((s) => (s?.evaluations ?? 0) >= 1)
        .length,
    (evaluated) => evaluated === SIGNALS,
    { timeoutMs: 60_000 * SCALE, intervalMs: 500 },
  );
  expect(await count(`SELECT count(*)::int AS n FROM deliveries WHERE status = 'delivered'`)).toBe(0);
});

test('build B starts beside A and is made current: A keeps its leads, B takes the signals', async () => {
  workersB = await createWorker(stack.services, {
    temporal: stack.config.TEMPORAL,
    taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
    workflowBundlePath: bundleB,
    deployment: B,
  });
  runningB = Promise.all([workersB.worker.run(), workersB.deliveryWorker.run(), workersB.sourceWorker.run()]);
  // A second build does not promote itself (TEMPORAL_DEPLOYMENT_PROMOTE=if-none): the operator does.
  expect(await deployments.promote(B, 'if-none')).toBe(false);
  await deployments.makeCurrent(B);
  expect(await deployments.describe(deploymentName)).toMatchObject({ currentBuildId: B.buildId });

  // Receivers answer again; new job changes for the first lead signal; every signal is asked to evaluate.
  receiver.answerWith(() => ({ status: 200 }));
  await ingest(stack, jobChanges('deploy-on-b', personas[0]!, LEADS_ON_B));
  for (const id of signalIds) expect((await requestEvaluation(stack, id)).status).toBe(202);

  await waitFor(
    'every lead delivered',
    () => count(`SELECT count(*)::int AS n FROM deliveries WHERE kind = 'lead' AND status = 'delivered'`),
    (n) => n === LEADS + LEADS_ON_B,
    { timeoutMs: 180_000 * SCALE, intervalMs: 500 },
  );
  await waitFor(
    'every signal evaluated again',
    async () =>
      (await eachLimited(signalIds, 8, (id) => workflowState(stack, id))).filter(
        (state) => state !== null && state.evaluations >= 2 && !state.evaluating,
      ).length,
    (n) => n === SIGNALS,
    { timeoutMs: 60_000 * SCALE, intervalMs: 1000 },
  );

  // Every lead A started finished on A, pinned, untouched by B's change.
  // Its result first: a lead's delivered row is written a workflow task before the run completes.
  const leadsOnA = await eachLimited(leadsOfA, 8, async (leadId) => {
    const result = await stack.temporal.workflow.getHandle(leadWorkflowId(leadId)).result();
    return {
      ...(await versioningOf(leadWorkflowId(leadId))),
      history: await historyOf(leadWorkflowId(leadId)),
      result,
    };
  });
  for (const lead of leadsOnA) {
    expect(lead).toMatchObject({
      status: 'COMPLETED',
      buildId: A.buildId,
      behavior: VersioningBehavior.VERSIONING_BEHAVIOR_PINNED,
      memoBuild: null,
      history: { builds: [A.buildId], failures: [] },
      result: { routes: { webhook: 'delivered' } },
    });
  }
  // The leads produced since run B's lead code.
  const newLeads = (await stack.db.query(`SELECT id FROM leads WHERE id <> ALL($1::uuid[])`, [leadsOfA])).map(
    (row: { id: string }) => row.id,
  );
  expect(newLeads).toHaveLength(LEADS_ON_B);
  for (const leadId of newLeads) {
    await stack.temporal.workflow.getHandle(leadWorkflowId(leadId)).result();
    expect({
      ...(await versioningOf(leadWorkflowId(leadId))),
      history: await historyOf(leadWorkflowId(leadId)),
    }).toMatchObject({
      status: 'COMPLETED',
      buildId: B.buildId,
      behavior: VersioningBehavior.VERSIONING_BEHAVIOR_PINNED,
      memoBuild: 'B',
      history: { builds: [B.buildId], failures: [] },
    });
  }
  // Every signal goes on on B: auto-upgrading, answering B's query; a run started on B took B's patched path.
  const signals = await eachLimited(signalIds, 8, async (signalId) => {
    const workflowId = signalWorkflowId(signalId);
    return {
      ...(await versioningOf(workflowId)),
      build: await stack.temporal.workflow.getHandle(workflowId).query<string>(BUILD_QUERY),
      history: await historyOf(workflowId),
    };
  });
  for (const signal of signals) {
    expect(signal).toMatchObject({
      status: 'RUNNING',
      buildId: B.buildId,
      behavior: VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
      build: 'B',
      history: { failures: [] },
    });
    expect(signal.history.builds[signal.history.builds.length - 1]).toBe(B.buildId);
  }
  // The first lead signal continued as new after its leads on B: that run began on B, with the patch.
  expect(signals[0]).toMatchObject({ memoBuild: 'B', history: { builds: [B.buildId], patchedB: true } });
  // A quiet signal's run began on A and moved to B mid-run: the patch stayed off, as its history has it.
  expect(signals[SIGNALS - 1]).toMatchObject({
    memoBuild: null,
    history: { builds: [A.buildId, B.buildId], patchedB: false },
  });
});

test('no task of any run failed to replay; every lead was produced once, billed once and delivered', async () => {
  const runs = await allRuns();
  expect(runs.length).toBeGreaterThanOrEqual(SIGNALS + LEADS + LEADS_ON_B);
  const failures = (await eachLimited(runs, 8, (run) => historyOf(run.workflowId, run.runId))).flatMap(
    (h) => h.failures,
  );
  expect(failures).toEqual([]);

  const leads = LEADS + LEADS_ON_B;
  expect(await count(`SELECT count(*)::int AS n FROM leads`)).toBe(leads);
  const charges: Array<{ lead_id: string; n: number }> = await stack.db.query(
    `SELECT lead_id, count(*)::int AS n FROM credit_ledger WHERE lead_id IS NOT NULL GROUP BY lead_id`,
  );
  expect(charges).toHaveLength(leads);
  expect(charges.filter((c) => c.n !== 1)).toEqual([]);
  expect(await balanceOf(api)).toBe(credits - leads * CREDITS_PER_LEAD);
  // Each lead acknowledged by the receiver, every try of one lead under one X-Webhook-Id.
  const acknowledged = new Map<string, Set<string>>();
  for (const r of receiver.requests) {
    const leadId = r.body?.contact?.lead_id as string;
    if (!acknowledged.has(leadId)) acknowledged.set(leadId, new Set());
    acknowledged.get(leadId)!.add(String(r.headers['x-webhook-id']));
    expect(r.verified).toBe(true);
  }
  expect(acknowledged.size).toBe(leads);
  expect([...acknowledged.values()].filter((ids) => ids.size !== 1)).toEqual([]);
});

test('build A drains, its workers stop, and B alone goes on', async () => {
  await waitFor(
    'build A drained',
    () => deployments.drainageOf(A),
    (status) => status === 'drained',
    {
      timeoutMs: 60_000,
      intervalMs: 500,
    },
  );
  expect(await deployments.describe(deploymentName)).toMatchObject({
    currentBuildId: B.buildId,
    versions: expect.arrayContaining([expect.objectContaining({ buildId: A.buildId, status: 'drained' })]),
  });
  await stack.stopWorker();

  await ingest(stack, jobChanges('deploy-after-a', personas[0]!, 1));
  expect((await requestEvaluation(stack, signalIds[0]!)).status).toBe(202);
  await waitFor(
    'the lead made after A stopped delivered',
    () => count(`SELECT count(*)::int AS n FROM deliveries WHERE kind = 'lead' AND status = 'delivered'`),
    (n) => n === LEADS + LEADS_ON_B + 1,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
});
