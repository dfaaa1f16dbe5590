import { startStack, type Stack } from '../setup/stack';
import { openDatabase } from '../../src/db/data-source';
import { runPrepared } from '../../src/db/prepared';

/**
 * Hot reads (src/db/prepared.ts) run on a pool of their own whose sessions use generic plans;
 * TypeORM's connections keep planning each query for its values, and destroying the data
 * source closes both.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(() => stack?.stop());

const planMode = { name: 'test-plan-cache-mode', text: `SELECT current_setting('plan_cache_mode') AS mode` };

test('prepared reads plan generically; TypeORM queries are left to choose', async () => {
  expect(await runPrepared(stack.db, planMode, [])).toEqual([{ mode: 'force_generic_plan' }]);
  expect(await stack.db.query(`SELECT current_setting('plan_cache_mode') AS mode`)).toEqual([{ mode: 'auto' }]);
});

test('json comes back as the stored text only when the statement asks for it', async () => {
  const text = `{"b": 1,  "a": "caf\\u00e9"}`;
  const statement = { name: 'test-json-as-text', text: `SELECT $1::json AS value`, jsonAsText: true };
  expect(await runPrepared(stack.db, statement, [text])).toEqual([{ value: text }]);
  expect(await runPrepared(stack.db, { name: 'test-json-parsed', text: `SELECT $1::json AS value` }, [text])).toEqual([
    { value: { b: 1, a: 'café' } },
  ]);
});

test("destroying the data source closes its prepared reads' connections", async () => {
  const url = new URL(stack.config.DATABASE_URL);
  url.searchParams.set('application_name', 'prepared-reads-close');
  const db = await openDatabase(url.toString(), 2);
  const sessions = async () =>
    (
      await stack.db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'prepared-reads-close'`,
      )
    )[0].n;
  await Promise.all([1, 2, 3].map(() => runPrepared(db, planMode, [])));
  expect(await sessions()).toBeGreaterThanOrEqual(2);
  await db.destroy();
  for (let i = 0; i < 50 && (await sessions()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await sessions()).toBe(0);
});
