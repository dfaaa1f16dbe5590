import { startStack } from '../setup/stack';
import {
  FAULT_ENV,
  activateSignal,
  expectEveryLeadOnceBilledOnceDelivered,
  faultTestBed,
  note,
  waitForEveryLeadDelivered,
} from './lead-flow';

/**
 * A receiver flapping between 500 and 200 (every other request fails) while 150 leads are
 * delivered, with quick retries: every lead gets through, each retry under the first
 * attempt's X-Webhook-Id, and nothing is billed for the retries.
 */

const FILE = 'receiver-flapping';
const LEADS = 150;

const testBed = faultTestBed({
  start: () =>
    startStack({ env: { ...FAULT_ENV, WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_RETRY_MAX_INTERVAL_MS: '500' } }),
  startTimeoutMs: 60_000,
});

test('a receiver answering 500 and 200 in turn: each lead once, billed once, delivered, repeats under one X-Webhook-Id', async () => {
  const started = Date.now();
  const prepared = await testBed.prepareLeadFlow(LEADS);
  const { receiver } = prepared;
  // 500 and 200 in turn for every request, first attempts and retries alike: each 500 costs
  // its lead a retry, so about half the leads meet one, some several in a row. More turns than
  // the run uses: the flapping never stops before the leads are all through.
  const turns = LEADS * 4;
  receiver.script(...Array.from({ length: turns }, (_, i) => ({ status: i % 2 === 0 ? 500 : 200 })));
  const flow = await activateSignal(prepared);

  const done = await waitForEveryLeadDelivered(flow, { timeoutMs: 180_000, logAs: FILE });
  note(FILE, `all delivered ${Date.now() - started} ms in: ${JSON.stringify(done)}`);

  const { repeatedLeads, requests } = await expectEveryLeadOnceBilledOnceDelivered(flow);
  note(FILE, `${requests} webhook requests; ${repeatedLeads} leads received more than once`);
  // The flapping really happened: half the requests failed, and many leads needed a retry.
  expect(receiver.requests.filter((r) => r.status === 500).length).toBeGreaterThanOrEqual(LEADS / 2);
  expect(repeatedLeads).toBeGreaterThan(LEADS / 4);
  const [{ retried }] = await testBed.stack.db.query(
    `SELECT count(*)::int AS retried FROM deliveries WHERE signal_id = $1 AND kind = 'lead' AND attempts > 1`,
    [flow.signalId],
  );
  expect(retried).toBe(repeatedLeads);
}, 240_000);
