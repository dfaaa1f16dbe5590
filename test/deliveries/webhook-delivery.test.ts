import { leadWorkflowId } from '../../src/temporal/contract';
import { TEST_ADMIN_TOKEN, STACK_START_MS } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { signWebhook, verifyWebhook } from '../../src/destinations/webhook/webhook-signature';
import { DELIVERY_ENV, deliveryTestBed } from './fixtures';

// Its leads work at a company of its own ('dc1', below), not at the one `leadsTo` uses.
const testBed = deliveryTestBed({ env: DELIVERY_ENV, credits: 1000, seedCompany: false });
const { receiver } = testBed;
let seq = 0;

beforeAll(async () => {
  await testBed.stack.db
    .query(`INSERT INTO companies (id, name, name_key, domain, industry, employee_count, size_band, hq_country_code, hq_city)
    VALUES ('dc1', 'Acme', 'acme', 'acme.com', 'Software Development', 120, '51-200', 'US', 'Austin')`);
}, STACK_START_MS);

/**
 * A fresh job change only this test's signal matches (its own title word), then an active
 * signal whose webhook is the receiver: activation evaluates at once and hands the lead over.
 */
async function leadTo(webhookUrl: string): Promise<{ signalId: string }> {
  const tag = `Zeta${++seq}x${Date.now()}`;
  await testBed.stack.db.query(
    `INSERT INTO people (id, first_name, last_name, title, persona, company_id, city, country_code, region_code)
     VALUES ($1, 'Ada', 'Lovelace', $2, 'Chief Technology Officer', 'dc1', 'Austin', 'US', 'TX')`,
    [`dp-${tag}`, `Head of ${tag}`],
  );
  await testBed.stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, person_id, data) VALUES ($1, 'job_change', now() - interval '1 day', 'dc1', $2,
     '{"previous_title":"VP Eng","previous_company":"Beta","new_title":"CTO","new_company":"Acme","new_job_started_on":"10/2026","new_job_start_month":"2026-10","change_type":"company"}')`,
    [`de-${tag}`, `dp-${tag}`],
  );
  const created = await call(`${testBed.stack.url}/api/v1/signals/job-changes`, {
    token: testBed.account.apiKey,
    body: {
      name: `Deliveries ${tag}`,
      status: 'active',
      webhookUrl,
      config: { customTitles: [tag], locations: ['Texas'] },
    },
  });
  if (created.status !== 201) throw new Error(`signal not created: ${created.text}`);
  return { signalId: created.body.id };
}

async function deliveriesOf(signalId: string) {
  const page = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/deliveries`, {
    token: testBed.account.apiKey,
  });
  expect(page.status).toBe(200);
  return page.body;
}

async function waitForDeliveryStatus(signalId: string, status: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const page = await deliveriesOf(signalId);
    const kinds = page.items.filter((d: any) => d.kind === 'lead');
    if (kinds.length > 0 && kinds.every((d: any) => d.status === status)) return page;
    if (Date.now() > until) throw new Error(`deliveries not ${status}: ${JSON.stringify(page.items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a lead arrives signed over its exact stored bytes, and the delivery is listed as delivered', async () => {
  const r = await receiver();
  const { signalId } = await leadTo(r.url);
  const [request] = await r.waitFor(1);
  expect(request.verified).toBe(true);
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
  expect(Number(request.headers['x-webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
  // Standard Webhooks headers beside ours, covering the id too.
  expect(request.headers['webhook-id']).toBe(request.headers['x-webhook-id']);
  expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

  const [lead] = await testBed.stack.db.query(`SELECT id, payload::text AS payload FROM leads WHERE signal_id = $1`, [
    signalId,
  ]);
  expect(request.rawBody.toString('utf8')).toBe(lead.payload);
  expect(request.body.contact.lead_id).toBe(lead.id);

  const page = await waitForDeliveryStatus(signalId, 'delivered');
  expect(page).toMatchObject({ total: 1, limit: 25, offset: 0, hasMore: false });
  expect(page.items[0]).toMatchObject({
    id: request.headers['x-webhook-id'],
    leadId: lead.id,
    route: 'webhook',
    kind: 'lead',
    attempts: 1,
    lastStatusCode: 200,
    nextAttemptAt: null,
  });
  // The lead's own workflow delivered it, and says so.
  await expect(testBed.stack.temporal.workflow.getHandle(leadWorkflowId(lead.id)).result()).resolves.toEqual({
    email: 'not_requested',
    routes: { webhook: 'delivered' },
  });
  // The receiver's check refuses a body changed by one byte.
  const tampered = Buffer.from(request.rawBody.toString('utf8').replace('Ada', 'Adb'));
  expect(
    verifyWebhook({
      secret: testBed.account.webhookSecret,
      rawBody: tampered,
      signature: request.headers['x-webhook-signature'] as string,
      timestamp: request.headers['x-webhook-timestamp'] as string,
    }),
  ).toEqual({ ok: false, reason: 'mismatch' });
});

test('a 500 is retried with the same X-Webhook-Id, and both attempts are recorded', async () => {
  const r = await receiver();
  r.script({ status: 500 }, { status: 200 });
  const { signalId } = await leadTo(r.url);
  const [first, second] = await r.waitFor(2);
  expect(second.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
  expect(first.verified && second.verified).toBe(true);
  expect(second.rawBody.equals(first.rawBody)).toBe(true);
  const page = await waitForDeliveryStatus(signalId, 'delivered');
  expect(page.items[0]).toMatchObject({ attempts: 2, lastStatusCode: 200 });
  const attempts = await testBed.stack.db.query(
    `SELECT attempt, status_code, error FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [page.items[0].id],
  );
  expect(attempts).toEqual([
    { attempt: 1, status_code: 500, error: 'receiver answered 500' },
    { attempt: 2, status_code: 200, error: null },
  ]);
  // Both attempts were the lead workflow's, the retry after a durable timer.
  const lead = testBed.stack.temporal.workflow.getHandle(leadWorkflowId(page.items[0].leadId));
  await expect(lead.result()).resolves.toMatchObject({ routes: { webhook: 'delivered' } });
  const history = await lead.fetchHistory();
  expect(history.events?.filter((e) => e.timerStartedEventAttributes).length).toBe(1);
  await new Promise((res) => setTimeout(res, 500));
  expect(r.requests).toHaveLength(2);
});

