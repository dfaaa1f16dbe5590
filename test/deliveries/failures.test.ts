import { leadWorkflowId } from '../../src/temporal/contract';
import { call } from '../setup/http';
import { endpointOf } from '../../src/destinations/webhook/endpoint';
import {
  DELIVERY_ENV,
  deliveriesOf,
  deliveryTestBed,
  leadDeliveriesAre,
  leadsTo,
  sleep,
  waitForDeliveries,
} from './fixtures';

/** Receivers that hang, go away, redirect or throttle, against the real worker and Temporal. */

const testBed = deliveryTestBed({ env: { ...DELIVERY_ENV, WEBHOOK_TIMEOUT_MS: '500' }, credits: 1000 });
const { receiver } = testBed;

/** Polls `read` until it answers something (for writes that follow what a test can observe). */
async function until<T>(read: () => Promise<T | null>, timeoutMs = 5000): Promise<T | null> {
  for (const end = Date.now() + timeoutMs; ; await sleep(25)) {
    const value = await read();
    if (value !== null || Date.now() > end) return value;
  }
}

const attemptsOf = (deliveryId: string) =>
  testBed.stack.db.query(
    `SELECT attempt, status_code, error FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [deliveryId],
  );

test('a receiver that hangs past the time-out is retried, under the same id, and then delivered', async () => {
  const r = await receiver();
  r.script({ status: 200, delayMs: 2000 }, { status: 200 });
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  const [first, second] = await r.waitFor(2);
  expect(second.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
  // The time-out (500 ms) plus the first back-off (200 ms).
  expect(second.at - first.at).toBeGreaterThanOrEqual(600);
  const [delivery] = await waitForDeliveries(testBed.stack, testBed.account, signalId, leadDeliveriesAre('delivered'));
  expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
  expect(await attemptsOf(delivery.id)).toEqual([
    { attempt: 1, status_code: null, error: 'no answer within 500 ms' },
    { attempt: 2, status_code: 200, error: null },
  ]);
});

test('a receiver down for a while gets the lead once it is back, inside the window', async () => {
  const r = await receiver();
  await r.goDown();
  const downAt = Date.now();
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  // Refused connections are recorded and retried with back-off while it is away.
  const until = Date.now() + 10_000;
  let failed: any[] = [];
  while (failed.length < 2) {
    if (Date.now() > until) throw new Error('no failed attempts recorded while the receiver was down');
    failed = await testBed.stack.db.query(
      `SELECT a.error FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.signal_id = $1 AND a.status_code IS NULL`,
      [signalId],
    );
    await sleep(100);
  }
  await sleep(Math.max(0, 2000 - (Date.now() - downAt)));
  expect(r.requests).toHaveLength(0);
  await r.comeBack();
  const [request] = await r.waitFor(1);
  expect(request.verified).toBe(true);
  const [delivery] = await waitForDeliveries(testBed.stack, testBed.account, signalId, leadDeliveriesAre('delivered'));
  expect(delivery.attempts).toBeGreaterThanOrEqual(3);
  expect(delivery).toMatchObject({ lastStatusCode: 200, id: request.headers['x-webhook-id'] });
  const attempts = await attemptsOf(delivery.id);
  expect(attempts.slice(0, -1).every((a: any) => a.status_code === null && /ECONNREFUSED/.test(a.error))).toBe(true);
  await sleep(500);
  expect(r.requests).toHaveLength(1);
});

test('a 302 is one attempt and a permanent failure: the redirect is not followed', async () => {
  const r = await receiver();
  const elsewhere = await receiver();
  r.script({ status: 302, headers: { Location: elsewhere.url } });
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  const [delivery] = await waitForDeliveries(testBed.stack, testBed.account, signalId, leadDeliveriesAre('failed'));
  expect(delivery).toMatchObject({
    attempts: 1,
    lastStatusCode: 302,
    lastError: 'receiver answered 302',
    nextAttemptAt: null,
  });
  await sleep(1000);
  expect(r.requests).toHaveLength(1);
  expect(elsewhere.requests).toHaveLength(0);
});

test('deleting the signal cancels a delivery waiting out its back-off: cancelled, and nothing more is sent', async () => {
  const r = await receiver();
  // Retry-After 10 s (inside the 20 s window): the delivery is certainly waiting when the signal goes.
  r.script({ status: 429, headers: { 'Retry-After': '10' } });
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  await r.waitFor(1);
  const [waiting] = await waitForDeliveries(testBed.stack, testBed.account, signalId, (items) =>
    items.some((d) => d.nextAttemptAt !== null),
  );
  expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 429 });
  // The row says "waiting" as soon as the attempt records the 429; delete once the lead
  // workflow is the one waiting (its timer started).
  const handle = testBed.stack.temporal.workflow.getHandle(leadWorkflowId(waiting.leadId));
  const timerStarted = async () =>
    (await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes) ?? false;
  for (const until = Date.now() + 10_000; !(await timerStarted());) {
    if (Date.now() > until) throw new Error(`the lead workflow of ${waiting.leadId} is not waiting`);
    await sleep(50);
  }

  const started = Date.now();
  const deleted = await call(`${testBed.stack.url}/api/v1/signals/${signalId}`, {
    token: testBed.account.apiKey,
    method: 'DELETE',
  });
  expect(deleted.status).toBe(204);
  // The workflow itself was cancelled: it ends now, not when the 10 s are over.
  await expect(handle.result()).resolves.toMatchObject({ routes: { webhook: 'cancelled' } });
  expect(Date.now() - started).toBeLessThan(5000);
  const [row] = await testBed.stack.db.query(`SELECT status, attempts, next_attempt_at FROM deliveries WHERE id = $1`, [
    waiting.id,
  ]);
  expect(row).toEqual({ status: 'cancelled', attempts: 1, next_attempt_at: null });
  await sleep(1500);
  expect(r.requests).toHaveLength(1);
});

test("a 429 waits Retry-After and lowers that endpoint's send rate for every delivery to it", async () => {
  const r = await receiver();
  const origin = endpointOf(r.url)!;
  r.script({ status: 429, headers: { 'Retry-After': '2' } });
  const first = await leadsTo(testBed.stack, testBed.account, r.url);
  const [throttled] = await r.waitFor(1);
  // The note is written once the answer is back, a moment after the receiver logged the request.
  const note = await until(() => testBed.stack.services.deliveries.rates.state(origin));
  expect(note).toMatchObject({ minIntervalMs: 500, throttleCount: 1 });
  expect(Math.abs(note!.throttledUntil!.getTime() - (throttled.at + 2000))).toBeLessThan(500);

  // Another signal's lead to another path of the same server, while it is throttled.
  const second = await leadsTo(testBed.stack, testBed.account, `${origin}/hooks/other`);
  await r.waitFor(3);
  const later = r.requests.slice(1).sort((a, b) => a.at - b.at);
  expect(new Set(later.map((q) => q.body.signal.id))).toEqual(new Set([first, second]));
  // Nothing before Retry-After is over, then sends spaced by the lowered rate (500 ms).
  expect(later[0].at - throttled.at).toBeGreaterThanOrEqual(1900);
  expect(later[1].at - later[0].at).toBeGreaterThanOrEqual(400);
  const [a] = await waitForDeliveries(testBed.stack, testBed.account, first, leadDeliveriesAre('delivered'));
  const [b] = await waitForDeliveries(testBed.stack, testBed.account, second, leadDeliveriesAre('delivered'));
  expect(a).toMatchObject({ attempts: 2, lastStatusCode: 200 });
  // Waiting for the endpoint is not an attempt.
  expect(b).toMatchObject({ attempts: 1, lastStatusCode: 200 });
  // Two successes: the spacing shrinks by a quarter each time (500 → 375 → 281).
  expect((await testBed.stack.services.deliveries.rates.state(origin))?.minIntervalMs).toBe(281);
});

describe('the per-endpoint send-rate note', () => {
  const rates = () => testBed.stack.services.deliveries.rates;
  let n = 0;
  const origin = () => `http://rates-${++n}.example:8080`;
  const setNote = (o: string, sql: string) =>
    testBed.stack.db.query(`UPDATE webhook_endpoints SET ${sql} WHERE origin = $1`, [o]);

  test('an endpoint never throttled goes at once and has no note', async () => {
    const o = origin();
    await expect(rates().claimSlot(o, 0)).resolves.toEqual({ waitMs: 0, paced: false });
    await rates().recordSuccess(o);
    expect(await rates().state(o)).toBeNull();
  });

  test('a 429 throttles for Retry-After and doubles the spacing, once per burst, up to a minute', async () => {
    const o = origin();
    await rates().recordThrottled(o, 1000);
    expect(await rates().state(o)).toMatchObject({ minIntervalMs: 500, throttleCount: 1 });
    // 429s of sends already on their way when the first came back lower the rate only once.
    await rates().recordThrottled(o, 1000);
    expect(await rates().state(o)).toMatchObject({ minIntervalMs: 500, throttleCount: 2 });
    await setNote(o, `throttled_until = now() - interval '1 second'`);
    await rates().recordThrottled(o, 1000);
    expect((await rates().state(o))?.minIntervalMs).toBe(1000);
    await setNote(o, `throttled_until = now() - interval '1 second', min_interval_ms = 40000`);
    await rates().recordThrottled(o, 1000);
    expect((await rates().state(o))?.minIntervalMs).toBe(60_000);
  });

  test('while throttled a send waits for its slot, or is deferred when the slot is further than it may wait', async () => {
    const o = origin();
    await rates().recordThrottled(o, 1000);
    const deferred = await rates().claimSlot(o, 100);
    expect('deferMs' in deferred && deferred.deferMs).toBeGreaterThan(800);
    expect('deferMs' in deferred && deferred.deferMs).toBeLessThanOrEqual(1000);
    // A deferral claims nothing; two claims that may wait get slots 500 ms apart.
    const oneAt = Date.now();
    const one = await rates().claimSlot(o, 5000);
    const twoAt = Date.now();
    const two = await rates().claimSlot(o, 5000);
    expect('waitMs' in one && one.waitMs).toBeGreaterThan(800);
    expect(one).toMatchObject({ paced: true });
    const slotOf = (at: number, claim: { waitMs: number } | { deferMs: number }) =>
      at + ('waitMs' in claim ? claim.waitMs : Number.NaN);
    // Each wait counts from its own claim; the slots themselves are the spacing apart.
    expect(Math.abs(slotOf(twoAt, two) - slotOf(oneAt, one) - 500)).toBeLessThan(50);
  });

  test('successes shrink the spacing by a quarter until it is dropped', async () => {
    const o = origin();
    await rates().recordThrottled(o, 0);
    await setNote(o, `min_interval_ms = 60000`);
    await rates().recordSuccess(o);
    expect((await rates().state(o))?.minIntervalMs).toBe(45_000);
    await setNote(o, `min_interval_ms = 60`);
    await rates().recordSuccess(o);
    expect((await rates().state(o))?.minIntervalMs).toBe(0);
    // Back to full speed: a slot at once, and no spacing left for successes to shrink.
    await expect(rates().claimSlot(o, 0)).resolves.toEqual({ waitMs: 0, paced: false });
  });

  test('the endpoint is the URL origin', () => {
    expect(endpointOf('http://127.0.0.1:8080/hooks/leads?token=x')).toBe('http://127.0.0.1:8080');
    expect(endpointOf('https://Hooks.Example.com/a')).toBe('https://hooks.example.com');
    expect(endpointOf('ftp://example.com/a')).toBeNull();
    expect(endpointOf('not a url')).toBeNull();
  });
});

