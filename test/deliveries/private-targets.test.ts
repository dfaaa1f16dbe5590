import { leadWorkflowId } from '../../src/temporal/contract';
import { call } from '../setup/http';
import type { Receiver } from './receiver';
import {
  DELIVERY_ENV,
  deliveryTestBed,
  jobChanges,
  leadDeliveriesAre,
  signalFor,
  sleep,
  waitForDeliveries,
} from './fixtures';

/**
 * Private targets refused (as in production). A webhook saved while they were allowed, or whose
 * name has since come to resolve to a private address (DNS rebinding), is refused when the
 * socket is opened, whatever the save-time check said.
 */

const testBed = deliveryTestBed({
  env: { ...DELIVERY_ENV, WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
  credits: 100,
});
let r: Receiver;
beforeAll(async () => {
  r = await testBed.receiver();
});

test('a saved webhook whose name resolves to 127.0.0.1 is refused at send time: permanent failure, nothing received', async () => {
  const webhookUrl = `http://localhost:${new URL(r.url).port}/hooks/leads`;
  const signalId = await signalFor(testBed.stack, testBed.account, await jobChanges(testBed.stack, 1), {
    status: 'draft',
  });
  // Saving it now is refused…
  const save = await call(`${testBed.stack.url}/api/v1/signals/${signalId}`, {
    token: testBed.account.apiKey,
    method: 'PATCH',
    body: { webhookUrl },
  });
  expect(save.status).toBe(422);
  // …so it stands for one saved before (while allowed, or before its DNS changed).
  await testBed.stack.db.query(`UPDATE signals SET webhook_url = $2 WHERE id = $1`, [signalId, webhookUrl]);
  const activated = await call(`${testBed.stack.url}/api/v1/signals/${signalId}`, {
    token: testBed.account.apiKey,
    method: 'PATCH',
    body: { status: 'active' },
  });
  expect(activated.status).toBe(200);

  const [delivery] = await waitForDeliveries(testBed.stack, testBed.account, signalId, leadDeliveriesAre('failed'));
  expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: null, nextAttemptAt: null });
  expect(delivery.lastError).toMatch(/^target refused/);
  // Failed for good at the first attempt: the lead workflow set no timer to retry it.
  const lead = testBed.stack.temporal.workflow.getHandle(leadWorkflowId(delivery.leadId));
  await expect(lead.result()).resolves.toMatchObject({ routes: { webhook: 'failed' } });
  expect((await lead.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes)).toBe(false);

  // A test send and a replay to it are refused the same way.
  const tested = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/test-webhook`, {
    token: testBed.account.apiKey,
    method: 'POST',
  });
  expect(tested.body).toMatchObject({ success: false, statusCode: null });
  const replayed = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/replay-webhook`, {
    token: testBed.account.apiKey,
    method: 'POST',
  });
  expect(replayed.body).toEqual({ total: 1, sent: 0, failed: 1 });

  await sleep(1000);
  expect(r.requests).toHaveLength(0);
  // The lead itself stands, readable by polling.
  const leads = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/leads`, { token: testBed.account.apiKey });
  expect(leads.body.total).toBe(1);
});
