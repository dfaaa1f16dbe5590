import { call } from '../setup/http';
import { deliveryTestBed } from './fixtures';

// A test send carries a sample lead, not one made from the database: no company to seed.
const testBed = deliveryTestBed({
  env: { SIGNAL_EVALUATION_INTERVAL: '1h', WEBHOOK_TIMEOUT_MS: '1000' },
  credits: 100,
  seedCompany: false,
});
const { receiver } = testBed;

async function draftSignal(webhookUrl?: string): Promise<string> {
  const created = await call(`${testBed.stack.url}/api/v1/signals/job-changes`, {
    token: testBed.account.apiKey,
    body: {
      name: 'Webhook test',
      ...(webhookUrl ? { webhookUrl } : {}),
      config: { jobTitles: ['Chief Technology Officer'] },
    },
  });
  if (created.status !== 201) throw new Error(`signal not created: ${created.text}`);
  return created.body.id;
}

const testWebhook = (signalId: string, body?: unknown) =>
  call(`${testBed.stack.url}/api/v1/signals/${signalId}/test-webhook`, {
    token: testBed.account.apiKey,
    method: 'POST',
    ...(body ? { body } : {}),
  });

test('sends one signed sample lead marked is_test to the saved webhook and answers field by field', async () => {
  const r = await receiver();
  const signalId = await draftSignal(r.url);
  const answer = await testWebhook(signalId);
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(['payloadSent', 'signed', 'statusCode', 'success']);
  expect(answer.body).toMatchObject({ success: true, statusCode: 200, signed: true });
  const sent = answer.body.payloadSent;
  expect(sent.signal).toMatchObject({
    id: signalId,
    name: 'Webhook test',
    type: 'job_changes',
    is_test: true,
    last_signal: 'Job Change',
  });
  expect(sent.signal.new_title).toBe('Chief Technology Officer');
  expect(sent.contact).toMatchObject({ first_name: 'Ada', title: 'Chief Technology Officer', email: '' });
  expect(sent.contact.lead_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(sent.company).toMatchObject({ name: 'Acme Analytics', industry: 'Software Development' });

  expect(r.requests).toHaveLength(1);
  const [request] = r.requests;
  expect(request.verified).toBe(true);
  expect(request.body).toEqual(sent);
  expect(request.headers['x-webhook-id']).toMatch(/^[0-9a-f-]{36}$/);

  // A second test is a new send with a new id; each is listed as a test delivery.
  await testWebhook(signalId);
  expect(r.requests[1].headers['x-webhook-id']).not.toBe(request.headers['x-webhook-id']);
  const page = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/deliveries`, {
    token: testBed.account.apiKey,
  });
  expect(page.body.total).toBe(2);
  expect(page.body.items.every((d: any) => d.kind === 'test' && d.status === 'delivered' && d.attempts === 1)).toBe(
    true,
  );
});

test('a url in the body is tested instead of the saved webhook, and a receiver error is reported, not retried', async () => {
  const saved = await receiver();
  const other = await receiver();
  other.script({ status: 503 });
  const signalId = await draftSignal(saved.url);
  const answer = await testWebhook(signalId, { url: other.url });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ success: false, statusCode: 503, signed: true });
  await new Promise((res) => setTimeout(res, 500));
  expect(other.requests).toHaveLength(1);
  expect(saved.requests).toHaveLength(0);
});

test('a receiver that does not answer in time gives success false and no status code', async () => {
  const slow = await receiver();
  slow.script({ status: 200, delayMs: 3000 });
  const signalId = await draftSignal(slow.url);
  const started = Date.now();
  const answer = await testWebhook(signalId);
  expect(Date.now() - started).toBeLessThan(2500);
  expect(answer.body).toMatchObject({ success: false, statusCode: null });
});

test('a signal with no linked key is sent unsigned', async () => {
  const r = await receiver(null);
  const signalId = await draftSignal(r.url);
  await testBed.stack.db.query(`UPDATE signals SET api_key_id = NULL WHERE id = $1`, [signalId]);
  const answer = await testWebhook(signalId);
  expect(answer.body).toMatchObject({ success: true, statusCode: 200, signed: false });
  expect(answer.body.payloadSent.signal.is_test).toBe(true);
  expect(r.requests[0].headers['x-webhook-signature']).toBeUndefined();
  expect(r.requests[0].headers['webhook-signature']).toBeUndefined();
  expect(r.requests[0].headers['x-webhook-id']).toBeDefined();
});

test('422 with neither a saved webhook nor a url; 422 for a url that is not http(s); 404 for an unknown signal', async () => {
  const signalId = await draftSignal();
  const none = await testWebhook(signalId);
  expect(none.status).toBe(422);
  expect(none.body.error.code).toBe('VALIDATION_ERROR');
  const ftp = await testWebhook(signalId, { url: 'ftp://example.com/hook' });
  expect(ftp.status).toBe(422);
  const unknown = await testWebhook('00000000-0000-4000-8000-000000000000');
  expect(unknown.status).toBe(404);
});

test('with private targets refused, loopback is refused when dialled, by literal and by name, as a permanent failure', async () => {
  const { WebhookSender } = await import('../../src/destinations/webhook/webhook-sender');
  const guarded = new WebhookSender(testBed.stack.db, {
    WEBHOOK_TIMEOUT_MS: 1000,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
  });
  const r = await receiver();
  const signalId = await draftSignal(r.url);
  const port = new URL(r.url).port;
  for (const url of [r.url, `http://localhost:${port}/hooks/leads`, `http://[::ffff:127.0.0.1]:${port}/hooks/leads`]) {
    const [{ id }] = await testBed.stack.db.query(
      `INSERT INTO deliveries (id, signal_id, account_id, route, target, kind) VALUES (gen_random_uuid(), $1, $2, 'webhook', $3, 'test') RETURNING id`,
      [signalId, testBed.account.accountId, url],
    );
    const result = await guarded.send({ deliveryId: id, attempt: 1, url, body: '{}', secret: null });
    expect(result).toMatchObject({ outcome: 'permanent', statusCode: null });
    expect((result as { error: string }).error).toMatch(/^target refused/);
  }
  // Nothing reached the receiver: the check ran before any byte was sent.
  expect(r.requests).toHaveLength(0);
});

