import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { signalWorkflowId } from '../../src/temporal/contract';
import {
  client,
  company,
  createSignal,
  daysAgo,
  event,
  ingest,
  jobChanger,
  settled,
  uid,
  waitFor,
  waitForLeadTotal,
  workflowState,
  type Client,
} from '../leads/fixtures';
import { ArrivalAnnouncer } from '../../src/services/signals/arrivals';
import { createLogger } from '../../src/logger';

/**
 * Wake on arrival (docs/decisions/wake-on-arrival.md) on the real stack: signals evaluate every
 * hour, so a lead that comes within seconds of its ingest came from the `eventsArrived` message;
 * a signal whose wake keys the ingested rows do not name is not told, and a burst of ingests
 * wakes a signal about once per window, not once per ingest.
 */

const WINDOW_MS = 2_000;
const GAP_MS = 6_000;

let stack: Stack;
let api: Client;

beforeAll(async () => {
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SIGNAL_WAKE_ON_ARRIVAL: 'true',
      SIGNAL_WAKE_WINDOW: `${WINDOW_MS}ms`,
      SIGNAL_WAKE_GAP: `${GAP_MS}ms`,
      RATE_LIMIT_PER_SECOND: '100000',
    },
  });
  api = client(stack, await createAccount(stack, { credits: 10_000 }));
});
afterAll(() => stack?.stop());

/** When each `eventsArrived` message of the workflow's current run came (ms). */
async function wakeTimes(signalId: string): Promise<number[]> {
  const history = await stack.temporal.workflow.getHandle(signalWorkflowId(signalId)).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'eventsArrived')
    .map((e) => Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6));
}
const wakeMessages = async (signalId: string) => (await wakeTimes(signalId)).length;

test('an ingested job change wakes the job-changes signal within seconds; a fundraising signal is not told', async () => {
  const title = uid('Wakeful').replace('-', '');
  const jobs = await createSignal(api, 'job-changes', {
    name: 'job changes',
    status: 'active',
    dailyLeadLimit: 50,
    config: { customTitles: [title] },
  });
  const rounds = await createSignal(api, 'fundraising', {
    name: 'rounds',
    status: 'active',
    dailyLeadLimit: 50,
    config: {},
  });
  await settled(stack, jobs.id, 1);
  await settled(stack, rounds.id, 1);

  const slug = uid('wake');
  await ingest(stack, jobChanger(slug, daysAgo(1), { title: `${title} lead` }).records);

  // The next timed evaluation is an hour away: only the message can bring the lead.
  await waitForLeadTotal(api, jobs.id, 1, 30_000);
  const leads = await stack.db.query(`SELECT event_id FROM leads WHERE signal_id = $1`, [jobs.id]);
  expect(leads).toEqual([{ event_id: `ev-${slug}` }]);
  // The lead is written inside the woken evaluation, which counts once its hand-off is recorded.
  await waitFor(
    'the woken evaluation to end',
    () => workflowState(stack, jobs.id),
    (state) => (state?.evaluations ?? 0) >= 2,
  );

  // Whatever is still pending is sent now; a message to the fundraising signal would be in its history.
  await stack.services.arrivals.flush();
  expect(await wakeMessages(rounds.id)).toBe(0);
  expect((await settled(stack, rounds.id, 1)).evaluations).toBe(1);
});

test('a fundraising round wakes the fundraising signal, whose keys are its kind and company changes', async () => {
  const rounds = await createSignal(api, 'fundraising', {
    name: 'rounds two',
    status: 'active',
    dailyLeadLimit: 50,
    config: { minAmountUsd: 1 },
  });
  await settled(stack, rounds.id, 1);
  const co = company(uid('raiser'));
  await ingest(stack, [
    co,
    event(uid('round'), 'fundraising', daysAgo(1), co.id, {
      data: { funding_type: 'Series A', funding_amount_usd: 5_000_000 },
    }),
  ]);
  await waitForLeadTotal(api, rounds.id, 1, 30_000);
});