test('the deliveries list shows a delivery deferred for its endpoint with its next attempt time', async () => {
  const r = await receiver();
  const origin = endpointOf(r.url)!;
  // The endpoint asked for 20 s: longer than an attempt waits in place, so the attempt defers.
  await testBed.stack.services.deliveries.rates.recordThrottled(origin, 20_000);
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url);
  const [waiting] = await waitForDeliveries(testBed.stack, testBed.account, signalId, (items) =>
    items.some((d) => d.nextAttemptAt !== null),
  );
  expect(waiting).toMatchObject({ status: 'pending', attempts: 0 });
  expect(Math.abs(Date.parse(waiting.nextAttemptAt) - (Date.now() + 20_000))).toBeLessThan(3000);
  // Nothing was sent, and nothing is until the endpoint's time has come.
  await sleep(1000);
  expect(r.requests).toHaveLength(0);
  expect((await deliveriesOf(testBed.stack, testBed.account, signalId))[0]).toMatchObject({
    status: 'pending',
    attempts: 0,
  });
});

test('one batch of leads with every kind of answer: each delivery is settled, retried or failed as if sent alone, every attempt recorded', async () => {
  const r = await receiver();
  const origin = endpointOf(r.url)!;
  // By the lead's person: a 200, a 500 then 200, a 410, a 429 (Retry-After 1 s) then 200.
  const firstAnswer: Record<string, { status: number; headers?: Record<string, string> }> = {
    Lovelace0: { status: 200 },
    Lovelace1: { status: 500 },
    Lovelace2: { status: 410 },
    Lovelace3: { status: 429, headers: { 'Retry-After': '1' } },
  };
  const answered = new Set<string>();
  r.answerWith((body) => {
    const person = body?.contact?.last_name as string;
    if (answered.has(person)) return { status: 200 };
    answered.add(person);
    return firstAnswer[person];
  });
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url, 4);
  const items = await waitForDeliveries(
    testBed.stack,
    testBed.account,
    signalId,
    (list) => list.length === 4 && list.every((d) => d.status !== 'pending'),
  );
  const byPerson = new Map<string, any>();
  for (const request of r.requests) byPerson.set(request.body.contact.last_name, request.body.contact.lead_id);
  const deliveryOf = (person: string) => items.find((d) => d.leadId === byPerson.get(person));

  expect(deliveryOf('Lovelace0')).toMatchObject({
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
  });
  expect(deliveryOf('Lovelace1')).toMatchObject({
    status: 'delivered',
    attempts: 2,
    lastStatusCode: 200,
    lastError: null,
  });
  expect(deliveryOf('Lovelace2')).toMatchObject({
    status: 'failed',
    attempts: 1,
    lastStatusCode: 410,
    lastError: 'receiver answered 410',
  });
  expect(deliveryOf('Lovelace3')).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
  expect(await attemptsOf(deliveryOf('Lovelace1').id)).toEqual([
    { attempt: 1, status_code: 500, error: 'receiver answered 500' },
    { attempt: 2, status_code: 200, error: null },
  ]);
  expect(await attemptsOf(deliveryOf('Lovelace2').id)).toEqual([
    { attempt: 1, status_code: 410, error: 'receiver answered 410' },
  ]);
  expect(await attemptsOf(deliveryOf('Lovelace3').id)).toEqual([
    { attempt: 1, status_code: 429, error: 'receiver answered 429' },
    { attempt: 2, status_code: 200, error: null },
  ]);
  // Every retry went out under its delivery's X-Webhook-Id, the 429's no sooner than its Retry-After.
  const sendsOf = (person: string) => r.requests.filter((q) => q.body.contact.last_name === person);
  for (const person of ['Lovelace1', 'Lovelace3']) {
    const [first, second] = sendsOf(person);
    expect(second.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
  }
  const [throttled, afterRetryAfter] = sendsOf('Lovelace3');
  expect(afterRetryAfter.at - throttled.at).toBeGreaterThanOrEqual(900);
  // The 429 taught the endpoint's note.
  expect(await testBed.stack.services.deliveries.rates.state(origin)).toMatchObject({ throttleCount: 1 });
  expect(r.requests.every((q) => q.verified)).toBe(true);
});