test("the unprefixed path of the specification's introduction answers the same way", async () => {
  const r = await receiver();
  const signalId = await draftSignal(r.url);
  const answer = await call(`${testBed.stack.url}/v1/signals/${signalId}/test-webhook`, {
    token: testBed.account.apiKey,
    method: 'POST',
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ success: true, statusCode: 200, signed: true });
  expect(r.requests).toHaveLength(1);
  expect(r.requests[0].verified).toBe(true);
  const unauthenticated = await call(`${testBed.stack.url}/v1/signals/${signalId}/test-webhook`, { method: 'POST' });
  expect(unauthenticated.status).toBe(401);
});

test('a fundraising or hiring signal is tested with a sample of its own type, every field of its block filled', async () => {
  const r = await receiver();
  const create = async (path: string, config: Record<string, unknown>) => {
    const created = await call(`${testBed.stack.url}/api/v1/signals/${path}`, {
      token: testBed.account.apiKey,
      body: { name: `Test ${path}`, webhookUrl: r.url, config },
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const fundraising = await testWebhook(await create('fundraising', {}));
  expect(fundraising.body.payloadSent.signal).toMatchObject({
    type: 'fundraising',
    last_signal: 'Company Raised',
    funding_stage: 'Series B',
    funding_amount_usd: 25_000_000,
    announcement_date: '2026-11-20',
    is_test: true,
  });
  const hiring = await testWebhook(await create('hiring', { keywords: ['data engineer'] }));
  expect(hiring.body.payloadSent.signal).toMatchObject({
    type: 'hiring',
    last_signal: 'Job Offer',
    job_offer_title: 'Senior Data Engineer',
    matched_keywords: 'data engineer, snowflake',
    is_test: true,
  });
  const [first, second] = await r.waitFor(2);
  expect(first.verified && second.verified).toBe(true);
  expect(first.body.signal.type).toBe('fundraising');
});
