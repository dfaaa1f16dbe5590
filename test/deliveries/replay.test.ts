import { call, createAccount } from '../setup/http';
import { deliveryTaskQueue } from '../../src/temporal/contract';
import { replayBody } from '../../src/destinations/webhook/webhook-body';
import type { Receiver } from './receiver';
import {
  DELIVERY_ENV,
  deliveriesOf,
  deliveryTestBed,
  jobChanges,
  leadDeliveriesAre,
  leadsTo,
  signalFor,
  sleep,
  waitForDeliveries,
} from './fixtures';

const testBed = deliveryTestBed({ env: DELIVERY_ENV, credits: 1000 });
const { receiver } = testBed;

const replay = (signalId: string, token = testBed.account.apiKey) =>
  call(`${testBed.stack.url}/api/v1/signals/${signalId}/replay-webhook`, { token, method: 'POST' });

/** A signal whose `count` leads all reached `r` once, as lead deliveries. */
async function deliveredLeads(r: Receiver, count: number) {
  const signalId = await leadsTo(testBed.stack, testBed.account, r.url, count);
  await waitForDeliveries(testBed.stack, testBed.account, signalId, leadDeliveriesAre('delivered', count));
  const leads: Array<{ id: string; payload: string }> = await testBed.stack.db.query(
    `SELECT id, payload::text AS payload FROM leads WHERE signal_id = $1 ORDER BY created_at, id`,
    [signalId],
  );
  expect(leads).toHaveLength(count);
  return { signalId, leads };
}

