import { startMetricsServer, type RunningMetricsServer } from '../../src/metrics/metrics-server';
import { startStack, type Stack } from '../setup/stack';
import {
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  FAULT_ENV,
  prepareLeadFlow,
  waitForEveryLeadDelivered,
  type LeadFlow,
} from '../faults/lead-flow';
import { createSignal, expectStatus } from '../leads/fixtures';
import { startReceiver } from '../deliveries/receiver';

const LEADS = 12;

let stack: Stack;
let server: RunningMetricsServer;
let flow: LeadFlow;

beforeAll(async () => {
  // A short interval, so that a second evaluation starts from its schedule and has a lag to report.
  stack = await startStack({ env: { ...FAULT_ENV, SIGNAL_EVALUATION_INTERVAL: '2s' } });
  server = await startMetricsServer({ port: 0, host: '127.0.0.1', sources: [() => stack.services.metrics.text()] });
  flow = await activateSignal(await prepareLeadFlow(stack, LEADS));
  await waitForEveryLeadDelivered(flow, { timeoutMs: 120_000, logAs: 'metrics' });
});
afterAll(async () => {
  await flow?.receiver.close();
  await server?.close();
  await stack?.stop();
});

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The value of one sample line, e.g. `intent_leads_deliveries{route="webhook",status="delivered"}`. */
async function sample(name: string): Promise<number | undefined> {
  const response = await fetch(server.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

test('the scraped figures are the real ones: leads produced, deliveries by route and outcome, credits charged', async () => {
  await expectEveryLeadOnceBilledOnceDelivered(flow);
  expect(await sample('intent_leads_leads_produced_total')).toBe(LEADS);
  expect(await sample('intent_leads_leads')).toBe(LEADS);
  expect(await sample('intent_leads_delivery_attempts_total{route="webhook",outcome="delivered"}')).toBe(LEADS);
  expect(await sample('intent_leads_deliveries{route="webhook",status="delivered"}')).toBe(LEADS);
  expect(await sample('intent_leads_credits_charged{operation="lead"}')).toBe(2 * LEADS);
  expect(await sample('intent_leads_delivery_retry_backlog{route="webhook"}')).toBeUndefined();
});

test('an evaluation started by its schedule reports how late it began', async () => {
  // Arrivals wake the signal too (evaluations with no slot, no lag); its 2 s slots still come.
  await waitFor(
    async () => ((await sample('intent_leads_evaluation_lag_seconds_count')) ?? 0) >= 1,
    'an evaluation begun by its slot',
  );
  const lagSum = await sample('intent_leads_evaluation_lag_seconds_sum');
  expect(lagSum).toBeGreaterThanOrEqual(0);
});

test('deliveries that fail wait in the retry backlog, counted by route and outcome', async () => {
  const failing = await startReceiver({ secret: flow.account.webhookSecret });
  failing.answerWith(() => ({ status: 503 }));
  try {
    const signal = await createSignal(flow.api, 'job-changes', {
      name: 'CTOs to a receiver that is down',
      status: 'active',
      webhookUrl: failing.url,
      config: { jobTitles: ['Chief Technology Officer'] },
    });
    // The attempt is recorded in PostgreSQL a moment before this process counts it: wait for both.
    const retried = async () =>
      (await sample('intent_leads_delivery_attempts_total{route="webhook",outcome="retry"}')) ?? 0;
    await waitFor(
      async () =>
        ((await sample('intent_leads_delivery_retry_backlog{route="webhook"}')) ?? 0) >= LEADS &&
        (await retried()) >= LEADS,
      'every lead of the second signal waiting for a retry, each attempt counted',
    );
    expect(await sample('intent_leads_deliveries{route="webhook",status="pending"}')).toBe(LEADS);
    expectStatus(await flow.api.delete(`/signals/${signal.id}`), 204);
  } finally {
    await failing.close();
  }
});

test('only GET /metrics is served there', async () => {
  const other = await fetch(server.url.replace('/metrics', '/api/v1/signals'));
  expect(other.status).toBe(404);
});
