import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * Issue 38, item 6: errors that tell what is wrong and what is allowed, and refused input that
 * changes nothing: a union's field named, a body without JSON's Content-Type, unknown query
 * parameters, one message for a number over its limit, a close industry suggested.
 */
let stack: Stack;
let account: TestAccount;

const api = (path: string, init: Parameters<typeof call>[1] = {}) =>
  call(`${stack.url}/api/v1${path}`, { token: account.apiKey, ...init });
const stored = async (table: 'suppressions' | 'signals') =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [account.accountId]))[0]
    .n as number;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  account = await createAccount(stack, { credits: 100 });
});
afterAll(() => stack?.stop());

test('an id in the path that PostgreSQL cannot hold (a NUL, a lone surrogate) names no resource: 404, as an unknown id', async () => {
  for (const id of ['acme%00co', '%ED%A0%80acme', 'acme%00']) {
    const answer = await api(`/companies/${id}/score`);
    expect([answer.status, answer.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  }
  expect((await api('/companies/no-such-company/score')).status).toBe(404);
});

test('a suppression of an unknown kind names the field and the allowed kinds', async () => {
  const answer = await api('/suppressions', { body: { kind: 'phone', value: '+1 555 0100' } });
  expect(answer.status).toBe(422);
  expect(answer.body.error.code).toBe('VALIDATION_ERROR');
  expect(answer.body.error.details).toEqual([
    { field: 'kind', message: expect.stringMatching(/"email".*"domain".*"company_url"/) },
  ]);
  // In a list, the entry's index is part of the field.
  const listed = await api('/suppressions', {
    body: [
      { kind: 'email', value: 'a@acme.com' },
      { kind: 'fax', value: 'x' },
    ],
  });
  expect(listed.status).toBe(422);
  expect(listed.body.error.details).toEqual([{ field: '1.kind', message: expect.stringContaining('"company_url"') }]);
  expect(await stored('suppressions')).toBe(0);
});

test('a JSON body sent without Content-Type, or as text, is refused with 415 and what to send', async () => {
  const body = new TextEncoder().encode(JSON.stringify({ kind: 'email', value: 'ada@acme.com' }));
  const bare = await fetch(`${stack.url}/api/v1/suppressions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.apiKey}` },
    body,
  });
  expect(bare.status).toBe(415);
  expect(await bare.json()).toEqual({
    error: {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message:
        'The body is read as JSON only: send it with "Content-Type: application/json" (no Content-Type was sent)',
    },
  });
  const text = await api('/suppressions', {
    rawBody: JSON.stringify({ kind: 'email', value: 'ada@acme.com' }),
    headers: { 'Content-Type': 'text/plain' },
  });
  expect(text.status).toBe(415);
  expect(text.body.error.message).toContain('got "text/plain"');
  expect(await stored('suppressions')).toBe(0);

  // With the header (charset too), the same body is taken; a bodiless POST still needs none.
  const taken = await api('/suppressions', {
    rawBody: JSON.stringify({ kind: 'email', value: 'ada@acme.com' }),
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
  expect(taken.status).toBe(200);
  expect(await stored('suppressions')).toBe(1);
});

test('unknown query parameters are refused as unknown body fields are, naming what the route takes', async () => {
  const misspelt = await api('/people/search?personas=Chief%20Technology%20Officer');
  expect(misspelt.status).toBe(400);
  expect(misspelt.body.error.code).toBe('INVALID_REQUEST');
  expect(misspelt.body.error.message).toMatch(/^Unknown query parameter "personas"; this route takes .*"jobTitles"/);
  expect(misspelt.body.error.details).toEqual([{ field: 'personas', message: expect.stringContaining('"jobTitles"') }]);

  const none = await api('/credits/balance?verbose=1');
  expect(none.status).toBe(400);
  expect(none.body.error.message).toBe('Unknown query parameter "verbose"; this route takes none');

  // The spec's own parameters still work.
  expect((await api('/people/search?jobTitles=Chief%20Technology%20Officer&limit=5')).status).toBe(200);
  expect((await api('/signals?status=active&signalTypeId=job_changes&createdByThisKey=true&limit=5')).status).toBe(200);
});

test('a number far over its limit gets one message, with the limit', async () => {
  const answer = await api('/signals/job-changes', {
    body: { name: 'Huge', config: { jobTitles: ['Chief Technology Officer'] }, dailyLeadLimit: 1e300 },
  });
  expect(answer.status).toBe(422);
  expect(answer.body.error.details).toEqual([{ field: 'dailyLeadLimit', message: expect.stringContaining('999999') }]);
  expect(await stored('signals')).toBe(0);
});

test('an unknown industry is told the closest known name first', async () => {
  const answer = await api('/signals/job-changes', {
    body: { name: 'Software', config: { jobTitles: ['Chief Technology Officer'], industryFilters: ['Softwar'] } },
  });
  expect(answer.status).toBe(201);
  const warning = answer.body.warnings.find((w: { code: string }) => w.code === 'UNKNOWN_INDUSTRY');
  expect(warning.message).toContain('Did you mean "Softwar" → "Software Development"?');
});
