import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/logger';
import { openDatabase } from '../../src/db/data-source';
import { createServices } from '../../src/services';
import { startApi, type RunningApi } from '../../api/server';
import type { Stack } from '../setup/stack';
import { createAccount, type Answer } from '../setup/http';
import { client, creditsOf, expectStatus, ingestStore, startEnrichmentStack, type ApiClient } from './fixtures';

const CAP = 10;
const LATENCY_MS = 1500;

let stack: Stack;

beforeAll(async () => {
  stack = await startEnrichmentStack(
    { ENRICHMENT_CONCURRENCY_PER_KEY: String(CAP), ENRICHMENT_LIVE_LATENCY_MS: String(LATENCY_MS) },
    { worker: false },
  );
  await ingestStore(stack);
});
afterAll(() => stack.stop());

interface Timed {
  answer: Answer;
  startedAt: number;
  ms: number;
}

async function timed(request: () => Promise<Answer>): Promise<Timed> {
  const startedAt = Date.now();
  const answer = await request();
  return { answer, startedAt, ms: Date.now() - startedAt };
}

const liveContact = (api: ApiClient) => () =>
  api.get('/enrichment/contact', { email: 'jane.doe@acme.io', freshness: 'live' });

const slotsHeld = async (keyId: string): Promise<number> => {
  const [{ count }] = await stack.db.query(
    `SELECT count(*)::int AS count FROM lookup_slots WHERE key_id = $1 AND expires_at > clock_timestamp()`,
    [keyId],
  );
  return count;
};

/** Samples the key's slots in PostgreSQL every 25 ms while `work` runs; answers the most seen at once. */
async function peakSlots<T>(keyId: string, work: Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await slotsHeld(keyId));
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    return { result: await work, peak };
  } finally {
    running = false;
    await sampler;
  }
}

/**
 * Refused at once, not after waiting for a slot: with its envelope and Retry-After, and (when
 * lookups were served alongside) answered before the first of them finished: an order of
 * events, which a busy machine does not change, rather than a duration.
 */
function expectRefusedAtOnce(refused: Timed[], served: Timed[] = []): void {
  const firstServedEnd = Math.min(...served.map((t) => t.startedAt + t.ms));
  for (const { answer, ms, startedAt } of refused) {
    expect(answer.body.error.code).toBe('TOO_MANY_CONCURRENT_REQUESTS');
    const retryAfter = answer.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(Math.ceil(LATENCY_MS / 1000));
    // Refused, not queued: answered before any served lookup could finish (an order, not a duration).
    if (served.length) expect(startedAt + ms).toBeLessThan(firstServedEnd);
  }
}

