import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import {
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
  type IngestRecord,
} from '../leads/fixtures';
import { createWorker } from '../../worker/worker';
import { WorkerDeployments } from '../../src/temporal/worker-deployment';
import { leadWorkflowId, signalWorkflowId } from '../../src/temporal/contract';
import { failedTasks } from './failed-tasks';

/**
 * Turning Worker Versioning on where workflows already run unversioned (a `.data` of an earlier
 * `npm start`, a production that had no TEMPORAL_DEPLOYMENT_NAME): the unversioned workers stop,
 * the first versioned one starts and makes itself current, and what was running goes on there
 * (following the worker's default, AUTO_UPGRADE) while what starts now is pinned.
 */
jest.setTimeout(300_000);

const { VersioningBehavior } = temporal.api.enums.v1;
const version = { deploymentName: `versioning-on-${randomUUID().slice(0, 8)}`, buildId: 'first-versioned' };
let stack: Stack;
let receiver: Receiver;
let versioned: Awaited<ReturnType<typeof createWorker>> | undefined;
let running: Promise<unknown> | undefined;

beforeAll(async () => {
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      RATE_LIMIT_PER_SECOND: '100000',
      WEBHOOK_RETRY_INITIAL_MS: '1000',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '2000',
      WEBHOOK_RETRY_WINDOW_MS: '3600000',
    },
  });
});

afterAll(async () => {
  versioned?.worker.shutdown();
  versioned?.deliveryWorker.shutdown();
  versioned?.sourceWorker.shutdown();
  await running;
  await versioned?.connection.close();
  await receiver?.close();
  await stack?.stop();
});

function jobChanges(slug: string, count: number): IngestRecord[] {
  const co = company(slug);
  const records: IngestRecord[] = [co];
  for (let i = 0; i < count; i++) {
    const who = person(`${slug}-${i}`, co.id, { title: 'CTO' });
    records.push(
      who,
      event(`ev-${slug}-${i}`, 'job_change', daysAgo(5 + i * 0.001), co.id, {
        personId: who.id,
        data: jobChangeData('CTO', co.name),
      }),
    );
  }
  return records;
}

const delivered = async () =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM deliveries WHERE status = 'delivered'`))[0].n as number;

async function versioningOf(workflowId: string) {
  const handle = stack.temporal.workflow.getHandle(workflowId);
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  const history = await handle.fetchHistory();
  return {
    buildId: info?.deploymentVersion?.buildId ?? null,
    behavior: info?.behavior ?? VersioningBehavior.VERSIONING_BEHAVIOR_UNSPECIFIED,
    failedTasks: failedTasks(history),
  };
}

test('workflows started by unversioned workers go on on the first versioned build; new ones are pinned to it', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
  receiver.answerWith(() => ({ status: 503 }));
  await ingest(stack, jobChanges('before', 2));
  const signal = await createSignal(api, 'job-changes', {
    name: 'before versioning',
    status: 'active',
    webhookUrl: receiver.url,
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  await waitFor(
    'both leads tried',
    async () => receiver.requests.length,
    (n) => n >= 2,
    { timeoutMs: 60_000 },
  );
  const leadsBefore = (await stack.db.query(`SELECT id FROM leads`)).map((row: { id: string }) => row.id);
  expect(leadsBefore).toHaveLength(2);
  expect(await versioningOf(leadWorkflowId(leadsBefore[0]))).toMatchObject({ buildId: null });

  // The unversioned workers stop; the first versioned one starts and, finding no current version, takes it.
  await stack.stopWorker();
  versioned = await createWorker(stack.services, {
    temporal: stack.config.TEMPORAL,
    taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
    workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    deployment: version,
  });
  running = Promise.all([versioned.worker.run(), versioned.deliveryWorker.run(), versioned.sourceWorker.run()]);
  const deployments = new WorkerDeployments(stack.temporal, stack.config.TEMPORAL_NAMESPACE);
  expect(await deployments.promote(version, 'if-none')).toBe(true);

  receiver.answerWith(() => ({ status: 200 }));
  await ingest(stack, jobChanges('after', 1));
  expect((await requestEvaluation(stack, signal.id)).status).toBe(202);
  await waitFor('the two old leads and the new one delivered', delivered, (n) => n === 3, { timeoutMs: 120_000 });
  await waitFor(
    'the signal evaluated on the versioned build',
    async () => (await workflowState(stack, signal.id))?.evaluations ?? 0,
    (n) => n >= 2,
    { timeoutMs: 60_000 },
  );

  for (const leadId of leadsBefore) {
    expect(await versioningOf(leadWorkflowId(leadId))).toMatchObject({
      buildId: version.buildId,
      behavior: VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
      failedTasks: [],
    });
  }
  const [leadAfter] = (await stack.db.query(`SELECT id FROM leads WHERE id <> ALL($1::uuid[])`, [leadsBefore])).map(
    (row: { id: string }) => row.id,
  );
  expect(await versioningOf(leadWorkflowId(leadAfter))).toMatchObject({
    buildId: version.buildId,
    behavior: VersioningBehavior.VERSIONING_BEHAVIOR_PINNED,
    failedTasks: [],
  });
  expect(await versioningOf(signalWorkflowId(signal.id))).toMatchObject({
    buildId: version.buildId,
    behavior: VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
    failedTasks: [],
  });
});