test("a 429 waits the receiver's Retry-After, not the short back-off", async () => {
  const r = await receiver();
  r.script({ status: 429, headers: { 'Retry-After': '1' } }, { status: 200 });
  const { signalId } = await leadTo(r.url);
  const [first, second] = await r.waitFor(2);
  // Back-off alone would retry after 200 ms.
  expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
  expect(second.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
  await waitForDeliveryStatus(signalId, 'delivered');
});

test('a 400 is a permanent failure: one attempt, delivery failed', async () => {
  const r = await receiver();
  r.script({ status: 400 });
  const { signalId } = await leadTo(r.url);
  await r.waitFor(1);
  const page = await waitForDeliveryStatus(signalId, 'failed');
  expect(page.items[0]).toMatchObject({
    attempts: 1,
    lastStatusCode: 400,
    lastError: 'receiver answered 400',
    nextAttemptAt: null,
  });
  await new Promise((res) => setTimeout(res, 1000));
  expect(r.requests).toHaveLength(1);
  const failed = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/deliveries?status=failed`, {
    token: testBed.account.apiKey,
  });
  expect(failed.body.total).toBe(1);
  const delivered = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/deliveries?status=delivered`, {
    token: testBed.account.apiKey,
  });
  expect(delivered.body.total).toBe(0);
  // The lead stays readable whatever happened to its delivery.
  const leads = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/leads`, { token: testBed.account.apiKey });
  expect(leads.body.total).toBe(1);
});

test('after the secret is regenerated, the next delivery is signed with the new one', async () => {
  const regenerated = await call(`${testBed.stack.url}/admin/v1/api-keys/${testBed.account.keyId}/webhook-secret`, {
    token: TEST_ADMIN_TOKEN,
    method: 'POST',
  });
  expect(regenerated.status).toBe(200);
  const newSecret: string = regenerated.body.webhookSecret;
  expect(newSecret).not.toBe(testBed.account.webhookSecret);
  const r = await receiver(newSecret);
  await leadTo(r.url);
  const [request] = await r.waitFor(1);
  expect(request.verified).toBe(true);
  const old = signWebhook(
    testBed.account.webhookSecret,
    request.headers['x-webhook-timestamp'] as string,
    request.rawBody,
  );
  expect(request.headers['x-webhook-signature']).not.toBe(old);
  testBed.account.webhookSecret = newSecret;
});

test('an unknown or foreign signal has no deliveries to list', async () => {
  const other = await createAccount(testBed.stack, { credits: 10 });
  const { signalId } = await leadTo((await receiver()).url);
  const foreign = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/deliveries`, { token: other.apiKey });
  expect(foreign.status).toBe(404);
});

test('deleting the signal cancels a delivery that is still being retried', async () => {
  const r = await receiver();
  r.script(...Array.from({ length: 50 }, () => ({ status: 503 })));
  const { signalId } = await leadTo(r.url);
  await r.waitFor(2);
  const [delivery] = await testBed.stack.db.query(`SELECT id, lead_id FROM deliveries WHERE signal_id = $1`, [
    signalId,
  ]);
  const deleted = await call(`${testBed.stack.url}/api/v1/signals/${signalId}`, {
    token: testBed.account.apiKey,
    method: 'DELETE',
  });
  expect(deleted.status).toBe(204);
  const [row] = await testBed.stack.db.query(`SELECT status FROM deliveries WHERE id = $1`, [delivery.id]);
  expect(row.status).toBe('cancelled');
  // Deleting cancels the lead workflow itself, which ends with the route cancelled and sends
  // nothing more (an attempt falling between the row's cancellation and the workflow's finds
  // the row cancelled: the same outcome). failures.test.ts pins the back-off case.
  const handle = testBed.stack.temporal.workflow.getHandle(leadWorkflowId(delivery.lead_id));
  await expect(handle.result()).resolves.toMatchObject({ routes: { webhook: 'cancelled' } });
  const count = r.requests.length;
  await new Promise((res) => setTimeout(res, 1500));
  expect(r.requests.length).toBe(count);
});
