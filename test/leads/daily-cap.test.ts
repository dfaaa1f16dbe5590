import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  advanceToNextUtcDay,
  allLeads,
  awayFromMidnight,
  client,
  company,
  createSignal,
  daysAgo,
  evaluateNow,
  event,
  getSignal,
  ingest,
  jobChanger,
  person,
  settled,
  startLeadsStack,
  type Client,
} from './fixtures';

/**
 * dailyLeadLimit caps the leads of one UTC day (of the service clock); candidates over it are
 * deferred, not dropped, and later days produce them oldest first.
 */

let stack: Stack;
let api: Client;
beforeAll(async () => {
  stack = await startLeadsStack();
  api = client(stack, await createAccount(stack, { credits: 1000 }));
  awayFromMidnight(stack);
});
afterAll(() => stack?.stop());

/** Event times relative to the service clock, which these tests move forward. */
const ago = (days: number) => daysAgo(days, stack.services.clock.now().getTime());

const lastNames = (leads: any[]) => leads.map((l) => l.contact.last_name).sort();

test('account watchlist: one daily budget shared by every event kind, oldest events first', async () => {
  const acme = company('dc-wl-a');
  const beta = company('dc-wl-b');
  const newCfo = person('dc-wl-b-cfo', beta.id, { title: 'CFO' });
  await ingest(stack, [
    acme,
    beta,
    newCfo,
    event('ev-dc-wl-1', 'fundraising', ago(7), acme.id, {
      data: { funding_type: 'Series A', funding_amount_usd: 8_000_000 },
    }),
    event('ev-dc-wl-2', 'job_offers', ago(6), beta.id, { data: { job_offer_title: 'Controller' } }),
    event('ev-dc-wl-3', 'public_tenders', ago(5), acme.id),
    event('ev-dc-wl-4', 'new_decision_makers', ago(4), beta.id, { personId: newCfo.id }),
    event('ev-dc-wl-5', 'forecasted_growth', ago(3), acme.id),
  ]);
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Capped accounts',
    status: 'active',
    dailyLeadLimit: 3,
    config: { companies: ['dc-wl-a.com', 'dc-wl-b.com'] },
  });
  await settled(stack, signal.id);
  const first = await allLeads(api, signal.id);
  expect(first.map((l) => l.signal.last_signal).sort()).toEqual([
    'Job Offer',
    'Public Tenders Watchlist',
    'Watched Company Raised',
  ]);
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 3, leadsTotal: 3 });

  // Same day: the budget is spent, whatever kind the waiting events are.
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(3);

  advanceToNextUtcDay(stack);
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 0, leadsTotal: 3 });
  await evaluateNow(stack, signal.id);
  const all = await allLeads(api, signal.id);
  expect(
    all
      .slice(0, 2)
      .map((l) => l.signal.last_signal)
      .sort(),
  ).toEqual(['New Decision Maker Watchlist', 'Watched Company Expected to Scale']);
  expect(all).toHaveLength(5);
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 2, leadsTotal: 5 });
});

test('job changes: 2 a day from 5 candidates, the rest on the following days, oldest first', async () => {
  // Five CROs changed jobs 6, 5, 4, 3 and 2 days ago; dc-1 is the oldest.
  const changers = [6, 5, 4, 3, 2].map((days, i) => jobChanger(`dc-${i + 1}`, ago(days), { title: 'CRO' }));
  await ingest(
    stack,
    changers.flatMap((c) => c.records),
  );
  const signal = await createSignal(api, 'job-changes', {
    name: 'Capped CROs',
    status: 'active',
    dailyLeadLimit: 2,
    config: { jobTitles: ['Chief Revenue Officer'] },
  });
  await settled(stack, signal.id);
  const day1 = await allLeads(api, signal.id);
  expect(lastNames(day1)).toEqual(['Lovelace-dc-1', 'Lovelace-dc-2']);
  expect(await getSignal(api, signal.id)).toMatchObject({
    status: 'active',
    dailyLeadLimit: 2,
    leadsToday: 2,
    leadsTotal: 2,
  });

  // Asking again the same day produces nothing more.
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(2);

  // The next UTC day: the count starts again and the next two oldest come.
  advanceToNextUtcDay(stack);
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 0, leadsTotal: 2 });
  await evaluateNow(stack, signal.id);
  const day2 = await allLeads(api, signal.id);
  expect(day2).toHaveLength(4);
  expect(lastNames(day2.slice(0, 2))).toEqual(['Lovelace-dc-3', 'Lovelace-dc-4']);
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 2, leadsTotal: 4 });

  advanceToNextUtcDay(stack);
  await evaluateNow(stack, signal.id);
  const day3 = await allLeads(api, signal.id);
  expect(day3).toHaveLength(5);
  expect(day3[0].contact.last_name).toBe('Lovelace-dc-5');
  expect(await getSignal(api, signal.id)).toMatchObject({ leadsToday: 1, leadsTotal: 5 });
  // Each lead was created on the day it was produced.
  const days = new Set(day3.map((l) => l.contact.created_at.slice(0, 10)));
  expect(days.size).toBe(3);
});
