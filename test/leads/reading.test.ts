import { randomUUID } from 'node:crypto';
import type { Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import {
  awayFromMidnight,
  client,
  company,
  createSignal,
  daysAgo,
  evaluateNow,
  event,
  expectStatus,
  getSignal,
  ingest,
  jobChangeData,
  jobChanger,
  settled,
  startLeadsStack,
  uid,
  waitForLeadTotal,
  type Client,
} from './fixtures';

/**
 * Reading leads: `GET /api/v1/signals/{id}/leads` pages (newest first, limit, offset, since),
 * its total, and who may read them. The total without `since` is the signal's own counter,
 * so the first test holds it to the rows production stored.
 */

let stack: Stack;
let owner: TestAccount;
let api: Client;
beforeAll(async () => {
  stack = await startLeadsStack();
  owner = await createAccount(stack, { credits: 1000 });
  api = client(stack, owner);
  awayFromMidnight(stack);
});
afterAll(() => stack?.stop());

const storedCount = async (signalId: string, since?: string): Promise<number> =>
  (
    await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE signal_id = $1 AND created_at >= $2`, [
      signalId,
      since ?? new Date(0),
    ])
  )[0].n;

const page = async (signalId: string, query = '') =>
  expectStatus(await api.get(`/signals/${signalId}/leads${query}`), 200);

test('the total is the number of leads stored: refused repeats and capped candidates count for nothing', async () => {
  const ago = (days: number) => daysAgo(days, stack.services.clock.now().getTime());
  const changers = ['rd-a', 'rd-b', 'rd-c'].map((slug, i) => jobChanger(uid(slug), ago(6 - i), { title: 'CMO' }));
  // The first person changes jobs again: a second event of the same subject, refused by default.
  const again = company(uid('rd-again'));
  const repeat = event(uid('ev-rd-repeat'), 'job_change', ago(2), again.id, {
    personId: changers[0]!.person.id,
    data: jobChangeData('CMO', again.name),
  });
  await ingest(stack, [...changers.flatMap((c) => c.records), again, repeat]);
  const signal = await createSignal(api, 'job-changes', {
    name: 'CMOs',
    status: 'active',
    dailyLeadLimit: 2,
    config: { jobTitles: ['Chief Marketing Officer'] },
  });
  await settled(stack, signal.id);

  const capped = await page(signal.id);
  expect(capped).toMatchObject({ total: 2, hasMore: false });
  expect(capped.leads).toHaveLength(2);
  expect(await storedCount(signal.id)).toBe(2);
  expect((await getSignal(api, signal.id)).leadsTotal).toBe(2);

  expectStatus(await api.patch(`/signals/${signal.id}`, { dailyLeadLimit: 10 }), 200);
  await evaluateNow(stack, signal.id);
  const all = await waitForLeadTotal(api, signal.id, 3);
  expect(await storedCount(signal.id)).toBe(3);
  expect((await page(signal.id, '?limit=1')).total).toBe(3);
  expect(new Set(all.map((l) => l.contact.lead_id)).size).toBe(3);
});

/**
 * Leads written straight into the table (as the benchmark loads them), with chosen times and
 * payload text: two share an instant, so the id decides their order. The signal's counter is
 * raised as production raises it.
 */
async function seededSignal(account: TestAccount, times: string[]) {
  const signal = await createSignal(client(stack, account), 'job-changes', {
    name: 'Seeded',
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  const companyId = uid('co-rd-seed');
  await stack.db.query(`INSERT INTO companies (id, name, name_key) VALUES ($1, 'Seed Co', 'seed co')`, [companyId]);
  const leads: { id: string; at: string; text: string }[] = [];
  for (const [i, at] of times.entries()) {
    const id = randomUUID();
    const eventId = `${companyId}-ev-${i}`;
    // Spacing, key order and escapes as stored: the page must carry this text unchanged.
    const text = `{"signal": {"id": "${signal.id}", "n": ${i}},  "contact": {"lead_id": "${id}", "note": "caf\\u00e9 \\"${i}\\""}, "company": {"name": "Seed Co"}}`;
    await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id) VALUES ($1, 'job_change', $2, $3)`, [
      eventId,
      at,
      companyId,
    ]);
    await stack.db.query(
      `INSERT INTO leads (id, signal_id, account_id, event_id, subject_key, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, signal.id, account.accountId, eventId, `company:${companyId}-${i}`, text, at],
    );
    leads.push({ id, at, text });
  }
  await stack.db.query(`UPDATE signals SET leads_total = leads_total + $2 WHERE id = $1`, [signal.id, times.length]);
  // Newest first; on the same instant, the greater id first.
  leads.sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
  return { signal, leads };
}

const T = [
  '2026-03-01T10:00:00.000Z',
  '2026-03-02T10:00:00.000Z',
  '2026-03-03T10:00:00.000Z',
  '2026-03-03T10:00:00.000Z',
  '2026-03-04T10:00:00.000Z',
];

test('pages newest first, ties broken by id, with limit, offset, hasMore and the stored text of each lead', async () => {
  const { signal, leads } = await seededSignal(owner, T);
  const ids = (p: { leads: { contact: { lead_id: string } }[] }) => p.leads.map((l) => l.contact.lead_id);

  const answer = await api.get(`/signals/${signal.id}/leads`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.text).toBe(
    `{"signalId":"${signal.id}","total":5,"limit":25,"offset":0,"hasMore":false,"leads":[${leads.map((l) => l.text).join(',')}]}`,
  );

  const first = await page(signal.id, '?limit=2');
  expect(first).toMatchObject({ signalId: signal.id, total: 5, limit: 2, offset: 0, hasMore: true });
  expect(ids(first)).toEqual(leads.slice(0, 2).map((l) => l.id));
  const middle = await page(signal.id, '?limit=2&offset=2');
  expect(middle).toMatchObject({ total: 5, offset: 2, hasMore: true });
  expect(ids(middle)).toEqual(leads.slice(2, 4).map((l) => l.id));
  const last = await page(signal.id, '?limit=2&offset=4');
  expect(last).toMatchObject({ total: 5, offset: 4, hasMore: false });
  expect(ids(last)).toEqual([leads[4]!.id]);
  expect(await page(signal.id, '?offset=7')).toEqual({
    signalId: signal.id,
    total: 5,
    limit: 25,
    offset: 7,
    hasMore: false,
    leads: [],
  });
});

test('since keeps leads produced at or after it, and the total counts exactly those', async () => {
  const { signal, leads } = await seededSignal(owner, T);
  for (const since of [
    T[0]!,
    T[2]!,
    '2026-03-03T09:59:59.999Z',
    '2026-03-03T12:00:00+02:00',
    '2026-03-04T10:00:00.001Z',
    '2030-01-01T00:00:00Z',
  ]) {
    const kept = leads.filter((l) => l.at >= new Date(since).toISOString());
    const all = await page(signal.id, `?since=${encodeURIComponent(since)}`);
    expect({ since, total: all.total, ids: all.leads.map((l: any) => l.contact.lead_id) }).toEqual({
      since,
      total: kept.length,
      ids: kept.map((l) => l.id),
    });
    expect(all.total).toBe(await storedCount(signal.id, since));
    const second = await page(signal.id, `?since=${encodeURIComponent(since)}&limit=1&offset=1`);
    expect(second).toMatchObject({ total: kept.length, hasMore: kept.length > 2 });
    expect(second.leads.map((l: any) => l.contact.lead_id)).toEqual(kept.slice(1, 2).map((l) => l.id));
  }
});

test("another account's signal, a deleted one and an unknown one are 404 NOT_FOUND", async () => {
  const { signal } = await seededSignal(owner, T.slice(0, 2));
  const stranger = client(stack, await createAccount(stack, { credits: 10 }));
  for (const query of ['', '?limit=1', `?since=${encodeURIComponent(T[0]!)}`]) {
    const answer = await stranger.get(`/signals/${signal.id}/leads${query}`);
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(answer.text).not.toContain('lead_id');
  }
  for (const id of [randomUUID(), 'not-a-uuid']) {
    expect(expectStatus(await api.get(`/signals/${id}/leads`), 404).error.code).toBe('NOT_FOUND');
  }
  expect((await api.delete(`/signals/${signal.id}`)).status).toBe(204);
  expect(expectStatus(await api.get(`/signals/${signal.id}/leads`), 404).error.code).toBe('NOT_FOUND');
  expect(
    expectStatus(await api.get(`/signals/${signal.id}/leads?since=${encodeURIComponent(T[0]!)}`), 404).error.code,
  ).toBe('NOT_FOUND');
});

test('the tool server’s read (no owner in the query) answers the same page text as REST', async () => {
  const { signal } = await seededSignal(owner, T);
  for (const [query, read] of [
    ['?limit=3&offset=1', { limit: 3, offset: 1 }],
    [`?since=${encodeURIComponent(T[2]!)}`, { since: new Date(T[2]!), limit: 25, offset: 0 }],
  ] as const) {
    const rest = await call(`${stack.url}/api/v1/signals/${signal.id}/leads${query}`, { token: owner.apiKey });
    expect(await stack.services.leads.pageJson(signal.id, read)).toBe(rest.text);
  }
});
