import { randomBytes } from 'node:crypto';
import { startStack, type Stack } from '../setup/stack';
import { evaluateNow } from '../setup/evaluation';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * Incremental evaluation (docs/decisions/incremental-evaluation.md) against the real stack with
 * no worker: after its first evaluation a signal reads only what changed, and each kind of
 * change that can make an old event a candidate again reaches production. Each test's people
 * carry a title of its own, so the market-wide signals here match nothing of other files.
 */
const DAY_MS = 86_400_000;

let stack: Stack;
let owner: TestAccount;

const tag = () => `Role${randomBytes(4).toString('hex')}`;
const daysAgo = (days: number) => new Date(stack.services.clock.now().getTime() - days * DAY_MS).toISOString();

async function world(title: string, people: Array<{ id: string; persona?: string; company?: string }>) {
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain, industry, size_band, hq_country_code)
     VALUES ($1, $1, $1, $2, 'Software Development', '51-200', 'US') ON CONFLICT DO NOTHING`,
    [`co-${title}`, `${title.toLowerCase()}.example`],
  );
  for (const p of people) {
    await stack.db.query(
      `INSERT INTO people (id, first_name, last_name, title, persona, company_id, email, country_code)
       VALUES ($1, 'A', 'B', $2, $3, $4, $5, 'US')`,
      [p.id, `${title} lead`, p.persona ?? null, p.company ?? `co-${title}`, `${p.id}@${title.toLowerCase()}.example`],
    );
  }
}

async function jobChange(id: string, title: string, personId: string, daysOld: number): Promise<void> {
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES ($1, 'job_change', $2, $3, $4)`,
    [id, daysAgo(daysOld), `co-${title}`, personId],
  );
}

async function createSignal(title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(`${stack.url}/api/v1/signals/job-changes`, {
    token: owner.apiKey,
    body: { name: title, status: 'active', dailyLeadLimit: 50, config: { customTitles: [title] }, ...extra },
  });
  if (answer.status !== 201) throw new Error(`signal not created: ${answer.text}`);
  return answer.body.id;
}

async function leadEvents(signalId: string): Promise<string[]> {
  const found = await stack.db.query(`SELECT event_id FROM leads WHERE signal_id = $1 ORDER BY event_id`, [signalId]);
  return found.map((row: { event_id: string }) => row.event_id);
}

async function readState(signalId: string) {
  const [row] = await stack.db.query(
    `SELECT evaluated_xid IS NOT NULL AS has_horizon, full_read_at IS NULL AS full_read_done,
       (SELECT count(*)::int FROM signal_backlog b WHERE b.signal_id = s.id) AS backlog
     FROM signals s WHERE id = $1`,
    [signalId],
  );
  return row as { has_horizon: boolean; full_read_done: boolean; backlog: number };
}

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack, { credits: 1000 });
});
afterAll(() => stack?.stop());
afterEach(() => stack.services.clock.reset());

test('after the first evaluation only changes are read: a late arrival with an old date still becomes a lead', async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }, { id: `${title}-p2` }]);
  await jobChange(`${title}-e1`, title, `${title}-p1`, 10);
  const signalId = await createSignal(title);

  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect(await readState(signalId)).toEqual({ has_horizon: true, full_read_done: true, backlog: 0 });

  await jobChange(`${title}-late`, title, `${title}-p2`, 90);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect(await leadEvents(signalId)).toEqual([`${title}-e1`, `${title}-late`].sort());
});

test('candidates the daily cap holds back wait in the backlog and come first the next day', async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }, { id: `${title}-p2` }, { id: `${title}-p3` }]);
  await jobChange(`${title}-old`, title, `${title}-p1`, 30);
  await jobChange(`${title}-mid`, title, `${title}-p2`, 20);
  await jobChange(`${title}-new`, title, `${title}-p3`, 10);
  const signalId = await createSignal(title, { dailyLeadLimit: 1 });

  expect(await evaluateNow(stack, signalId)).toEqual({ produced: 1, deferredBy: 'dailyLeadLimit' });
  expect(await leadEvents(signalId)).toEqual([`${title}-old`]);
  stack.services.clock.advance(DAY_MS);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect(await leadEvents(signalId)).toEqual([`${title}-mid`, `${title}-old`].sort());
  stack.services.clock.advance(DAY_MS);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect((await readState(signalId)).backlog).toBe(0);
});

