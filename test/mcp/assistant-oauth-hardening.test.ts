import { createHash } from 'node:crypto';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { startStack } from '../setup/stack';
import { createServices } from '../../src/services';
import { createLogger } from '../../src/logger';
import { startApi, type RunningApi } from '../../api/server';
import { company, ingest, person } from '../leads/fixtures';
import { signIn, signUp, useBrowserStack, watchPage } from '../dashboard/browser';
import { callTool, toolServerUrl } from './helpers';
import { AssistantCredentials, assistantTransport, connectWith, startCallback, type Callback } from './assistant-oauth';

/**
 * The assistant authorization server's hardening: one browser shared by two people, tokens
 * kept only as hashes, registration kept in bounds, and its error pages framed as the dashboard's.
 */
const session = useBrowserStack(() =>
  startStack({ env: { STARTER_CREDITS: '20', RATE_LIMIT_PER_SECOND: '100000', ENRICHMENT_LIVE_LATENCY_MS: '0' } }),
);
const acme = company('harden-acme', { employeeCount: 80 });
const jane = person('harden-jane', acme.id, { firstName: 'Jane', lastName: 'Harden', email: 'jane@harden-acme.com' });

let callback: Callback;
const open: Client[] = [];

beforeAll(async () => {
  callback = await startCallback();
  await ingest(session.stack, [acme, jane]);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await callback?.close();
});

const mcpUrl = () => toolServerUrl(session.stack);
const db = () => session.stack.db;

async function memberOf(email: string): Promise<{ memberId: string; accountId: string }> {
  const [row] = await db().query(`SELECT id, account_id FROM members WHERE email = $1`, [email]);
  return { memberId: row.id, accountId: row.account_id };
}
const balanceOf = (accountId: string) => session.stack.services.credits.balance(accountId);
const grantRows = (memberId: string) =>
  db().query(`SELECT client_id, permissions FROM assistant_grants WHERE member_id = $1 AND revoked_at IS NULL`, [
    memberId,
  ]) as Promise<{ client_id: string; permissions: string[] }[]>;

/**
 * The SDK's flow, the person's part in `page` as whoever is signed in there (allowing only
 * `permissions` when given), the code exchanged: a connected assistant and what the browser showed.
 */
async function connectAssistant(
  page: Page,
  credentials: AssistantCredentials,
  permissions?: string[],
): Promise<{ client: Client; shownAs: string; code: string }> {
  await expect(connectWith(mcpUrl(), credentials)).rejects.toBeInstanceOf(UnauthorizedError);
  await page.goto(String(credentials.authorizationUrl));
  await page.waitForSelector('#assistant-name');
  const shownAs = (await page.textContent('#signed-in-as'))!.trim();
  if (permissions)
    for (const box of await page.locator('input[name="permissions"]').all())
      if (!permissions.includes((await box.getAttribute('value'))!)) await box.uncheck();
  await page.click('button[value="allow"]');
  await page.waitForURL((u) => u.href.startsWith(callback.url));
  const code = new URL(page.url()).searchParams.get('code');
  expect(code).toEqual(expect.any(String));
  await assistantTransport(mcpUrl(), credentials).finishAuth(code!);
  const client = await connectWith(mcpUrl(), credentials);
  open.push(client);
  return { client, shownAs, code: code! };
}

