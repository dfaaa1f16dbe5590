import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  allLeads,
  allUsage,
  balanceOf,
  client,
  company,
  createSignal,
  daysAgo,
  event,
  expectStatus,
  getSignal,
  ingest,
  jobChanger,
  leadEmailOutcomes,
  person,
  requestEvaluation,
  settled,
  startLeadsStack,
  waitForLeadTotal,
  workflowState,
} from './fixtures';

/**
 * Credits as the billing rules state them: 2 per job-change lead, 3 per watchlist lead, 0.5
 * per email found (only when found, only with getEmails), nothing for reading, nothing in draft.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startLeadsStack();
});
afterAll(() => stack?.stop());

const sorted = <T>(values: T[]) => [...values].sort();

test('job changes with getEmails: 2 credits per lead, 0.5 only for each email found', async () => {
  const account = await createAccount(stack, { credits: 100 });
  const api = client(stack, account);
  const withEmail1 = jobChanger('bi-cfo-1', daysAgo(5), { title: 'CFO' });
  const withEmail2 = jobChanger('bi-cfo-2', daysAgo(4), { title: 'CFO' });
  const noEmail = jobChanger('bi-cfo-3', daysAgo(3), { title: 'CFO', person: { email: null } });
  await ingest(stack, [...withEmail1.records, ...withEmail2.records, ...noEmail.records]);

  const signal = await createSignal(api, 'job-changes', {
    name: 'CFOs with emails',
    status: 'active',
    config: { jobTitles: ['Chief Financial Officer'], getEmails: true },
  });
  await settled(stack, signal.id);
  const produced = await waitForLeadTotal(api, signal.id, 3);
  const leadIdOf = (lastName: string) =>
    produced.find((l) => l.contact.last_name === lastName)!.contact.lead_id as string;
  const ids = {
    email1: leadIdOf('Lovelace-bi-cfo-1'),
    email2: leadIdOf('Lovelace-bi-cfo-2'),
    none: leadIdOf('Lovelace-bi-cfo-3'),
  };
  expect(await leadEmailOutcomes(stack, [ids.email1, ids.email2, ids.none])).toEqual(['found', 'found', 'not_found']);

  expect(await balanceOf(api)).toBe(100 - 3 * 2 - 2 * 0.5);
  const usage = await allUsage(api, signal.id);
  expect(sorted(usage.filter((u) => u.operation === 'lead').map((u) => `${u.leadId}:${u.credits}`))).toEqual(
    sorted([ids.email1, ids.email2, ids.none].map((id) => `${id}:-2`)),
  );
  expect(sorted(usage.filter((u) => u.operation === 'email_found').map((u) => `${u.leadId}:${u.credits}`))).toEqual(
    sorted([ids.email1, ids.email2].map((id) => `${id}:-0.5`)),
  );
  expect(usage).toHaveLength(5);
  for (const item of usage) expect(item.signalId).toBe(signal.id);

  // The found emails are on the leads; the person without one has none and cost nothing extra.
  const emails = Object.fromEntries((await allLeads(api, signal.id)).map((l) => [l.contact.lead_id, l.contact.email]));
  expect(emails).toEqual({
    [ids.email1]: 'bi-cfo-1@example.com',
    [ids.email2]: 'bi-cfo-2@example.com',
    [ids.none]: '',
  });
});

test('job changes without getEmails: 2 credits per lead and no email charge, even for people with emails', async () => {
  const account = await createAccount(stack, { credits: 50 });
  const api = client(stack, account);
  const a = jobChanger('bi-cmo-1', daysAgo(5), { title: 'CMO' });
  const b = jobChanger('bi-cmo-2', daysAgo(4), { title: 'CMO' });
  await ingest(stack, [...a.records, ...b.records]);

  const signal = await createSignal(api, 'job-changes', {
    name: 'CMOs',
    status: 'active',
    config: { jobTitles: ['Chief Marketing Officer'] },
  });
  await settled(stack, signal.id);
  const leads = await waitForLeadTotal(api, signal.id, 2);
  expect(
    await leadEmailOutcomes(
      stack,
      leads.map((l) => l.contact.lead_id),
    ),
  ).toEqual(['not_requested', 'not_requested']);

  expect(await balanceOf(api)).toBe(50 - 2 * 2);
  const usage = await allUsage(api);
  expect(sorted(usage.map((u) => `${u.operation}:${u.credits}:${u.leadId ?? ''}`))).toEqual(
    sorted(['grant:50:', ...leads.map((l) => `lead:-2:${l.contact.lead_id}`)]),
  );
  expect((await allLeads(api, signal.id)).map((l) => l.contact.email)).toEqual(['', '']);
});

test('account watchlist: 3 credits per lead, company-level and person-level alike', async () => {
  const account = await createAccount(stack, { credits: 30 });
  const api = client(stack, account);
  const acme = company('bi-wl-a');
  const beta = company('bi-wl-b');
  const newCfo = person('bi-wl-b-cfo', beta.id, { title: 'CFO' });
  await ingest(stack, [
    acme,
    beta,
    newCfo,
    event('ev-bi-wl-1', 'fundraising', daysAgo(9), acme.id, {
      data: { funding_type: 'Seed', funding_amount_usd: 2_000_000 },
    }),
    event('ev-bi-wl-2', 'public_tenders', daysAgo(8), beta.id),
    event('ev-bi-wl-3', 'new_decision_makers', daysAgo(7), beta.id, { personId: newCfo.id }),
  ]);

  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Accounts',
    status: 'active',
    config: { companies: ['bi-wl-a.com', 'bi-wl-b.com'] },
  });
  await settled(stack, signal.id);
  const leads = await waitForLeadTotal(api, signal.id, 3);
  expect(sorted(leads.map((l) => l.signal.last_signal))).toEqual([
    'New Decision Maker Watchlist',
    'Public Tenders Watchlist',
    'Watched Company Raised',
  ]);

  expect(await balanceOf(api)).toBe(30 - 3 * 3);
  const usage = await allUsage(api, signal.id);
  const personLead = leads.find((l) => l.contact !== '');
  expect(usage.map((u) => [u.operation, u.credits])).toEqual([
    ['lead', -3],
    ['lead', -3],
    ['lead', -3],
  ]);
  expect(usage.map((u) => u.leadId)).toContain(personLead.contact.lead_id);
  expect(expectStatus(await api.get(`/signals/${signal.id}`), 200).leadsTotal).toBe(3);
});

test('reading leads is free: many reads leave the balance and the ledger as they were', async () => {
  const account = await createAccount(stack, { credits: 20 });
  const api = client(stack, account);
  const a = jobChanger('bi-read-1', daysAgo(5), { title: 'COO' });
  const b = jobChanger('bi-read-2', daysAgo(4), { title: 'COO' });
  await ingest(stack, [...a.records, ...b.records]);
  const signal = await createSignal(api, 'job-changes', {
    name: 'COOs',
    status: 'active',
    config: { jobTitles: ['Chief Operating Officer'] },
  });
  await settled(stack, signal.id);
  const leads = await waitForLeadTotal(api, signal.id, 2);
  await leadEmailOutcomes(
    stack,
    leads.map((l) => l.contact.lead_id),
  );
  const balance = await balanceOf(api);
  expect(balance).toBe(20 - 2 * 2);
  const ledger = await allUsage(api);

  const since = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
  const reads = ['', '?limit=1', '?limit=1&offset=1', `?since=${since}`, '?limit=100'];
  for (let i = 0; i < 40; i++) {
    const page = expectStatus(await api.get(`/signals/${signal.id}/leads${reads[i % reads.length]}`), 200);
    expect(page.total).toBe(2);
  }
  expect(await balanceOf(api)).toBe(balance);
  expect(await allUsage(api)).toEqual(ledger);
});

test('a draft signal produces and bills nothing; activated, it produces and bills', async () => {
  const account = await createAccount(stack, { credits: 40 });
  const api = client(stack, account);
  const a = jobChanger('bi-draft-1', daysAgo(5), { title: 'CHRO' });
  const b = jobChanger('bi-draft-2', daysAgo(4), { title: 'CHRO' });
  await ingest(stack, [...a.records, ...b.records]);
  const config = { jobTitles: ['Chief Human Resources Officer'], getEmails: true };

  const draft = await createSignal(api, 'job-changes', { name: 'Draft CHROs', config });
  expect(draft.status).toBe('draft');
  // The same search, active, next to it: once it has produced and billed, the draft still has nothing.
  const active = await createSignal(api, 'job-changes', { name: 'Active CHROs', status: 'active', config });
  await settled(stack, active.id);
  const activeLeads = await waitForLeadTotal(api, active.id, 2);
  expect(
    await leadEmailOutcomes(
      stack,
      activeLeads.map((l) => l.contact.lead_id),
    ),
  ).toEqual(['found', 'found']);

  expect(expectStatus(await requestEvaluation(stack, draft.id), 409).error.code).toBe('SIGNAL_NOT_ACTIVE');
  expect(await workflowState(stack, draft.id)).toBeNull();
  expect(expectStatus(await api.get(`/signals/${draft.id}/leads`), 200)).toEqual({
    signalId: draft.id,
    total: 0,
    limit: 25,
    offset: 0,
    hasMore: false,
    leads: [],
  });
  expect(await getSignal(api, draft.id)).toMatchObject({
    status: 'draft',
    leadsToday: 0,
    leadsTotal: 0,
    lastLeadAt: null,
  });
  expect(await allUsage(api, draft.id)).toEqual([]);
  expect(await balanceOf(api)).toBe(40 - 2 * 2.5);

  // Draft → active: from now on each lead is produced and billed.
  expectStatus(await api.patch(`/signals/${draft.id}`, { status: 'active' }), 200);
  await settled(stack, draft.id);
  const draftLeads = await waitForLeadTotal(api, draft.id, 2);
  await leadEmailOutcomes(
    stack,
    draftLeads.map((l) => l.contact.lead_id),
  );
  expect(await balanceOf(api)).toBe(40 - 4 * 2.5);
  expect(sorted((await allUsage(api, draft.id)).map((u) => `${u.operation}:${u.credits}`))).toEqual(
    sorted(['lead:-2', 'lead:-2', 'email_found:-0.5', 'email_found:-0.5']),
  );
});
