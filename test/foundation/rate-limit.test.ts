import { RequestRateLimit } from '../../api/middleware/rate-limit';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { RATE_LIMIT_PER_SECOND: '5' } });
});
afterAll(() => stack.stop());

describe('per-key rate limit', () => {
  test("a key over its budget gets 429 RATE_LIMITED with Retry-After: 1; another key's burst is unaffected", async () => {
    const busy = await createAccount(stack);
    const calm = await createAccount(stack);
    const balance = (token: string) => call(`${stack.url}/api/v1/credits/balance`, { token });
    const burst = await Promise.all(Array.from({ length: 12 }, () => balance(busy.apiKey)));
    const calmAnswer = await balance(calm.apiKey);

    const limited = burst.filter((a) => a.status === 429);
    expect(burst.filter((a) => a.status === 200)).toHaveLength(5);
    expect(limited).toHaveLength(7);
    for (const answer of limited) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(calmAnswer.status).toBe(200);

    await new Promise((r) => setTimeout(r, 1100));
    expect((await balance(busy.apiKey)).status).toBe(200);
  });

  test('with the PostgreSQL store, two API processes share one budget per key', async () => {
    const first = await RequestRateLimit.create({ perSecond: 3, store: 'postgres', db: stack.db });
    const second = await RequestRateLimit.create({ perSecond: 3, store: 'postgres', db: stack.db });
    await first.consume('shared-key');
    await first.consume('shared-key');
    await second.consume('shared-key');
    await expect(second.consume('shared-key')).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    await expect(first.consume('shared-key')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(first.consume('other-key')).resolves.toBeUndefined();
  });

  /**
   * A client that spends its budget at the end of one second and again at the start of the
   * next: fixed one-second windows let about twice the budget through within a few hundred
   * milliseconds. The sliding window never lets more than the budget through in any second.
   */
  test.each(['memory', 'postgres'] as const)(
    'no second holds more than the budget, across any boundary (%s store)',
    async (store) => {
      const limit = await RequestRateLimit.create({ perSecond: 100, store, db: stack.db });
      const key = `boundary-${store}`;
      // When each accepted request was sent and answered: the limiter saw it in between.
      const accepted: { sent: number; answered: number }[] = [];
      const attempt = async () => {
        const sent = Date.now();
        try {
          await limit.consume(key);
          accepted.push({ sent, answered: Date.now() });
        } catch (err) {
          expect(err).toMatchObject({ code: 'RATE_LIMITED' });
        }
      };
      const started = Date.now();
      await attempt(); // opens a fixed window, if the limiter used them
      await new Promise((r) => setTimeout(r, 850));
      await Promise.all(Array.from({ length: 99 }, attempt)); // the rest of that window's budget
      await new Promise((r) => setTimeout(r, Math.max(0, started + 1_050 - Date.now())));
      await Promise.all(Array.from({ length: 100 }, attempt)); // just after the fixed window would end

      expect(accepted.length).toBeGreaterThanOrEqual(100);
      // Requests sent at or after `from` and answered before `from` + 1 s were surely seen within one second.
      const mostInASecond = Math.max(
        ...accepted.map(
          ({ sent: from }) => accepted.filter((other) => other.sent >= from && other.answered < from + 1_000).length,
        ),
      );
      expect(mostInASecond).toBeLessThanOrEqual(100);

      // A second after the second burst, the budget is whole again.
      await new Promise((r) => setTimeout(r, 1_100));
      const before = accepted.length;
      await Promise.all(Array.from({ length: 100 }, attempt));
      expect(accepted.length - before).toBe(100);
    },
  );
});
