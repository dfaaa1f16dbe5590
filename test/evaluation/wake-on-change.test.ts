import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { signalWorkflowId } from '../../src/temporal/contract';
import { DEFAULT_SCORING_MODEL } from '../../src/signal-types/kit/account-score';
import {
  client,
  company,
  createSignal,
  daysAgo,
  event,
  expectStatus,
  ingest,
  jobChanger,
  leadTotal,
  settled,
  uid,
  waitForLeadTotal,
} from '../leads/fixtures';

/**
 * Changes no written row announces (docs/decisions/wake-on-arrival.md, "Who announces") tell
 * the signals they concern: signals evaluate every hour here, so a lead that comes within
 * seconds of a watched entry added, credits granted or a suppression removed came from the
 * `eventsArrived` message their service sent.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SIGNAL_WAKE_ON_ARRIVAL: 'true',
      SIGNAL_WAKE_WINDOW: '500ms',
      RATE_LIMIT_PER_SECOND: '100000',
    },
  });
});
afterAll(() => stack?.stop());

/**
 * The `eventsArrived` messages in every run of the workflow: a run that handed leads off continues
 * as new, so the message that woke it is in the run before, found through each run's first event.
 */
async function wakeMessages(signalId: string): Promise<number> {
  let messages = 0;
  for (let runId: string | undefined; ;) {
    const history = await stack.temporal.workflow.getHandle(signalWorkflowId(signalId), runId).fetchHistory();
    const events = history.events ?? [];
    messages += events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'eventsArrived').length;
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) return messages;
  }
}

/**
 * Ingests and sends what the ingest announced before the test's signal exists: a signal told by
 * it would wait out its wake gap, and the change under test would not be the one that woke it.
 */
async function ingestBefore(records: Parameters<typeof ingest>[1]): Promise<void> {
  await ingest(stack, records);
  await stack.services.arrivals.flush();
}

test('a watched company added whose events are already stored is a lead within seconds', async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watched = company(uid('watched'));
  await ingestBefore([
    watched,
    event(uid('raise'), 'fundraising', daysAgo(2), watched.id, { data: { funding_type: 'Series A' } }),
  ]);
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'watch later',
    status: 'active',
    config: { companies: [`${uid('elsewhere')}.com`] },
  });
  await settled(stack, signal.id, 1);
  expect(await leadTotal(api, signal.id)).toBe(0);

  const added = expectStatus(
    await api.post(`/watchlists/${signal.id}/companies`, { companies: [watched.domain] }),
    200,
  );
  expect(added).toMatchObject({ watched: 1 });
  // The next timed evaluation is an hour away: only the watchlist's message can bring the lead.
  const [lead] = await waitForLeadTotal(api, signal.id, 1, 20_000);
  expect(lead.company.name).toBe(watched.name);
  expect(await wakeMessages(signal.id)).toBeGreaterThanOrEqual(1);
});

test('credits granted to an account whose signal was deferred for credits bring the deferred leads within seconds', async () => {
  const account = await createAccount(stack, { credits: 5 });
  const api = client(stack, account);
  const title = uid('Thrifty').replace('-', '');
  await ingestBefore(
    [8, 7, 6, 5].flatMap((days) => jobChanger(uid('thrift'), daysAgo(days), { title: `${title} lead` }).records),
  );
  const signal = await createSignal(api, 'job-changes', {
    name: 'deferred for credits',
    status: 'active',
    dailyLeadLimit: 50,
    config: { customTitles: [title] },
  });
  await settled(stack, signal.id, 1);
  // 5 credits pay for two leads at 2 each; the other two wait for credits.
  expect(await leadTotal(api, signal.id)).toBe(2);
  expect(await wakeMessages(signal.id)).toBe(0);

  const granted = await call(`${stack.url}/admin/v1/accounts/${account.accountId}/credits`, {
    token: TEST_ADMIN_TOKEN,
    body: { amount: 10 },
  });
  expect(granted.body).toEqual({ creditBalance: 11 });
  await waitForLeadTotal(api, signal.id, 4, 20_000);
  expect(await wakeMessages(signal.id)).toBeGreaterThanOrEqual(1);
});

test('a suppression removed brings the lead it held within seconds; one added tells nobody', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  const title = uid('Held').replace('-', '');
  const held = jobChanger(uid('held'), daysAgo(2), { title: `${title} lead` });
  const entry = expectStatus(await api.post('/suppressions', { kind: 'domain', value: held.company.domain! }), 200)
    .added[0];
  await ingestBefore(held.records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'held back',
    status: 'active',
    dailyLeadLimit: 50,
    config: { customTitles: [title] },
  });
  await settled(stack, signal.id, 1);
  expect(await leadTotal(api, signal.id)).toBe(0);

  // Adding an entry only blocks leads: nothing is sent.
  expectStatus(await api.post('/suppressions', { kind: 'email', value: `${uid('nobody')}@example.com` }), 200);
  await stack.services.arrivals.flush();
  expect(await wakeMessages(signal.id)).toBe(0);

  expect((await api.delete(`/suppressions/${entry.id}`)).status).toBe(204);
  const [lead] = await waitForLeadTotal(api, signal.id, 1, 20_000);
  expect(lead.company.name).toBe(held.company.name);
  expect(await wakeMessages(signal.id)).toBeGreaterThanOrEqual(1);
});

test("a scoring model set tells the account's account_score signals, a competitor added its watchlists; no other signal", async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  const score = expectStatus(
    await api.post('/signals/account-score', { name: 'scores', status: 'active', config: {} }),
    201,
  );
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'competition',
    status: 'active',
    config: { companies: [`${uid('rival-watch')}.com`] },
  });
  const jobs = await createSignal(api, 'job-changes', {
    name: 'untouched',
    status: 'active',
    config: { customTitles: [uid('Untold').replace('-', '')] },
  });
  for (const signal of [score, watchlist, jobs]) await settled(stack, signal.id, 1);

  const model = await call(`${stack.url}/api/v1/scoring-model`, {
    method: 'PUT',
    token: account.apiKey,
    body: DEFAULT_SCORING_MODEL,
  });
  expect(model.status).toBe(200);
  await stack.services.arrivals.flush();
  expect([await wakeMessages(score.id), await wakeMessages(watchlist.id)]).toEqual([1, 0]);

  expectStatus(await api.post('/competitors', { name: 'Rival', domain: `${uid('rival')}.com` }), 201);
  await stack.services.arrivals.flush();
  expect(await wakeMessages(watchlist.id)).toBe(1);
  expect(await wakeMessages(jobs.id)).toBe(0);
});
