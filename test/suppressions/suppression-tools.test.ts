import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { connectAssistant, toolError, toolOk } from '../mcp/helpers';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The suppression list through the tool server: the same entries and refusals as its REST twins. */
let stack: Stack;
let owner: TestAccount;
let reader: TestAccount;
let assistant: Client;
let readingAssistant: Client;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack);
  reader = await createAccount(stack, { permissions: ['read'], name: 'Reader' });
  assistant = await connectAssistant(stack, owner.apiKey);
  readingAssistant = await connectAssistant(stack, reader.apiKey);
});
afterAll(async () => {
  await assistant?.close();
  await readingAssistant?.close();
  await stack?.stop();
});

test('add, list and delete through the tools read and change what REST does', async () => {
  const added = await toolOk(assistant, 'add_suppressions', {
    entries: [
      { kind: 'domain', value: 'https://Rival.example.com/pricing' },
      { kind: 'email', value: 'not-an-email' },
    ],
  });
  expect(added.added).toEqual([expect.objectContaining({ kind: 'domain', value: 'example.com' })]);
  expect(added.rejected).toEqual([{ index: 1, message: expect.stringContaining('not an email address') }]);

  const listed = await toolOk(assistant, 'list_suppressions', { kind: 'domain' });
  const viaRest = await call(`${stack.url}/api/v1/suppressions?kind=domain`, { token: owner.apiKey });
  expect(listed).toEqual(viaRest.body);
  expect(listed.total).toBe(1);

  await toolOk(assistant, 'delete_suppression', { suppressionId: added.added[0].id });
  expect((await toolOk(assistant, 'list_suppressions', {})).total).toBe(0);
  await toolError(assistant, 'delete_suppression', { suppressionId: added.added[0].id }, 'NOT_FOUND');
});

test('a read-only key may list but not add: the permission is the REST twin’s', async () => {
  expect((await toolOk(readingAssistant, 'list_suppressions', {})).total).toBe(0);
  await toolError(
    readingAssistant,
    'add_suppressions',
    { entries: [{ kind: 'email', value: 'a@b.com' }] },
    'FORBIDDEN',
  );
  const stored = await stack.db.query(`SELECT count(*)::int AS n FROM suppressions WHERE account_id = $1`, [
    reader.accountId,
  ]);
  expect(stored[0].n).toBe(0);
});
