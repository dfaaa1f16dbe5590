import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client as TemporalClient } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/data-source';
import { requireTemporalCli } from '../../infra/temporal/cli';
import { closeTemporal, connectTemporal } from '../../src/temporal/client';
import { leadWorkflowId, signalWorkflowId } from '../../src/temporal/contract';
import { call, createAccount } from '../setup/http';
import type { Stack } from '../setup/stack';
import { client, createSignal, expectStatus } from '../leads/fixtures';
import {
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  FAULT_ENV,
  prepareLeadFlow,
  waitForEveryLeadDelivered,
  waitForProgress,
} from '../faults/lead-flow';
import { launchBrowser } from '../dashboard/browser';
import { startClusterTopology, type ClusterTopology } from './topology';

/**
 * The production topology on this machine, started the way a user starts it
 * (`npm run start:cluster`): the full Temporal server on PostgreSQL with several history
 * shards and its Web UI, two workers and two API processes. Run by `npm run test:cluster`.
 */

const RATE_LIMIT_PER_SECOND = 20;
const LEADS = 300;

let cluster: ClusterTopology;
let db: DataSource;
let temporal: TemporalClient;
/** What the lead-flow helpers need of a stack: the first API process, the database, Temporal. */
let stack: Stack;

beforeAll(async () => {
  const databaseUrl = process.env.TEST_DATABASE_URL!;
  cluster = await startClusterTopology({
    dataDir: path.join(process.env.TEST_CLUSTER_DIR!, 'service'),
    env: {
      ...FAULT_ENV,
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_PER_SECOND: String(RATE_LIMIT_PER_SECOND),
    },
  });
  db = await openDatabase(databaseUrl, 4);
  const config = loadConfig({ ...cluster.env, TEMPORAL_ADDRESS: cluster.temporalAddress });
  temporal = await connectTemporal(config.TEMPORAL);
  stack = { url: cluster.apiUrls[0], db, temporal, config } as unknown as Stack;
}, 30 * 60_000); // A fresh machine builds the Temporal server first (minutes).

afterAll(async () => {
  if (temporal) await closeTemporal(temporal);
  await db?.destroy();
  await cluster?.stop();
});

test('the cluster runs the full server with several history shards, two workers and two API processes', () => {
  expect(cluster.shards).toBeGreaterThan(1);
  expect(cluster.workerPids.size).toBe(2);
  expect(cluster.apiUrls).toHaveLength(2);
});

test('leads flow end to end through both workers; one killed mid-flow loses nothing and bills nothing twice', async () => {
  const flow = await activateSignal(await prepareLeadFlow(stack, LEADS));
  try {
    await waitForProgress(flow, 'a fifth of the leads acknowledged', (p) => p.acknowledged >= LEADS / 5, {
      timeoutMs: 180_000,
      logAs: 'cluster',
    });
    const killed = cluster.workerPids.get('worker-1')!;
    const survivor = cluster.workerPids.get('worker-2')!;
    await cluster.killWorker('worker-1');

    await waitForEveryLeadDelivered(flow, { timeoutMs: 300_000, logAs: 'cluster' });
    await expectEveryLeadOnceBilledOnceDelivered(flow);

    // Who ran the lead workflows: the workers' identities (`pid@host`) in their histories.
    const identities = new Set<string>();
    for await (const execution of temporal.workflow.list({
      query: `SignalId = '${flow.signalId}' AND WorkflowType = 'leadWorkflow'`,
    })) {
      const history = await temporal.workflow.getHandle(execution.workflowId).fetchHistory();
      for (const event of history.events ?? []) {
        const identity = event.workflowTaskCompletedEventAttributes?.identity;
        if (identity) identities.add(identity.split('@')[0]!);
      }
    }
    expect(identities).toContain(String(killed));
    expect(identities).toContain(String(survivor));
  } finally {
    await flow.receiver.close();
  }
}, 600_000);