/** The most requests whose [start, end] intervals overlap at one instant. */
function maxOverlap(requests: Timed[]): number {
  const edges = requests.flatMap(({ startedAt, ms }) => [
    { at: startedAt, step: 1 },
    { at: startedAt + ms, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let current = 0;
  let most = 0;
  for (const { step } of edges) {
    current += step;
    most = Math.max(most, current);
  }
  return most;
}

describe('per-key cap of slow lookups', () => {
  test('30 simultaneous live lookups from one key: at most 10 run, the rest get 429 at once; another key is unaffected', async () => {
    const busyAccount = await createAccount(stack, { credits: 100 });
    const calmAccount = await createAccount(stack, { credits: 100 });
    const busy = client(stack, busyAccount);
    const calm = client(stack, calmAccount);

    const { result, peak } = await peakSlots(
      busyAccount.keyId,
      Promise.all([
        Promise.all(Array.from({ length: 30 }, () => timed(liveContact(busy)))),
        Promise.all(Array.from({ length: CAP }, () => timed(liveContact(calm)))),
      ]),
    );
    const [busyAnswers, calmAnswers] = result;
    const served = busyAnswers.filter((t) => t.answer.status === 200);
    const refused = busyAnswers.filter((t) => t.answer.status === 429);

    expect(served.length + refused.length).toBe(30);
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThanOrEqual(CAP);
    expect(refused.length).toBeGreaterThanOrEqual(30 - CAP);
    expectRefusedAtOnce(refused, served);
    expect(maxOverlap(served)).toBeLessThanOrEqual(CAP);
    expect(peak).toBeLessThanOrEqual(CAP);
    for (const { answer, ms } of served) {
      expect(answer.body.found).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(LATENCY_MS - 50);
    }

    // The other key's lookups ran at the same time, all of them.
    expect(calmAnswers.map((t) => t.answer.status)).toEqual(Array(CAP).fill(200));

    // Refused lookups cost nothing; every slot is given back.
    expect((await creditsOf(busy)).balance).toBe(100 - served.length);
    expect(await slotsHeld(busyAccount.keyId)).toBe(0);
    expect(await slotsHeld(calmAccount.keyId)).toBe(0);
    expect((await liveContact(busy)()).status).toBe(200);
  });

  test('firmographic lookups share the cap; cached contact lookups are not capped', async () => {
    const account = await createAccount(stack, { credits: 100 });
    const api = client(stack, account);
    const firmographic = () => api.get('/enrichment/firmographic', { domain: 'acme.io' });
    const inFlight = Promise.all(Array.from({ length: CAP }, () => timed(liveContact(api))));
    await waitForSlots(account.keyId, CAP);

    const [overCap, cached] = await Promise.all([
      timed(firmographic),
      timed(() => api.get('/enrichment/contact', { email: 'jane.doe@acme.io' })),
    ]);
    expect(overCap.answer.status).toBe(429);
    expectRefusedAtOnce([overCap]);
    expect(expectStatus(cached.answer, 200).found).toBe(true);
    expect(cached.ms).toBeLessThan(LATENCY_MS);

    expect((await inFlight).map((t) => t.answer.status)).toEqual(Array(CAP).fill(200));
    expect(expectStatus(await firmographic(), 200).found).toBe(true);
  });

  test('the cap holds across two API processes on the same database', async () => {
    const second = await startSecondApi();
    try {
      const account = await createAccount(stack, { credits: 100 });
      const first = client(stack, account);
      const other = client(second.api, account);
      const { result: answers, peak } = await peakSlots(
        account.keyId,
        Promise.all(Array.from({ length: 30 }, (_, i) => timed(liveContact(i % 2 === 0 ? first : other)))),
      );
      const served = answers.filter((t) => t.answer.status === 200);
      const refused = answers.filter((t) => t.answer.status === 429);
      expect(served.length + refused.length).toBe(30);
      expect(served.length).toBeGreaterThan(0);
      expect(served.length).toBeLessThanOrEqual(CAP);
      expect(peak).toBeLessThanOrEqual(CAP);
      expectRefusedAtOnce(refused, served);
      // Both processes refused some: neither had a cap of its own.
      expect(answers.filter((t, i) => i % 2 === 0 && t.answer.status === 429).length).toBeGreaterThan(0);
      expect(answers.filter((t, i) => i % 2 === 1 && t.answer.status === 429).length).toBeGreaterThan(0);

      // Two Enrichment instances (one per process) compete for the same slots too.
      const caller = { keyId: account.keyId, accountId: account.accountId, permissions: ['enrich' as const] };
      const direct = await Promise.allSettled(
        Array.from({ length: 2 * CAP }, (_, i) =>
          (i % 2 === 0 ? stack.services : second.services).enrichment.firmographic(caller, { domain: 'acme.io' }),
        ),
      );
      expect(direct.filter((r) => r.status === 'fulfilled')).toHaveLength(CAP);
      for (const rejection of direct.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect(rejection.reason).toMatchObject({ status: 429, code: 'TOO_MANY_CONCURRENT_REQUESTS' });
      }
    } finally {
      await second.stop();
    }
  });

  test('slots of a process that died expire instead of leaking; a client that hangs up frees its slot at once', async () => {
    const account = await createAccount(stack, { credits: 100 });
    const api = client(stack, account);
    // A crashed process's slots: all of the cap, still live.
    const crashed = Array.from({ length: CAP }, () => randomUUID());
    for (const slotId of crashed) {
      await stack.db.query(
        `INSERT INTO lookup_slots (slot_id, key_id, expires_at) VALUES ($1, $2, now() + interval '1 minute')`,
        [slotId, account.keyId],
      );
    }
    const refused = await timed(liveContact(api));
    expect(refused.answer.status).toBe(429);
    expectRefusedAtOnce([refused]);
    // Once they expire they no longer count.
    await stack.db.query(`UPDATE lookup_slots SET expires_at = now() - interval '1 second' WHERE key_id = $1`, [
      account.keyId,
    ]);
    expect((await liveContact(api)()).status).toBe(200);
    expect(await stack.db.query(`SELECT slot_id FROM lookup_slots WHERE key_id = $1`, [account.keyId])).toEqual([]);

    const hangUp = new AbortController();
    const request = fetch(`${stack.url}/api/v1/enrichment/contact?email=jane.doe%40acme.io&freshness=live`, {
      headers: { Authorization: `Bearer ${account.apiKey}` },
      signal: hangUp.signal,
    }).catch(() => 'hung up');
    await waitForSlots(account.keyId, 1);
    const hungUpAt = Date.now();
    hangUp.abort();
    expect(await request).toBe('hung up');
    await waitForSlots(account.keyId, 0);
    expect(Date.now() - hungUpAt).toBeLessThan(LATENCY_MS / 2);
    // Nothing is charged for a lookup nobody received.
    expect((await creditsOf(api)).charges).toHaveLength(1);
  });
});

async function waitForSlots(keyId: string, count: number): Promise<void> {
  const until = Date.now() + 5_000;
  while ((await slotsHeld(keyId)) !== count) {
    if (Date.now() > until) throw new Error(`the key never held ${count} slots`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A second API process: its own pool, services and rate limiter on the same database. */
async function startSecondApi(): Promise<{
  api: RunningApi;
  services: ReturnType<typeof createServices>;
  stop(): Promise<void>;
}> {
  const db = await openDatabase(stack.config.DATABASE_URL, 5);
  const services = createServices({ db, config: stack.config, logger: createLogger('silent') });
  const api = await startApi(services, 0, '127.0.0.1');
  return {
    api,
    services,
    async stop() {
      await api.close();
      await db.destroy();
    },
  };
}
