import { TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  allLeads,
  allUsage,
  balanceOf,
  client,
  createSignal,
  daysAgo,
  evaluateNow,
  expectStatus,
  getSignal,
  ingest,
  jobChanger,
  leadTotal,
  requestEvaluation,
  settled,
  startLeadsStack,
  waitFor,
  waitForLeadTotal,
  workflowState,
} from './fixtures';

/** Pausing, resuming, running out of credits and deleting, as they show in production. */

let stack: Stack;
beforeAll(async () => {
  stack = await startLeadsStack();
});
afterAll(() => stack?.stop());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lastNames = (leads: any[]) => leads.map((l) => l.contact.last_name).sort();

test('pause stops production (evaluate answers 409 SIGNAL_NOT_ACTIVE) and resume restarts it', async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  await ingest(stack, jobChanger('st-p-1', daysAgo(5), { title: 'VP Sales' }).records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Sales VPs',
    status: 'active',
    config: { jobTitles: ['VP of Sales'] },
  });
  await settled(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(1);

  expect(expectStatus(await api.post(`/signals/${signal.id}/pause`), 200).status).toBe('paused');
  await waitFor(
    'the workflow to be paused',
    () => workflowState(stack, signal.id),
    (s) => s?.status === 'paused',
  );

  // New candidates while paused: no evaluation is accepted and nothing is produced.
  await ingest(stack, [
    ...jobChanger('st-p-2', daysAgo(4), { title: 'VP Sales' }).records,
    ...jobChanger('st-p-3', daysAgo(3), { title: 'VP Sales' }).records,
  ]);
  const refused = expectStatus(await requestEvaluation(stack, signal.id), 409);
  expect(refused.error).toMatchObject({ code: 'SIGNAL_NOT_ACTIVE', message: expect.any(String) });
  await pause(1500);
  expect(await leadTotal(api, signal.id)).toBe(1);
  expect(await getSignal(api, signal.id)).toMatchObject({ status: 'paused', leadsTotal: 1 });
  expect((await allUsage(api, signal.id)).filter((u) => u.operation === 'lead')).toHaveLength(1);

  // Resume: the workflow evaluates at once and the waiting candidates are produced.
  expect(expectStatus(await api.post(`/signals/${signal.id}/resume`), 200).status).toBe('active');
  const leads = await waitForLeadTotal(api, signal.id, 3);
  expect(lastNames(leads)).toEqual(['Lovelace-st-p-1', 'Lovelace-st-p-2', 'Lovelace-st-p-3']);
  expect((await workflowState(stack, signal.id))?.status).toBe('active');

  // PATCH status does the same as pause.
  expectStatus(await api.patch(`/signals/${signal.id}`, { status: 'paused' }), 200);
  expect(expectStatus(await requestEvaluation(stack, signal.id), 409).error.code).toBe('SIGNAL_NOT_ACTIVE');
});

test('out of credits: production stops with the signal still active and a CREDITS_EXHAUSTED warning; credits added, the rest comes', async () => {
  const account = await createAccount(stack, { credits: 5 });
  const api = client(stack, account);
  const changers = [8, 7, 6, 5].map((days, i) => jobChanger(`st-c-${i + 1}`, daysAgo(days), { title: 'VP Marketing' }));
  await ingest(
    stack,
    changers.flatMap((c) => c.records),
  );
  const signal = await createSignal(api, 'job-changes', {
    name: 'Marketing VPs',
    status: 'active',
    config: { jobTitles: ['VP of Marketing'] },
  });
  await settled(stack, signal.id);

  // 5 credits pay for two leads (2 each); the two oldest candidates.
  const paid = await allLeads(api, signal.id);
  expect(lastNames(paid)).toEqual(['Lovelace-st-c-1', 'Lovelace-st-c-2']);
  expect(await balanceOf(api)).toBe(1);
  const exhausted = await getSignal(api, signal.id);
  expect(exhausted).toMatchObject({ status: 'active', leadsTotal: 2 });
  expect(exhausted.warnings.filter((w: any) => w.code === 'CREDITS_EXHAUSTED')).toEqual([
    {
      code: 'CREDITS_EXHAUSTED',
      field: expect.any(String),
      message: expect.any(String),
      severity: 'warning',
      values: expect.any(Array),
    },
  ]);
  // Still nothing without credits, however often it evaluates.
  await evaluateNow(stack, signal.id);
  expect(await leadTotal(api, signal.id)).toBe(2);

  const granted = await call(`${stack.url}/admin/v1/accounts/${account.accountId}/credits`, {
    token: TEST_ADMIN_TOKEN,
    body: { amount: 10 },
  });
  expect(granted.body).toEqual({ creditBalance: 11 });
  await evaluateNow(stack, signal.id);
  const leads = await allLeads(api, signal.id);
  expect(lastNames(leads)).toEqual(['Lovelace-st-c-1', 'Lovelace-st-c-2', 'Lovelace-st-c-3', 'Lovelace-st-c-4']);
  expect(await balanceOf(api)).toBe(7);
  const recovered = await getSignal(api, signal.id);
  expect(recovered).toMatchObject({ status: 'active', leadsTotal: 4 });
  expect(recovered.warnings.filter((w: any) => w.code === 'CREDITS_EXHAUSTED')).toEqual([]);
  expect((await allUsage(api, signal.id)).map((u) => [u.operation, u.credits])).toEqual(Array(4).fill(['lead', -2]));
});

test('DELETE: the workflow ends and nothing further is produced or billed', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  await ingest(stack, jobChanger('st-d-1', daysAgo(5), { title: 'VP Finance' }).records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Finance VPs',
    status: 'active',
    config: { jobTitles: ['VP of Finance'] },
  });
  await settled(stack, signal.id);
  expect(await leadTotal(api, signal.id)).toBe(1);

  expect((await api.delete(`/signals/${signal.id}`)).status).toBe(204);
  expect(expectStatus(await api.get(`/signals/${signal.id}`), 404).error.code).toBe('NOT_FOUND');
  // The signal's workflow completes.
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    stack.temporal.workflow
      .getHandle(`signal:${signal.id}`)
      .result()
      .then(() => 'completed'),
    new Promise((r) => (timer = setTimeout(() => r('still running'), 15_000))),
  ]);
  clearTimeout(timer);
  expect(ended).toBe('completed');

  await ingest(stack, jobChanger('st-d-2', daysAgo(2), { title: 'VP Finance' }).records);
  expect(expectStatus(await requestEvaluation(stack, signal.id), 404).error.code).toBe('NOT_FOUND');
  await pause(1000);
  const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1`, [signal.id]);
  expect(n).toBe(1);
  expect((await allUsage(api, signal.id)).map((u) => u.operation)).toEqual(['lead']);
  expect(await balanceOf(api)).toBe(98);
});
