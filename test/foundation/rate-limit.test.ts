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
});
