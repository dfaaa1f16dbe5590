import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { connectAssistant, toolError, toolOk } from '../mcp/helpers';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** Competitors per account: REST with the API's envelope, paging and permissions, and the tool twins. */
let stack: Stack;
let owner: TestAccount;
let other: TestAccount;
let reader: TestAccount;
let assistant: Client;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack);
  other = await createAccount(stack, { name: 'Other' });
  reader = await createAccount(stack, { permissions: ['read'], name: 'Reader' });
  assistant = await connectAssistant(stack, owner.apiKey);
});
afterAll(async () => {
  await assistant?.close();
  await stack?.stop();
});

const url = (path = '') => `${stack.url}/api/v1/competitors${path}`;

test('create, page, get, patch and delete; the domain is kept registrable and handles lower case', async () => {
  const created = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: {
      name: 'Rival Labs',
      domain: 'https://www.Rival.example.co.uk/pricing',
      blueskyHandles: ['@Rival.Bsky.Social'],
    },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    name: 'Rival Labs',
    domain: 'example.co.uk',
    blueskyHandles: ['rival.bsky.social'],
  });
  const second = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: { name: 'Other Co', domain: 'other.io' },
  });
  expect(second.status).toBe(201);

  const page = await call(url('?limit=1'), { token: owner.apiKey });
  expect(page.status).toBe(200);
  expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
  expect(page.body.items).toEqual([expect.objectContaining({ name: 'Other Co' })]);

  const got = await call(url(`/${created.body.id}`), { token: owner.apiKey });
  expect(got.body).toEqual(created.body);

  const patched = await call(url(`/${created.body.id}`), {
    method: 'PATCH',
    token: owner.apiKey,
    body: { blueskyHandles: ['rival.example.co.uk', 'rivalhq.bsky.social'] },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({
    name: 'Rival Labs',
    blueskyHandles: ['rival.example.co.uk', 'rivalhq.bsky.social'],
  });

  // Another account neither sees nor changes it.
  expect((await call(url(`/${created.body.id}`), { token: other.apiKey })).status).toBe(404);
  expect((await call(url(), { token: other.apiKey })).body.total).toBe(0);

  expect((await call(url(`/${second.body.id}`), { method: 'DELETE', token: owner.apiKey })).status).toBe(204);
  const gone = await call(url(`/${second.body.id}`), { method: 'DELETE', token: owner.apiKey });
  expect(gone.status).toBe(404);
  expect(gone.body.error.code).toBe('NOT_FOUND');
});

test('bad input is refused in the envelope and changes nothing', async () => {
  const before = await stack.db.query(`SELECT count(*)::int AS n FROM competitors`);
  const noDomain = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: { name: 'X', domain: 'not a domain' },
  });
  expect(noDomain.status).toBe(422);
  expect(noDomain.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
  const badHandle = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: { name: 'X', domain: 'x.com', blueskyHandles: ['not a handle'] },
  });
  expect(badHandle.status).toBe(422);
  const unknownField = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: { name: 'X', domain: 'x.com', linkedin: 'no' },
  });
  expect(unknownField.status).toBe(422);
  await call(url(), { method: 'POST', token: owner.apiKey, body: { name: 'Dup', domain: 'dup.com' } });
  const duplicate = await call(url(), {
    method: 'POST',
    token: owner.apiKey,
    body: { name: 'Dup 2', domain: 'www.dup.com' },
  });
  expect(duplicate.status).toBe(409);
  expect(duplicate.body.error.code).toBe('COMPETITOR_EXISTS');
  const after = await stack.db.query(`SELECT count(*)::int AS n FROM competitors`);
  expect(after[0].n).toBe(before[0].n + 1);

  const forbidden = await call(url(), { method: 'POST', token: reader.apiKey, body: { name: 'R', domain: 'r.com' } });
  expect(forbidden.status).toBe(403);
  expect((await call(url(), { token: reader.apiKey })).status).toBe(200);
  expect((await call(url())).status).toBe(401);
});

test('the tools change and read what REST does, with the same refusals', async () => {
  const made = await toolOk(assistant, 'create_competitor', { name: 'Tooled', domain: 'tooled.dev' });
  expect(made).toMatchObject({ name: 'Tooled', domain: 'tooled.dev', blueskyHandles: [] });
  const changed = await toolOk(assistant, 'update_competitor', {
    competitorId: made.id,
    blueskyHandles: ['tooled.dev'],
  });
  expect(changed.blueskyHandles).toEqual(['tooled.dev']);
  expect(await toolOk(assistant, 'get_competitor', { competitorId: made.id })).toEqual(
    (await call(url(`/${made.id}`), { token: owner.apiKey })).body,
  );
  const listed = await toolOk(assistant, 'list_competitors', { limit: 100 });
  expect(listed).toEqual((await call(url('?limit=100'), { token: owner.apiKey })).body);
  await toolError(assistant, 'create_competitor', { name: 'Again', domain: 'tooled.dev' }, 'COMPETITOR_EXISTS');
  await toolOk(assistant, 'delete_competitor', { competitorId: made.id });
  await toolError(assistant, 'get_competitor', { competitorId: made.id }, 'NOT_FOUND');
});