test('resends every lead with is_replay under new ids, and answers total, sent and failed field by field', async () => {
  const r = await receiver();
  const { signalId, leads } = await deliveredLeads(r, 5);
  const originals = r.requests.slice();
  expect(originals).toHaveLength(5);
  const originalIds = new Set(originals.map((q) => q.headers['x-webhook-id']));

  // Two leads are refused (400: permanent), one keeps failing (500: retried twice, quickly).
  const refused = new Set([leads[0].id, leads[3].id]);
  const failing = leads[2].id;
  r.answerWith((body) => {
    if (!body?.signal?.is_replay) return undefined;
    if (refused.has(body.contact.lead_id)) return { status: 400 };
    if (body.contact.lead_id === failing) return { status: 500 };
    return undefined;
  });

  const answer = await replay(signalId);
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(['failed', 'sent', 'total']);
  expect(answer.body.total).toBe(5);
  expect(answer.body.sent).toBe(2);
  expect(answer.body.failed).toBe(3);

  // Answered only when every send had its try: 2 sent + 2 refused once + 3 tries of the failing one.
  const replayed = r.requests.slice(5);
  expect(replayed).toHaveLength(7);
  for (const request of replayed) {
    expect(request.verified).toBe(true);
    expect(request.body.signal.is_replay).toBe(true);
    expect(originalIds.has(request.headers['x-webhook-id'])).toBe(false);
    // The stored lead's own text with the flag added; nothing else differs.
    const stored = leads.find((l) => l.id === request.body.contact.lead_id)!;
    expect(request.rawBody.toString('utf8')).toBe(replayBody(stored.payload));
    const { is_replay: isReplay, ...signal } = request.body.signal;
    expect(isReplay).toBe(true);
    expect({ ...request.body, signal }).toEqual(JSON.parse(stored.payload));
  }
  const idsByLead = new Map<string, Set<string>>();
  for (const request of replayed) {
    const ids = idsByLead.get(request.body.contact.lead_id) ?? new Set<string>();
    ids.add(request.headers['x-webhook-id'] as string);
    idsByLead.set(request.body.contact.lead_id, ids);
  }
  expect([...idsByLead.keys()].sort()).toEqual(leads.map((l) => l.id).sort());
  // One new id per lead, the same on its retries.
  expect([...idsByLead.values()].every((ids) => ids.size === 1)).toBe(true);
  expect(new Set([...idsByLead.values()].map((ids) => [...ids][0])).size).toBe(5);
  const failingTries = replayed.filter((q) => q.body.contact.lead_id === failing);
  expect(failingTries).toHaveLength(3);
  expect(failingTries[1].at - failingTries[0].at).toBeGreaterThanOrEqual(400);

  // The stored leads are untouched, and read back without the flag.
  const after = await testBed.stack.db.query(
    `SELECT id, payload::text AS payload FROM leads WHERE signal_id = $1 ORDER BY created_at, id`,
    [signalId],
  );
  expect(after).toEqual(leads);
  const read = await call(`${testBed.stack.url}/api/v1/signals/${signalId}/leads`, { token: testBed.account.apiKey });
  expect(read.body.leads.every((l: any) => !('is_replay' in l.signal))).toBe(true);

  // Each send is a `replay` delivery, listed with its outcome.
  const replays = (await deliveriesOf(testBed.stack, testBed.account, signalId)).filter((d) => d.kind === 'replay');
  expect(replays).toHaveLength(5);
  const byLead = new Map(replays.map((d) => [d.leadId, d]));
  for (const lead of leads) {
    const delivery = byLead.get(lead.id);
    expect(delivery.id).toBe([...idsByLead.get(lead.id)!][0]);
    if (refused.has(lead.id)) expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 400 });
    else if (lead.id === failing)
      expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 500 });
    else expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
  }

  // The replay ran as `replay:{signalId}:{n}`, findable by its signal.
  const workflows: string[] = [];
  for (let i = 0; i < 50 && workflows.length === 0; i++) {
    for await (const wf of testBed.stack.temporal.workflow.list({
      query: `SignalId = '${signalId}' AND WorkflowType = 'replayWorkflow'`,
    })) {
      workflows.push(wf.workflowId);
    }
    if (workflows.length === 0) await sleep(100);
  }
  expect(workflows).toHaveLength(1);
  expect(workflows[0]).toMatch(new RegExp(`^replay:${signalId}:\\d+$`));

  // A second replay sends all five again, under ids new once more.
  r.answerWith(null);
  const again = await replay(signalId);
  expect(again.body).toEqual({ total: 5, sent: 5, failed: 0 });
  const secondIds = new Set(r.requests.slice(12).map((q) => q.headers['x-webhook-id']));
  expect(secondIds.size).toBe(5);
  for (const id of secondIds) {
    expect(originalIds.has(id)).toBe(false);
    expect(replays.some((d) => d.id === id)).toBe(false);
  }
  // Replays are free: one charge per lead, made when it was produced.
  const [{ n }] = await testBed.stack.db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE signal_id = $1`, [
    signalId,
  ]);
  expect(n).toBe(5);
});

test('a signal with no leads yet answers zeros', async () => {
  const r = await receiver();
  const signalId = await signalFor(testBed.stack, testBed.account, await jobChanges(testBed.stack, 0), {
    webhookUrl: r.url,
    status: 'draft',
  });
  const answer = await replay(signalId);
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ total: 0, sent: 0, failed: 0 });
  expect(r.requests).toHaveLength(0);
});

test('422 without a webhookUrl, 404 for an unknown signal or one of another account, 403 for a read-only key', async () => {
  const noWebhook = await signalFor(testBed.stack, testBed.account, await jobChanges(testBed.stack, 0), {
    status: 'draft',
  });
  const none = await replay(noWebhook);
  expect(none.status).toBe(422);
  expect(none.body.error.code).toBe('VALIDATION_ERROR');
  expect(none.body.error.details).toEqual([{ field: 'webhookUrl', message: expect.any(String) }]);

  const r = await receiver();
  const mine = await signalFor(testBed.stack, testBed.account, await jobChanges(testBed.stack, 0), {
    webhookUrl: r.url,
    status: 'draft',
  });
  const other = await createAccount(testBed.stack, { credits: 10 });
  const foreign = await replay(mine, other.apiKey);
  expect(foreign.status).toBe(404);
  expect(foreign.body.error.code).toBe('NOT_FOUND');
  expect((await replay('00000000-0000-4000-8000-000000000000')).status).toBe(404);

  const reader = await createAccount(testBed.stack, { credits: 10, permissions: ['read'] });
  const forbidden = await replay(mine, reader.apiKey);
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.error.code).toBe('FORBIDDEN');
  expect(r.requests).toHaveLength(0);
});

test('the replay workflow pages through the leads and continues as new, carrying its counts', async () => {
  const r = await receiver();
  const { signalId, leads } = await deliveredLeads(r, 7);
  // Pages of 2 leads, a new run after 3 sends: 4 pages over 2 runs, as 1,000s of leads would go.
  const handle = await testBed.stack.temporal.workflow.start('replayWorkflow', {
    taskQueue: deliveryTaskQueue(testBed.stack.config),
    workflowId: `replay:${signalId}:paging`,
    args: [{ signalId, timeoutMs: 2000, pageSize: 2, sendsPerRun: 3 }],
  });
  await expect(handle.result()).resolves.toEqual({ total: 7, sent: 7, failed: 0 });
  const firstRun = await testBed.stack.temporal.workflow
    .getHandle(handle.workflowId, handle.firstExecutionRunId)
    .describe();
  expect(firstRun.status.name).toBe('CONTINUED_AS_NEW');

  const replayed = r.requests.slice(7);
  expect(replayed.map((q) => q.body.contact.lead_id).sort()).toEqual(leads.map((l) => l.id).sort());
  expect(new Set(replayed.map((q) => q.headers['x-webhook-id'])).size).toBe(7);
  const [{ n }] = await testBed.stack.db.query(
    `SELECT count(*)::int AS n FROM deliveries WHERE signal_id = $1 AND kind = 'replay'`,
    [signalId],
  );
  expect(n).toBe(7);
});

test("the unprefixed path of the specification's introduction replays the same way", async () => {
  const r = await receiver();
  const { signalId } = await deliveredLeads(r, 2);
  const answer = await call(`${testBed.stack.url}/v1/signals/${signalId}/replay-webhook`, {
    token: testBed.account.apiKey,
    method: 'POST',
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ total: 2, sent: 2, failed: 0 });
  expect(r.requests.slice(2).every((q) => q.body.signal.is_replay === true)).toBe(true);
});