test('a person edited into the signal makes their old event a lead', async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }]);
  await stack.db.query(`UPDATE people SET title = 'Gardener' WHERE id = $1`, [`${title}-p1`]);
  await jobChange(`${title}-e1`, title, `${title}-p1`, 40);
  const signalId = await createSignal(title);
  expect((await evaluateNow(stack, signalId)).produced).toBe(0);

  await stack.db.query(`UPDATE people SET title = $2 WHERE id = $1`, [`${title}-p1`, `${title} lead`]);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
});

test('a duplicate window that runs out lets the same person through again', async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }]);
  await jobChange(`${title}-first`, title, `${title}-p1`, 20);
  await jobChange(`${title}-second`, title, `${title}-p1`, 10);
  const signalId = await createSignal(title, { duplicateHandling: '7d' });
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  stack.services.clock.advance(3 * DAY_MS);
  expect((await evaluateNow(stack, signalId)).produced).toBe(0);

  stack.services.clock.advance(5 * DAY_MS);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect(await leadEvents(signalId)).toEqual([`${title}-first`, `${title}-second`].sort());
});

test('deleting a suppression entry starts a full read, and the candidate it held back is produced', async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }]);
  await jobChange(`${title}-e1`, title, `${title}-p1`, 15);
  const signalId = await createSignal(title);
  const added = await call(`${stack.url}/api/v1/suppressions`, {
    token: owner.apiKey,
    body: { kind: 'domain', value: `${title.toLowerCase()}.example` },
  });
  expect(added.status).toBe(200);
  const [entry] = added.body.added;
  expect((await evaluateNow(stack, signalId)).produced).toBe(0);
  expect((await readState(signalId)).has_horizon).toBe(true);

  const removed = await call(`${stack.url}/api/v1/suppressions/${entry.id}`, {
    token: owner.apiKey,
    method: 'DELETE',
  });
  expect(removed.status).toBe(204);
  expect((await readState(signalId)).has_horizon).toBe(false);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
});

test('a changed config reads the whole window again', async () => {
  const title = tag();
  const other = tag();
  await world(title, [{ id: `${title}-p1` }]);
  await world(other, [{ id: `${other}-p1` }]);
  await jobChange(`${other}-e1`, other, `${other}-p1`, 25);
  const signalId = await createSignal(title);
  expect((await evaluateNow(stack, signalId)).produced).toBe(0);

  const patched = await call(`${stack.url}/api/v1/signals/${signalId}`, {
    token: owner.apiKey,
    method: 'PATCH',
    body: { config: { customTitles: [title, other] } },
  });
  expect(patched.status).toBe(200);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
  expect(await leadEvents(signalId)).toEqual([`${other}-e1`]);
});

test("CRM records deleted by a sync start a full read of the signals excluding that connection's contacts", async () => {
  const title = tag();
  await world(title, [{ id: `${title}-p1` }]);
  await jobChange(`${title}-e1`, title, `${title}-p1`, 15);
  const [connection] = await stack.db.query(
    `INSERT INTO crm_connections (account_id, provider, access_token_encrypted, status)
     VALUES ($1, $2, 'sealed', 'connected') RETURNING id`,
    [owner.accountId, `hubspot-${title}`],
  );
  const signalId = await createSignal(title);
  await stack.db.query(`UPDATE signals SET crm_exclusions = $2 WHERE id = $1`, [
    signalId,
    { connectionId: connection.id, excludeExistingCrmContacts: true, excludeCrmCompanies: false },
  ]);
  await stack.db.query(
    `INSERT INTO crm_records (connection_id, kind, value, vendor_id) VALUES ($1, 'email', $2, 'v1')`,
    [connection.id, `${title}-p1@${title.toLowerCase()}.example`.toLowerCase()],
  );
  expect((await evaluateNow(stack, signalId)).produced).toBe(0);
  expect((await readState(signalId)).has_horizon).toBe(true);

  await stack.db.query(`DELETE FROM crm_records WHERE connection_id = $1`, [connection.id]);
  expect((await readState(signalId)).has_horizon).toBe(false);
  expect((await evaluateNow(stack, signalId)).produced).toBe(1);
});
