import type { QueryRunner } from 'typeorm';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type Answer, type TestAccount } from '../setup/http';
import { createServices } from '../../src/services';
import { createLogger } from '../../src/logger';
import { startApi, type RunningApi } from '../../api/server';

/**
 * Cost previews cannot starve the API (issue 31, finding 4): at most PREVIEW_CONCURRENCY_PER_KEY
 * previews per key run at once (429 beyond), previews read on a pool of their own, and a
 * preview's statement stops at PREVIEW_STATEMENT_TIMEOUT. Previews are held in flight by a
 * test transaction that locks `events` (every preview reads it; no other request here does),
 * so "in flight" is a fact the test controls, not a matter of timing.
 */
const CAP = 2;
const ANALYSIS_POOL = 2;
/** How long a check waits for something that must happen, before it calls the run stuck. */
const STUCK_AFTER_MS = 20_000;

let stack: Stack;
let previewers: TestAccount[];
let other: TestAccount;

const body = { signalTypeId: 'job_changes', config: { jobTitles: ['Chief Technology Officer'] } };
const preview = (account: TestAccount) => call(`${stack.url}/api/v1/signals/preview`, { token: account.apiKey, body });

/** A request's answer, and whether it has come yet. */
function tracked(request: Promise<Answer>) {
  const entry: { answer?: Answer; done: Promise<Answer> } = { done: request };
  void request.then((answer) => (entry.answer = answer));
  return entry;
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + STUCK_AFTER_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`stuck: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Holds every reader of `events` until released: the previews stay in flight meanwhile. */
async function lockEvents(): Promise<QueryRunner> {
  const runner = stack.db.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(`LOCK TABLE events IN ACCESS EXCLUSIVE MODE`);
  return runner;
}

async function release(runner: QueryRunner): Promise<void> {
  await runner.commitTransaction();
  await runner.release();
}

const waitingOnLocks = async () =>
  (
    await stack.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'relation'`,
    )
  )[0].n as number;

beforeAll(async () => {
  stack = await startStack({
    worker: false,
    env: {
      PREVIEW_CONCURRENCY_PER_KEY: String(CAP),
      ANALYSIS_POOL_SIZE: String(ANALYSIS_POOL),
      PREVIEW_STATEMENT_TIMEOUT: '60s',
    },
  });
  previewers = [];
  for (const name of ['Previewer A', 'Previewer B', 'Previewer C'])
    previewers.push(await createAccount(stack, { permissions: ['read'], name }));
  other = await createAccount(stack, { name: 'Other' });
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain) VALUES ('iso_acme', 'Acme', 'acme', 'acme-iso.com')`,
  );
  await stack.db.query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id)
    VALUES ('iso_ada', 'Ada', 'A', 'CTO', 'Chief Technology Officer', 'iso_acme')`);
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id)
    VALUES ('iso_e1', 'job_change', now() - interval '3 days', 'iso_acme', 'iso_ada')`);
}, 120_000);
afterAll(() => stack?.stop());

test('previews beyond the per-key cap get 429 at once; another account is answered while previews saturate their pool', async () => {
  const [a, b, c] = previewers;
  const lock = await lockEvents();
  let released = false;
  try {
    const fromA = Array.from({ length: CAP + 4 }, () => tracked(preview(a)));
    // The cap refuses the rest at once, while the first CAP of A's still wait on the lock.
    await until('the previews over the cap to be refused', () => fromA.filter((p) => p.answer).length === 4);
    const refused = fromA.filter((p) => p.answer).map((p) => p.answer as Answer);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({ code: 'TOO_MANY_CONCURRENT_REQUESTS', limit: CAP });
      expect(answer.body.error.message).toContain('cost previews');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Two more keys fill their caps: 6 previews in flight, more than the analysis pool holds.
    const fromOthers = [b, b, c, c].map((account) => tracked(preview(account)));
    const inFlight = [...fromA.filter((p) => !p.answer), ...fromOthers];
    expect(inFlight).toHaveLength(3 * CAP);
    await until('the analysis pool to be taken by previews waiting on the lock', async () => {
      return (await waitingOnLocks()) >= ANALYSIS_POOL;
    });

    // Another account's plain requests are answered meanwhile, on the API's own connections.
    const list = await call(`${stack.url}/api/v1/signals`, { token: other.apiKey });
    const balance = await call(`${stack.url}/api/v1/credits/balance`, { token: other.apiKey });
    expect(list.status).toBe(200);
    expect(balance.status).toBe(200);
    // ... while every preview is still in flight.
    expect(inFlight.filter((p) => p.answer)).toHaveLength(0);
    expect(await waitingOnLocks()).toBe(ANALYSIS_POOL);

    await release(lock);
    released = true;
    for (const p of inFlight) {
      const answer = await p.done;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ windowDays: 30, matchingEvents: 1, expectedLeads: 1 });
    }
    // The slots are given back: A previews again.
    expect((await preview(a)).status).toBe(200);
  } finally {
    if (!released) await release(lock);
  }
});

describe('with a short statement time-out', () => {
  let shortTimeout: RunningApi;
  beforeAll(async () => {
    const services = createServices({
      db: stack.db,
      config: { ...stack.config, PREVIEW_STATEMENT_TIMEOUT: 300 },
      logger: createLogger('silent', 'test'),
      temporal: stack.temporal,
    });
    shortTimeout = await startApi(services, 0, '127.0.0.1');
  });
  afterAll(async () => {
    shortTimeout?.server.closeAllConnections();
    await shortTimeout?.close();
  });

  test('a preview over it answers PREVIEW_TIMEOUT in the envelope and stores nothing', async () => {
    const [a] = previewers;
    const signalsBefore = (await stack.db.query(`SELECT count(*)::int AS n FROM signals`))[0].n;
    const lock = await lockEvents();
    let answer: Answer | 'stuck';
    try {
      answer = await Promise.race([
        call(`${shortTimeout.url}/api/v1/signals/preview`, { token: a.apiKey, body }),
        new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), STUCK_AFTER_MS)),
      ]);
    } finally {
      await release(lock);
    }
    expect(answer).not.toBe('stuck');
    const stopped = answer as Answer;
    expect(stopped.status).toBe(504);
    expect(stopped.body).toEqual({
      error: { code: 'PREVIEW_TIMEOUT', message: expect.stringContaining('stopped'), limitMs: 300 },
    });
    expect((await stack.db.query(`SELECT count(*)::int AS n FROM signals`))[0].n).toBe(signalsBefore);
    // The slot went back with it, and without the lock the same preview answers.
    expect((await call(`${shortTimeout.url}/api/v1/signals/preview`, { token: a.apiKey, body })).status).toBe(200);
  });
});