/** The same assistant (its registered client id) connecting afresh, as after a host's reset. */
function sameAssistant(credentials: AssistantCredentials, name: string): AssistantCredentials {
  const again = new AssistantCredentials(callback, name);
  again.client = credentials.client;
  return again;
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${session.stack.url}/`);
  await page.click('button:has-text("Sign out")');
  await page.waitForURL(/\/sign-in/);
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const findEmail = { firstName: 'Jane', lastName: 'Harden', domain: 'harden-acme.com' };

describe('two people, one browser', () => {
  test("after a sign-out, the next person's assistant gets the next person's grant, never the first one's", async () => {
    const page = await session.freshPage();
    const watched = watchPage(page);
    await signUp(page, session.stack.url, 'first-person@example.com');
    const first = await memberOf('first-person@example.com');
    const assistant = new AssistantCredentials(callback, 'Shared assistant');
    const firstSignIn = await connectAssistant(page, assistant, ['read']);
    expect(firstSignIn.shownAs).toBe('first-person@example.com');
    expect(await grantRows(first.memberId)).toEqual([
      { client_id: assistant.client!.client_id, permissions: ['read'] },
    ]);

    // Signing out of the dashboard ends the authorization server's sign-in of that person too.
    await signOut(page);
    const [left] = await db().query(
      `SELECT count(*)::int AS n FROM oauth_records WHERE model = 'Session' AND payload->>'accountId' = $1`,
      [first.memberId],
    );
    expect(left.n).toBe(0);

    await signUp(page, session.stack.url, 'second-person@example.com');
    const second = await memberOf('second-person@example.com');
    const again = sameAssistant(assistant, 'Shared assistant');
    const secondSignIn = await connectAssistant(page, again);
    expect(secondSignIn.shownAs).toBe('second-person@example.com');

    // The token is the second person's: their credits are spent, the first person's are not.
    const found = await callTool(secondSignIn.client, 'find_email', findEmail);
    expect(found.isError).toBe(false);
    expect(await balanceOf(second.accountId)).toBe(19.5);
    expect(await balanceOf(first.accountId)).toBe(20);
    // The first person's grant still says what they allowed; the second has their own.
    expect(await grantRows(first.memberId)).toEqual([
      { client_id: assistant.client!.client_id, permissions: ['read'] },
    ]);
    expect(await grantRows(second.memberId)).toEqual([
      { client_id: assistant.client!.client_id, permissions: ['read', 'write', 'enrich'] },
    ]);
    // And the first person's own token still reads only their account.
    const firstBalance = await callTool(firstSignIn.client, 'get_credit_balance');
    expect(firstBalance.body).toMatchObject({ balance: 20 });
    expect(watched.errors).toEqual([]);
  });

  test('a dashboard session that ended without a sign-out: the next person starts over, for an assistant known or new', async () => {
    const page = await session.freshPage();
    await signUp(page, session.stack.url, 'third-person@example.com');
    const third = await memberOf('third-person@example.com');
    const known = new AssistantCredentials(callback, 'Known assistant');
    const thirdSignIn = await connectAssistant(page, known, ['read']);

    // The dashboard session ends as an expiry would (no sign-out); the authorization server's stays.
    await db().query(`UPDATE member_sessions SET revoked_at = now() WHERE member_id = $1`, [third.memberId]);
    await signUp(page, session.stack.url, 'fourth-person@example.com');
    const fourth = await memberOf('fourth-person@example.com');

    // A new assistant right after the switch: no error page, a token of the fourth person's.
    const fresh = new AssistantCredentials(callback, 'New assistant');
    const newSignIn = await connectAssistant(page, fresh);
    expect(newSignIn.shownAs).toBe('fourth-person@example.com');
    expect((await callTool(newSignIn.client, 'find_email', findEmail)).isError).toBe(false);
    expect(await balanceOf(fourth.accountId)).toBe(19.5);

    // The known assistant again: the fourth person's own grant, not the third's widened.
    const knownAgain = await connectAssistant(page, sameAssistant(known, 'Known assistant'));
    expect(knownAgain.shownAs).toBe('fourth-person@example.com');
    expect((await callTool(knownAgain.client, 'find_email', findEmail)).isError).toBe(false);
    expect(await balanceOf(fourth.accountId)).toBe(19);
    expect(await balanceOf(third.accountId)).toBe(20);
    expect(await grantRows(third.memberId)).toEqual([{ client_id: known.client!.client_id, permissions: ['read'] }]);

    // Every assistant listed holds a token.
    const tokenless = await db().query(
      `SELECT g.client_name FROM assistant_grants g WHERE g.member_id = ANY($1) AND NOT EXISTS
         (SELECT 1 FROM oauth_records r WHERE r.grant_id = g.oauth_grant_id AND r.model = 'AccessToken')`,
      [[third.memberId, fourth.memberId]],
    );
    expect(tokenless).toEqual([]);
    expect(await grantRows(fourth.memberId)).toHaveLength(2);
    // The third person's assistant goes on, on the third person's account.
    expect((await callTool(thirdSignIn.client, 'get_credit_balance')).body).toMatchObject({ balance: 20 });
  });

  test('the person signed in before signs in again: their own grant, no second one', async () => {
    const page = await session.freshPage();
    await signUp(page, session.stack.url, 'returning-person@example.com');
    const returning = await memberOf('returning-person@example.com');
    const assistant = new AssistantCredentials(callback, 'Returning assistant');
    await connectAssistant(page, assistant, ['read']);
    await signOut(page);
    expect(await signIn(page, session.stack.url, 'returning-person@example.com')).toBe(303);
    const again = await connectAssistant(page, sameAssistant(assistant, 'Returning assistant'));
    expect(again.shownAs).toBe('returning-person@example.com');
    expect((await callTool(again.client, 'get_credit_balance')).isError).toBe(false);
    expect((await grantRows(returning.memberId)).map((g) => g.permissions)).toEqual([['read', 'write', 'enrich']]);
  });
});

test('tokens and codes are stored only as hashes: nothing read from the table opens /mcp', async () => {
  const page = await session.freshPage();
  await signUp(page, session.stack.url, 'hashed-tokens@example.com');
  const credentials = new AssistantCredentials(callback, 'Hashed');
  const { client, code } = await connectAssistant(page, credentials);
  // A refresh too, so that a rotated refresh token is among the values.
  const first = credentials.saved!;
  const refreshed = await fetch(`${session.stack.url}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: credentials.client!.client_id,
      resource: mcpUrl(),
    }),
  });
  expect(refreshed.status).toBe(200);
  const second = (await refreshed.json()) as { access_token: string; refresh_token: string };
  const held = [code, first.access_token, first.refresh_token!, second.access_token, second.refresh_token];

  const rows: { model: string; id: string; payload: string }[] = await db().query(
    `SELECT model, id, payload::text AS payload FROM oauth_records`,
  );
  for (const value of held)
    expect(rows.filter((r) => r.id === value || r.payload.includes(value)).map((r) => r.model)).toEqual([]);
  // What is there is each value's SHA-256.
  expect(rows.filter((r) => r.model === 'AccessToken' && r.id === sha256(second.access_token))).toHaveLength(1);
  expect(rows.filter((r) => r.model === 'RefreshToken' && r.id === sha256(second.refresh_token))).toHaveLength(1);

  const live = await fetch(mcpUrl(), toolCall(second.access_token));
  expect(live.status).toBe(200);
  for (const stored of rows.filter((r) => r.model === 'AccessToken' || r.model === 'RefreshToken')) {
    const answer = await fetch(mcpUrl(), toolCall(stored.id));
    expect(answer.status).toBe(401);
  }
  expect((await callTool(client, 'get_credit_balance')).isError).toBe(false);
});

