import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { startStack } from '../setup/stack';
import { call } from '../setup/http';
import { signUp, useBrowserStack } from '../dashboard/browser';
import { toolError, toolOk, toolServerUrl } from './helpers';
import { signInAssistant, startCallback, type Callback } from './assistant-oauth';

/** An assistant signed in with OAuth is one caller, as a key is: a budget of its own, the REST limit per second. */
const session = useBrowserStack(() => startStack({ env: { RATE_LIMIT_PER_SECOND: '3', STARTER_CREDITS: '10' } }));
let callback: Callback;
let page: Page;
const open: Client[] = [];

beforeAll(async () => {
  callback = await startCallback();
  page = await session.freshPage();
  await signUp(page, session.stack.url, 'limited@example.com');
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await callback?.close();
});

const freshWindow = () => new Promise((resolve) => setTimeout(resolve, 1100));

test("a grant spends the REST rate limit per second, and its budget is neither another grant's nor a key's", async () => {
  const first = await signInAssistant(page, toolServerUrl(session.stack), callback, 'First');
  const second = await signInAssistant(page, toolServerUrl(session.stack), callback, 'Second');
  open.push(first.client, second.client);
  const [{ account_id: accountId }] = await session.stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [
    'limited@example.com',
  ]);
  const key = await session.stack.services.apiKeys.create(accountId, { name: 'beside' });

  await freshWindow();
  for (let i = 0; i < 3; i++) expect(await toolOk(first.client, 'get_credit_balance')).toEqual({ balance: 10 });
  const refused = await toolError(first.client, 'get_credit_balance', {}, 'RATE_LIMITED');
  expect(refused.retryAfterSeconds).toBe(1);
  // The same second: the other grant and the key still have their whole budget.
  expect(await toolOk(second.client, 'get_credit_balance')).toEqual({ balance: 10 });
  expect((await call(`${session.stack.url}/api/v1/credits/balance`, { token: key.apiKey })).status).toBe(200);

  await freshWindow();
  expect(await toolOk(first.client, 'get_credit_balance')).toEqual({ balance: 10 });
});