test('once an endpoint answers 429, nothing more is sent to it before Retry-After, from any lead', async () => {
  const r = await receiver();
  const origin = endpointOf(r.url)!;
  // Every lead of one production batch (40 lead workflows) is answered 429 the first time.
  const answered = new Set<string>();
  r.answerWith((body) => {
    const leadId = body?.contact?.lead_id as string;
    if (answered.has(leadId)) return { status: 200 };
    answered.add(leadId);
    return { status: 429, headers: { 'Retry-After': '5' } };
  });
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url, 40);
  const [first] = await r.waitFor(1);
  const noted = await until(() => testBed.stack.services.deliveries.rates.state(origin));
  const notedAt = Date.now();
  await sleep(Math.max(0, first.at + 4500 - Date.now()));
  // Sends that had claimed their slot when the note was written still arrive (a slot is claimed
  // right before the send); none claimed after it goes out before Retry-After.
  const afterNote = r.requests.filter((q) => q.at > notedAt + 1000 && q.at < first.at + 4500);
  expect(afterNote.map((q) => ({ at: q.at - first.at, lead: q.body.contact.lead_id }))).toEqual([]);
  expect(noted?.throttledUntil?.getTime()).toBeGreaterThan(first.at + 4000);
  // Every lead's workflow has made its delivery row (and its first attempt, or a deferral).
  const items = await waitForDeliveries(testBed.stack, testBed.account, signalId, (list) => list.length === 40);
  // A lead held back by the note was not attempted (deferred, attempts unchanged); nothing failed.
  const sentBeforeRetryAfter = new Set(
    r.requests.filter((q) => q.at < first.at + 2500).map((q) => q.headers['x-webhook-id']),
  );
  expect(items.filter((d) => sentBeforeRetryAfter.has(d.id)).every((d) => d.attempts >= 1)).toBe(true);
  expect(items.every((d) => d.status !== 'failed')).toBe(true);
  expect(r.requests.every((q) => q.verified)).toBe(true);
});