test('a burst of ingests wakes a signal about once per window, not once per ingest', async () => {
  const title = uid('Bursty').replace('-', '');
  const jobs = await createSignal(api, 'job-changes', {
    name: 'burst',
    status: 'active',
    dailyLeadLimit: 500,
    config: { customTitles: [title] },
  });
  const before = (await settled(stack, jobs.id, 1)).evaluations;

  const ingests = 24;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: ingests }, (_, i) =>
      ingest(stack, jobChanger(uid(`burst${i}`), daysAgo(1), { title: `${title} lead` }).records),
    ),
  );
  const burstMs = Date.now() - started;
  await stack.services.arrivals.flush();
  await waitForLeadTotal(api, jobs.id, ingests, 60_000);
  const after = await waitFor(
    'the burst signal to rest',
    () => workflowState(stack, jobs.id),
    (state) => state !== null && !state.evaluating && state.nextEvaluationAt !== null,
  );

  // Each window sends one message, and a message during an evaluation adds at most one more.
  const windows = Math.ceil(burstMs / WINDOW_MS) + 1;
  const woken = after!.evaluations - before;
  console.log(`wake-on-arrival: ${ingests} ingests in ${burstMs} ms woke the signal ${woken} times`);
  expect(woken).toBeGreaterThanOrEqual(1);
  expect(woken).toBeLessThanOrEqual(2 * windows);
  expect(woken).toBeLessThan(ingests);
});

test("a round wakes the fundraising signal of its company's country, not the one of another country", async () => {
  const [germany, france] = await Promise.all(
    ['Germany', 'France'].map((country) =>
      createSignal(api, 'fundraising', {
        name: `rounds in ${country}`,
        status: 'active',
        dailyLeadLimit: 50,
        config: { locations: [country] },
      }),
    ),
  );
  await settled(stack, germany.id, 1);
  await settled(stack, france.id, 1);
  const co = company(uid('berlin'), { hqCountryCode: 'DE', hqCity: 'Berlin' });
  await ingest(stack, [
    co,
    event(uid('round'), 'fundraising', daysAgo(1), co.id, {
      data: { funding_type: 'Seed', funding_amount_usd: 2_000_000 },
    }),
  ]);
  await waitForLeadTotal(api, germany.id, 1, 30_000);
  await stack.services.arrivals.flush();
  expect(await wakeMessages(france.id)).toBe(0);
  const keys = await stack.db.query(`SELECT wake_keys FROM signals WHERE id = $1`, [france.id]);
  expect(keys[0].wake_keys).toEqual(expect.arrayContaining(['kind:fundraising', 'fundraising@hq:FR']));
});

test('an event at a watched company wakes its watchlist; one elsewhere does not', async () => {
  const watched = company(uid('watched'));
  const elsewhere = company(uid('elsewhere'));
  await ingest(stack, [watched, elsewhere]);
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'watching one',
    status: 'active',
    dailyLeadLimit: 50,
    config: { companies: [watched.domain] },
  });
  await settled(stack, watchlist.id, 1);
  await ingest(stack, [
    event(uid('far-round'), 'fundraising', daysAgo(1), elsewhere.id, {
      data: { funding_type: 'Seed', funding_amount_usd: 1_000_000 },
    }),
  ]);
  await stack.services.arrivals.flush();
  expect(await wakeMessages(watchlist.id)).toBe(0);
  await ingest(stack, [
    event(uid('near-round'), 'fundraising', daysAgo(1), watched.id, {
      data: { funding_type: 'Seed', funding_amount_usd: 1_000_000 },
    }),
  ]);
  await waitForLeadTotal(api, watchlist.id, 1, 30_000);
  expect(await wakeMessages(watchlist.id)).toBe(1);
});

