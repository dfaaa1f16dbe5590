import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * Issue 31, finding 6: the CSV import checks each line with the JSON route's entry schema (a
 * NUL character or an over-long note is that line's error, not a 500 nor a stored 9 MB note),
 * and an account's list has a limit (SUPPRESSIONS_PER_ACCOUNT) that refuses a call past it
 * whole, in the envelope.
 */
const LIMIT = 5;
let stack: Stack;
let owner: TestAccount;
let capped: TestAccount;

const url = (path = '') => `${stack.url}/api/v1/suppressions${path}`;
const upload = (account: TestAccount, csv: string) =>
  call(url('/import'), { token: account.apiKey, rawBody: csv, headers: { 'Content-Type': 'text/csv' } });
const stored = async (accountId: string): Promise<{ value: string; note: string | null }[]> =>
  stack.db.query(`SELECT value, note FROM suppressions WHERE account_id = $1 ORDER BY value`, [accountId]);

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { SUPPRESSIONS_PER_ACCOUNT: String(LIMIT) } });
  owner = await createAccount(stack, { name: 'Owner' });
  capped = await createAccount(stack, { name: 'Capped' });
});
afterAll(() => stack?.stop());

test('a CSV line with a NUL character or a note over the limit is refused by line; the good lines are stored', async () => {
  const csv = [
    'kind,value,note',
    'domain,good-one.com,fine',
    'domain,nul-note.com,"before\u0000after"',
    `domain,long-note.com,${'n'.repeat(1001)}`,
    'email,nul\u0000@acme.com,',
    'domain,good-two.com,',
  ].join('\n');
  const answer = await upload(owner, csv);
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({
    accepted: 2,
    duplicates: 0,
    rejected: 3,
    errors: [
      { line: 3, message: expect.stringMatching(/^note: .*NUL/) },
      { line: 4, message: expect.stringMatching(/^note: .*1000/) },
      { line: 5, message: expect.stringMatching(/^value: .*NUL/) },
    ],
  });
  expect(await stored(owner.accountId)).toEqual([
    { value: 'good-one.com', note: 'fine' },
    { value: 'good-two.com', note: null },
  ]);
});

test('the JSON route refuses a NUL character with a 422, as it refuses an over-long note', async () => {
  for (const note of ['before\u0000after', 'n'.repeat(1001)]) {
    const answer = await call(url(), { token: owner.apiKey, body: { kind: 'domain', value: 'json-nul.com', note } });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'note' })],
    });
  }
  expect((await stored(owner.accountId)).map((row) => row.value)).not.toContain('json-nul.com');
});

test('an addition past the account limit is refused whole, in the envelope; duplicates take no room', async () => {
  const entries = (names: string[]) => names.map((name) => ({ kind: 'domain', value: `${name}.com` }));
  const first = await call(url(), { token: capped.apiKey, body: entries(['a', 'b', 'c']) });
  expect(first.status).toBe(200);
  expect(first.body.added).toHaveLength(3);

  const overByJson = await call(url(), { token: capped.apiKey, body: entries(['d', 'e', 'f']) });
  expect(overByJson.status).toBe(409);
  expect(overByJson.body).toEqual({
    error: {
      code: 'SUPPRESSION_LIMIT_REACHED',
      message: expect.stringContaining(`at most ${LIMIT} entries`),
      limit: LIMIT,
      entries: 3,
      room: 2,
    },
  });
  const overByCsv = await upload(capped, 'kind,value,note\ndomain,d.com,\ndomain,e.com,\ndomain,f.com,\n');
  expect(overByCsv.status).toBe(409);
  expect(overByCsv.body.error).toMatchObject({ code: 'SUPPRESSION_LIMIT_REACHED', entries: 3, room: 2 });
  expect(await stored(capped.accountId)).toHaveLength(3);

  // Up to the limit is fine, and once full, a duplicate is still an answer, not a refusal.
  const upToLimit = await upload(capped, 'kind,value,note\ndomain,d.com,\ndomain,e.com,\ndomain,a.com,\n');
  expect(upToLimit.body).toMatchObject({ accepted: 2, duplicates: 1, rejected: 0 });
  const duplicate = await call(url(), { token: capped.apiKey, body: { kind: 'domain', value: 'b.com' } });
  expect(duplicate.status).toBe(200);
  expect(duplicate.body.duplicates).toHaveLength(1);
  const oneMore = await call(url(), { token: capped.apiKey, body: { kind: 'domain', value: 'g.com' } });
  expect(oneMore.status).toBe(409);
  expect(await stored(capped.accountId)).toHaveLength(LIMIT);
});