test("a lead's run opens in the Temporal Web UI beside the cluster", async () => {
  const [lead] = (await db.query('SELECT id FROM leads ORDER BY created_at LIMIT 1')) as { id: string }[];
  const workflowId = leadWorkflowId(lead!.id);

  // The UI server's API, which its pages call: the run, from the cluster's frontend.
  const answer = await fetch(`${cluster.uiUrl}/api/v1/namespaces/default/workflows/${encodeURIComponent(workflowId)}`);
  expect(answer.status).toBe(200);
  const run = (await answer.json()) as {
    workflowExecutionInfo: { execution: { workflowId: string; runId: string }; type: { name: string } };
  };
  expect(run.workflowExecutionInfo.execution.workflowId).toBe(workflowId);
  expect(run.workflowExecutionInfo.type.name).toBe('leadWorkflow');

  // The page an operator opens, rendered by a real browser from the UI server's own assets.
  const page = await fetch(`${cluster.uiUrl}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<html/i);
  const browser = await launchBrowser();
  try {
    const tab = await browser.newPage();
    const { runId } = run.workflowExecutionInfo.execution;
    await tab.goto(`${cluster.uiUrl}/namespaces/default/workflows/${encodeURIComponent(workflowId)}/${runId}/history`);
    await tab.getByText('leadWorkflow').first().waitFor({ timeout: 30_000 });
    expect(await tab.locator('body').innerText()).toContain(workflowId);
  } finally {
    await browser.close();
  }
});

test("every process serves /metrics off the public port: the worker's with the Temporal SDK's own", async () => {
  expect([...cluster.metricsUrls.keys()].sort()).toEqual(['API-1', 'API-2', 'worker-1', 'worker-2']);
  const worker = await (await fetch(cluster.metricsUrls.get('worker-2')!)).text();
  expect(worker).toMatch(/^temporal_\w+/m); // The SDK core's metrics (task slots, polls, latencies).
  expect(worker).toMatch(/^intent_leads_delivery_attempts_total\{route="webhook",outcome="delivered"\} [1-9]/m);
  const api = await (await fetch(cluster.metricsUrls.get('API-1')!)).text();
  expect(api).toMatch(/^intent_leads_deliveries\{route="webhook",status="delivered"\} [1-9]/m);
  expect(api).toMatch(/^intent_leads_process_resident_memory_bytes \d+/m);
  expect((await fetch(`${cluster.apiUrls[0]}/metrics`)).status).toBe(404);
});

test('both API processes spend one rate-limit budget per key (PostgreSQL-backed)', async () => {
  const account = await createAccount(stack, { credits: 10 });
  const burst = 3 * RATE_LIMIT_PER_SECOND;
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      call(`${cluster.apiUrls[i % 2]}/api/v1/credits/balance`, { token: account.apiKey }).then((answer) => ({
        status: answer.status,
        at: Date.now(),
      })),
    ),
  );
  const spanSeconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
  const accepted = answers.filter((a) => a.status === 200).length;
  expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
  // The limit holds in every one-second window, whichever process answered: a burst spanning
  // s seconds gets at most (1 + floor(s)) budgets. Two separate budgets would let 2 × 20 through.
  expect(accepted).toBeGreaterThan(0);
  expect(accepted).toBeLessThanOrEqual(RATE_LIMIT_PER_SECOND * (1 + Math.floor(spanSeconds)));
  const byProcess = [0, 1].map((p) => answers.filter((a, i) => i % 2 === p && a.status === 200).length);
  expect(byProcess[0]! + byProcess[1]!).toBe(accepted);
  expect(answers.some((a, i) => i % 2 === 1 && a.status === 429)).toBe(true);
});

test('a paused signal is found by its status attribute with the Temporal CLI', async () => {
  const api = client(stack, await createAccount(stack, { credits: 10 }));
  const signal = await createSignal(api, 'job-changes', {
    name: 'Paused in the cluster',
    status: 'active',
    webhookUrl: 'https://example.com/hooks/leads',
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  expectStatus(await api.post(`/signals/${signal.id}/pause`, {}), 200);

  const cli = requireTemporalCli();
  const listPaused = async () => {
    const { stdout } = await promisify(execFile)(cli, [
      'workflow',
      'list',
      '--address',
      cluster.temporalAddress,
      '--namespace',
      'default',
      '--query',
      `SignalStatus = 'paused'`,
      '--output',
      'json',
    ]);
    return (JSON.parse(stdout || '[]') as { execution: { workflowId: string } }[]).map((w) => w.execution.workflowId);
  };
  const deadline = Date.now() + 60_000;
  let found: string[] = [];
  while (Date.now() < deadline) {
    found = await listPaused();
    if (found.includes(signalWorkflowId(signal.id))) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(found).toContain(signalWorkflowId(signal.id));
});