test('a signal told is told again no sooner than the gap, once, with what arrived meanwhile', async () => {
  const rounds = await createSignal(api, 'fundraising', {
    name: 'rounds in Spain',
    status: 'active',
    dailyLeadLimit: 50,
    config: { locations: ['Spain'] },
  });
  const madrid = company(uid('madrid'), { hqCountryCode: 'ES', hqCity: 'Madrid' });
  await ingest(stack, [madrid]);
  // An announcer of its own, telling a recorder: the stack's would race this test's steps.
  const told: { signalId: string; at: number }[] = [];
  const gapMs = 1_500;
  const announcer = new ArrivalAnnouncer(
    stack.db,
    createLogger('silent', 'test'),
    async (signalId) => void told.push({ signalId, at: Date.now() }),
    { windowMs: 50, sendsAtOnce: 4, gapMs },
  );
  const round = { table: 'events', type: 'fundraising', companyId: madrid.id } as const;
  const toldRounds = () => told.filter((t) => t.signalId === rounds.id);
  announcer.announce([round]);
  expect(await announcer.flush()).toContain(rounds.id);
  for (let i = 0; i < 3; i++) {
    announcer.announce([round]);
    expect(await announcer.flush()).not.toContain(rounds.id);
  }
  expect(toldRounds()).toHaveLength(1);
  await waitFor(
    'the message held for the gap',
    async () => toldRounds(),
    (sent) => sent.length >= 2,
    {
      timeoutMs: 5_000,
    },
  );
  await announcer.close();
  const times = toldRounds().map((t) => t.at);
  expect(times).toHaveLength(2);
  expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(gapMs - 50);
});

test('a posting its keys name but its plan refuses (another keyword) does not wake the hiring signal; a matching one does', async () => {
  const word = uid('Rustacean').replace(/-/g, '');
  const hiring = await createSignal(api, 'hiring', {
    name: 'hiring rust',
    status: 'active',
    dailyLeadLimit: 50,
    config: { keywords: [word], locations: ['United States'] },
  });
  await settled(stack, hiring.id, 1);
  const co = company(uid('poster'));
  const posting = (title: string) =>
    event(uid('posting'), 'job_offers', daysAgo(1), co.id, {
      data: { job_offer_title: title, job_offer_location: 'Austin, Texas, United States' },
    });
  await ingest(stack, [co, posting('Python developer')]);
  await stack.services.arrivals.flush();
  // Same kind, same country: the keys found it, and the screen read its plan.
  expect(await wakeMessages(hiring.id)).toBe(0);
  // The match and, after it, another refused posting of the same company: each event is screened.
  await ingest(stack, [posting(`${word} engineer`), posting('Go developer')]);
  await waitForLeadTotal(api, hiring.id, 1, 30_000);
});

test('a wake that could not be sent is sent again at the end of the gap', async () => {
  const rounds = await createSignal(api, 'fundraising', {
    name: 'rounds in Italy',
    status: 'active',
    dailyLeadLimit: 50,
    config: { locations: ['Italy'] },
  });
  const rome = company(uid('rome'), { hqCountryCode: 'IT', hqCity: 'Rome' });
  await ingest(stack, [rome]);
  const tries: number[] = [];
  const gapMs = 1_000;
  const announcer = new ArrivalAnnouncer(
    stack.db,
    createLogger('silent', 'test'),
    async (signalId) => {
      if (signalId !== rounds.id) return;
      tries.push(Date.now());
      if (tries.length === 1) throw new Error('Temporal is away');
    },
    { windowMs: 50, sendsAtOnce: 4, gapMs },
  );
  announcer.announce([{ table: 'events', type: 'fundraising', companyId: rome.id }]);
  await announcer.flush();
  await waitFor(
    'the second try',
    async () => [...tries],
    (sent) => sent.length >= 2,
    { timeoutMs: 5_000 },
  );
  await announcer.close();
  expect(tries).toHaveLength(2);
  expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(gapMs - 50);
});