describe('registration', () => {
  const registration = (base: string, metadata: Record<string, unknown>) =>
    fetch(`${base}/oauth/reg`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Raw client', token_endpoint_auth_method: 'none', ...metadata }),
    });

  test('a client no one lets in expires after a day; one let in stays', async () => {
    const answer = await registration(session.stack.url, { redirect_uris: [callback.url] });
    expect(answer.status).toBe(201);
    const { client_id: unused } = (await answer.json()) as { client_id: string };
    const expiry = async (clientId: string) =>
      (
        await db().query(
          `SELECT extract(epoch FROM expires_at - now())::int AS left_s FROM oauth_records WHERE model = 'Client' AND id = $1`,
          [clientId],
        )
      )[0]?.left_s as number | null | undefined;
    const left = await expiry(unused);
    expect(left).toBeGreaterThan(86_400 - 60);
    expect(left).toBeLessThanOrEqual(86_400);

    const page = await session.freshPage();
    await signUp(page, session.stack.url, 'registration@example.com');
    const credentials = new AssistantCredentials(callback, 'Let in');
    await connectAssistant(page, credentials);
    expect(await expiry(credentials.client!.client_id)).toBeNull();

    // A day later (as the clock would have it) the unused client is unknown: the page says so, framed as the dashboard's.
    await db().query(
      `UPDATE oauth_records SET expires_at = now() - interval '1 second' WHERE model = 'Client' AND id = $1`,
      [unused],
    );
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: unused,
      redirect_uri: callback.url,
      scope: 'read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const refused = await fetch(`${session.stack.url}/oauth/auth?${params}`, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('invalid_client');
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refused.headers.get('referrer-policy')).toBe('no-referrer');
  });

  describe('in production, throttled per address', () => {
    let production: RunningApi;
    beforeAll(async () => {
      const config = {
        ...session.stack.config,
        NODE_ENV: 'production',
        RATE_LIMIT_STORE: 'postgres' as const,
        ASSISTANT_REGISTRATIONS_PER_HOUR: 5,
      };
      const services = createServices({
        db: db(),
        config,
        logger: createLogger('silent', 'test'),
        temporal: session.stack.temporal,
      });
      production = await startApi(services, 0, '127.0.0.1');
    });
    afterAll(async () => {
      production?.server.closeAllConnections();
      await production?.close();
    });

    test('only https or loopback http redirect URLs, no wildcard host, only `code`; then 429 once the budget is spent', async () => {
      const before = await db().query(`SELECT count(*)::int AS n FROM oauth_records WHERE model = 'Client'`);
      const refusals: [Record<string, unknown>, string][] = [
        [{ redirect_uris: ['http://assistant.example/callback'] }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['https://*.assistant.example/callback'] }, 'invalid_redirect_uri'],
        [
          { redirect_uris: ['https://assistant.example/callback'], response_types: ['code id_token'] },
          'invalid_client_metadata',
        ],
      ];
      for (const [metadata, error] of refusals) {
        const answer = await registration(production.url, metadata);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ error, error_description: expect.any(String) });
      }
      const after = await db().query(`SELECT count(*)::int AS n FROM oauth_records WHERE model = 'Client'`);
      expect(after[0].n).toBe(before[0].n);

      // Loopback http is for native apps (test/mcp/assistant-oauth-production.test.ts refuses it to a web client).
      for (const metadata of [
        { redirect_uris: ['https://assistant.example/callback'] },
        { redirect_uris: ['http://127.0.0.1:33418/callback'], application_type: 'native' },
      ])
        expect((await registration(production.url, metadata)).status).toBe(201);

      const throttled = await registration(production.url, { redirect_uris: ['https://assistant.example/callback'] });
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await throttled.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringContaining('too many client registrations'),
      });
      // Development (the main stack) takes the http redirect URL production refuses.
      expect(
        (await registration(session.stack.url, { redirect_uris: ['http://assistant.example/callback'] })).status,
      ).toBe(201);
    });
  });
});

function toolCall(token: string, name = 'get_credit_balance'): RequestInit {
  return {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  };
}
