import { leadWorkflowId } from '../../src/temporal/contract';
import type { Receiver } from './receiver';
import { DELIVERY_ENV, deliveryTestBed, leadDeliveriesAre, leadsTo, sleep, waitForDeliveries } from './fixtures';

/** A retry window of 2 s, so that its end is seen within a test. */

const testBed = deliveryTestBed({
  env: { ...DELIVERY_ENV, WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_WINDOW_MS: '2000' },
  credits: 100,
});
let r: Receiver;
beforeAll(async () => {
  r = await testBed.receiver();
});

test('a receiver that answers 500 until the retry window is over: the delivery is failed and nothing more is sent', async () => {
  r.answerWith(() => ({ status: 500 }));
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  await r.waitFor(1);
  const [delivery] = await waitForDeliveries(
    testBed.stack,
    testBed.account,
    signalId,
    leadDeliveriesAre('failed'),
    15_000,
  );
  const requests = r.requests.slice();
  // Retried with back-off until the 2 s were used up (the dev server fires retry timers about
  // a second apart at best, so that is two or three tries).
  expect(requests.length).toBeGreaterThanOrEqual(2);
  expect(new Set(requests.map((q) => q.headers['x-webhook-id'])).size).toBe(1);
  // Each try was scheduled inside the window; a loaded worker may send the last one up to about
  // a second late (it missed 2,500 ms by 99 at load 7).
  expect(requests[requests.length - 1].at - requests[0].at).toBeLessThan(3000);
  expect(delivery).toMatchObject({
    status: 'failed',
    attempts: requests.length,
    lastStatusCode: 500,
    nextAttemptAt: null,
  });
  await expect(
    testBed.stack.temporal.workflow.getHandle(leadWorkflowId(delivery.leadId)).result(),
  ).resolves.toMatchObject({ routes: { webhook: 'failed' } });
  await sleep(1500);
  expect(r.requests).toHaveLength(requests.length);
  // The lead stays readable whatever happened to its delivery.
  const [{ n }] = await testBed.stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1`, [signalId]);
  expect(n).toBe(1);
});
