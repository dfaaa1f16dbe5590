import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { startStack } from '../setup/stack';
import { createServices } from '../../src/services';
import { createLogger } from '../../src/logger';
import { startApi } from '../../api/server';
import { company, ingest, person, waitFor } from '../leads/fixtures';
import { signUp, tableRows, useBrowserStack, watchPage } from '../dashboard/browser';
import { SERVED_TOOLS, callTool, toolServerUrl } from './helpers';
import {
  AssistantCredentials,
  assistantTransport,
  authorizeInBrowser,
  connectWith,
  pkcePair,
  signInAssistant,
  startCallback,
  type Callback,
} from './assistant-oauth';

/**
 * An assistant that knows only the tool server's URL signs in with OAuth, as the MCP
 * authorization specification has it, through the SDK's own client flow; the browser does the
 * person's part in the dashboard. Then the refusals the RFCs name.
 */
const TOKEN_TTL_S = 4;
const session = useBrowserStack(() =>
  startStack({
    env: {
      ASSISTANT_TOKEN_TTL: `${TOKEN_TTL_S}s`,
      STARTER_CREDITS: '20',
      RATE_LIMIT_PER_SECOND: '100000',
      ENRICHMENT_LIVE_LATENCY_MS: '0',
    },
  }),
);
const acme = company('oauth-acme', { employeeCount: 80 });
const jane = person('oauth-jane', acme.id, { firstName: 'Jane', lastName: 'Oauth', email: 'jane@oauth-acme.com' });

let callback: Callback;
let page: Page;
let accountId: string;
const email = 'assistant-owner@example.com';
const open: Client[] = [];

beforeAll(async () => {
  callback = await startCallback();
  await ingest(session.stack, [acme, jane]);
  page = await session.freshPage();
  await signUp(page, session.stack.url, email);
  const [row] = await session.stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [email]);
  accountId = row.account_id;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await callback?.close();
});

const mcpUrl = () => toolServerUrl(session.stack);
const balance = () => session.stack.services.credits.balance(accountId);

/** The SDK's flow up to the person's part: connecting answers 401, discovery and registration happen, the person is sent to authorize. */
async function startSignIn(credentials: AssistantCredentials): Promise<URL> {
  await expect(connectWith(mcpUrl(), credentials)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(credentials.authorizationUrl).toBeDefined();
  return credentials.authorizationUrl!;
}

async function signedInAssistant(name: string): Promise<{ client: Client; credentials: AssistantCredentials }> {
  const signedIn = await signInAssistant(page, mcpUrl(), callback, name);
  open.push(signedIn.client);
  return signedIn;
}

test('an assistant that knows only the URL signs in, lists the tools, spends credits, refreshes, and is cut off by a revocation in the dashboard', async () => {
  const watched = watchPage(page);
  const credentials = new AssistantCredentials(callback, 'Claude (test)');
  const url = await startSignIn(credentials);
  // What the SDK found and asked for: our issuer, PKCE S256, the /mcp resource, every permission.
  expect(url.origin + url.pathname).toBe(`${session.stack.url}/oauth/auth`);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('resource')).toBe(mcpUrl());
  expect(url.searchParams.get('scope')).toBe('read write enrich');
  expect(credentials.client?.client_id).toEqual(expect.any(String));

  // The person's part: the consent page names the assistant; Allow sends the code back.
  await page.goto(String(url));
  await page.waitForSelector('#assistant-name');
  expect(await page.textContent('#assistant-name')).toBe('Claude (test)');
  expect(await page.locator('input[name="permissions"]:checked').count()).toBe(3);
  await page.click('button[value="allow"]');
  await page.waitForURL((u) => u.href.startsWith(callback.url));
  const answer = new URL(page.url()).searchParams;
  expect(answer.get('iss')).toBe(`${session.stack.url}/oauth`);
  await assistantTransport(mcpUrl(), credentials).finishAuth(answer.get('code')!);
  expect(credentials.saved).toMatchObject({
    token_type: expect.stringMatching(/^bearer$/i),
    refresh_token: expect.any(String),
  });

  const client = await connectWith(mcpUrl(), credentials);
  open.push(client);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...SERVED_TOOLS].sort());

  // A tool that spends credits spends the account's: 20 starter credits, find_email costs 0.5.
  const found = await callTool(client, 'find_email', {
    firstName: 'Jane',
    lastName: 'Oauth',
    domain: 'oauth-acme.com',
  });
  expect(found.isError).toBe(false);
  expect(found.body).toMatchObject({ email: 'jane@oauth-acme.com' });
  expect(await balance()).toBe(19.5);

  // The dashboard lists the grant: who, by whom, what, and its last use.
  await page.goto(`${session.stack.url}/assistants`);
  let rows = await tableRows(page);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.slice(0, 3)).toEqual(['Claude (test)', email, 'read, write, enrich']);
  await waitFor(
    'the last use to be recorded',
    async () => (await session.stack.services.assistantGrants.list(accountId))[0]?.lastUsedAt,
    (lastUsedAt) => lastUsedAt !== null,
  );

  // The access token expires; the SDK refreshes it (a new refresh token too) and the call goes on.
  const first = credentials.saved!;
  await new Promise((resolve) => setTimeout(resolve, (TOKEN_TTL_S + 1) * 1000));
  const expired = await fetch(mcpUrl(), toolCall(first.access_token));
  expect(expired.status).toBe(401);
  expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  const balanceRead = await callTool(client, 'get_credit_balance');
  expect(balanceRead.body).toMatchObject({ balance: 19.5 });
  expect(credentials.saved!.access_token).not.toBe(first.access_token);
  expect(credentials.saved!.refresh_token).not.toBe(first.refresh_token);

  // Revoked in the dashboard: the next call is refused, with the challenge that points at the metadata.
  await page.goto(`${session.stack.url}/assistants`);
  await page.click('button:has-text("Revoke")');
  await page.waitForSelector('text=Assistant revoked');
  rows = await tableRows(page);
  expect(rows).toHaveLength(0);
  const refused = await fetch(mcpUrl(), toolCall(credentials.saved!.access_token));
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toMatch(
    /error="invalid_token", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
  );
  expect(((await refused.json()) as any).error.code).toBe('INVALID_TOKEN');
  // The SDK's refresh is refused too (the grant is gone): it must send the person to sign in again.
  await expect(callTool(client, 'get_credit_balance')).rejects.toBeInstanceOf(UnauthorizedError);
  expect(await balance()).toBe(19.5);
  expect(watched.errors).toEqual([]);
});

test('a person who denies lets nothing in: the assistant gets access_denied and no grant is listed', async () => {
  const credentials = new AssistantCredentials(callback, 'Denied assistant');
  const url = await startSignIn(credentials);
  const answer = await authorizeInBrowser(page, url, callback, { allow: false });
  expect(answer.get('error')).toBe('access_denied');
  expect(answer.get('code')).toBeNull();
  expect(await session.stack.services.assistantGrants.list(accountId)).toEqual([]);
});

test('a person who is signed out signs in first, then consents', async () => {
  const other = await session.freshPage();
  const credentials = new AssistantCredentials(callback, 'Signed-out flow');
  const url = await startSignIn(credentials);
  await other.goto(String(url));
  await other.waitForURL(/\/sign-in\?next=/);
  await other.fill('#email', email);
  await other.fill('#password', 'correct horse battery');
  await other.click('button:has-text("Sign in")');
  await other.waitForSelector('#assistant-name');
  await other.click('button[value="allow"]');
  await other.waitForURL((u) => u.href.startsWith(callback.url));
  await assistantTransport(mcpUrl(), credentials).finishAuth(new URL(other.url()).searchParams.get('code')!);
  const client = await connectWith(mcpUrl(), credentials);
  open.push(client);
  expect((await callTool(client, 'get_credit_balance')).isError).toBe(false);
});

test("an assistant's signal is signed with the account's newest key (none: API_KEY_REQUIRED); keys keep working on the same URL", async () => {
  const { client } = await signedInAssistant('Alongside a key');
  const signal = {
    signalTypeId: 'job_changes',
    name: 'Via OAuth',
    config: { jobTitles: ['Chief Technology Officer'] },
    webhookUrl: `${callback.url}/leads`,
  };
  const refused = await callTool(client, 'create_signal', signal);
  expect(refused.isError).toBe(true);
  expect(refused.body.error.code).toBe('API_KEY_REQUIRED');

  const key = await session.stack.services.apiKeys.create(accountId, { name: 'beside OAuth' });
  const created = await callTool(client, 'create_signal', signal);
  expect(created.isError).toBe(false);
  const [row] = await session.stack.db.query(`SELECT api_key_id FROM signals WHERE id = $1`, [created.body.id]);
  expect(row.api_key_id).toBe(key.id);

  const answer = await fetch(mcpUrl(), toolCall(key.apiKey, 'list_signal_types'));
  expect(answer.status).toBe(200);
});

describe('refusals the RFCs name, each granting nothing', () => {
  interface Registered {
    clientId: string;
  }
  let discovery: Record<string, string>;

  beforeAll(async () => {
    // The root, path-inserted discovery name (RFC 8414) is the one MCP clients try first.
    discovery = (await (
      await fetch(`${session.stack.url}/.well-known/oauth-authorization-server/oauth`)
    ).json()) as Record<string, string>;
    expect(discovery).toMatchObject({
      issuer: `${session.stack.url}/oauth`,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: expect.any(String),
      revocation_endpoint: expect.any(String),
    });
  });

  async function register(): Promise<Registered> {
    const answer = await fetch(discovery.registration_endpoint!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Raw client',
        redirect_uris: [callback.url],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(answer.status).toBe(201);
    return { clientId: ((await answer.json()) as { client_id: string }).client_id };
  }

  function authorizeUrl(client: Registered, challenge: string | null, overrides: Record<string, string> = {}): string {
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: callback.url,
      scope: 'read write enrich',
      resource: mcpUrl(),
      state: 'st-1',
      ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
      ...overrides,
    });
    return `${discovery.authorization_endpoint}?${params}`;
  }

  async function exchange(client: Registered, code: string, verifier: string | null) {
    const answer = await fetch(discovery.token_endpoint!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: client.clientId,
        code,
        ...(verifier === null ? {} : { code_verifier: verifier }),
        redirect_uri: callback.url,
        resource: mcpUrl(),
      }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, string> };
  }

  /** A code the person granted in the browser. */
  async function grantedCode(client: Registered, challenge: string): Promise<string> {
    const answer = await authorizeInBrowser(page, authorizeUrl(client, challenge), callback);
    expect(answer.get('state')).toBe('st-1');
    return answer.get('code')!;
  }

  test('a redirect_uri the client did not register: refused at the server, never redirected to', async () => {
    const client = await register();
    const answer = await fetch(
      authorizeUrl(client, pkcePair().challenge, { redirect_uri: 'http://127.0.0.1:1/elsewhere' }),
      { redirect: 'manual' },
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toContain('invalid_redirect_uri');
  });

  test('no PKCE challenge: invalid_request back at the client, no code', async () => {
    const client = await register();
    const answer = await fetch(authorizeUrl(client, null), { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get('location')!).searchParams;
    expect(back.get('error')).toBe('invalid_request');
    expect(back.get('error_description')).toMatch(/PKCE/);
    expect(back.get('code')).toBeNull();
  });

  test('a token for another resource: invalid_target, no code', async () => {
    const client = await register();
    const answer = await fetch(authorizeUrl(client, pkcePair().challenge, { resource: 'https://other.example/mcp' }), {
      redirect: 'manual',
    });
    const back = new URL(answer.headers.get('location')!).searchParams;
    expect(back.get('error')).toBe('invalid_target');
    expect(back.get('code')).toBeNull();
  });

  test('a wrong or missing PKCE verifier: invalid_grant, no token', async () => {
    const client = await register();
    for (const verifier of [pkcePair().verifier, null]) {
      const code = await grantedCode(client, pkcePair().challenge);
      const answer = await exchange(client, code, verifier);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_grant');
      expect(answer.body.access_token).toBeUndefined();
    }
  });

  test('a replayed code: invalid_grant, and the tokens of its first use are revoked', async () => {
    const client = await register();
    const pkce = pkcePair();
    const code = await grantedCode(client, pkce.challenge);
    const first = await exchange(client, code, pkce.verifier);
    expect(first.status).toBe(200);
    expect((await fetch(mcpUrl(), toolCall(first.body.access_token))).status).toBe(200);

    const replay = await exchange(client, code, pkce.verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await fetch(mcpUrl(), toolCall(first.body.access_token))).status).toBe(401);
  });

  test('an access token for /mcp opens nothing else: the REST API refuses it', async () => {
    const client = await register();
    const pkce = pkcePair();
    const tokens = await exchange(client, await grantedCode(client, pkce.challenge), pkce.verifier);
    const rest = await fetch(`${session.stack.url}/api/v1/credits/balance`, {
      headers: { Authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(rest.status).toBe(401);
  });

  test('a forged or unknown token: 401 invalid_token', async () => {
    const answer = await fetch(mcpUrl(), toolCall('not-a-token-we-issued'));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
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

test("an API restart keeps every sign-in: the assistant's token and its refresh go on working (PostgreSQL holds them)", async () => {
  const { client, credentials } = await signedInAssistant('Across a restart');
  expect((await callTool(client, 'get_credit_balance')).isError).toBe(false);

  // A new process in all but its PID: new services, a new authorization server, the same port and database.
  const port = Number(new URL(session.stack.url).port);
  // As a process that ends: its connections go with it.
  session.stack.api.server.closeAllConnections();
  await session.stack.api.close();
  // Long enough for this process's HTTP clients to see their pooled connections closed.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const services = createServices({
    db: session.stack.db,
    config: session.stack.config,
    logger: createLogger('silent', 'test'),
    temporal: session.stack.temporal,
  });
  const restarted = await startApi(services, port, '127.0.0.1');
  try {
    expect((await fetch(mcpUrl(), toolCall(credentials.saved!.access_token))).status).toBe(200);
    // The host reconnects (its old connection died with the process); the token has expired by now, so it refreshes.
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_TTL_S + 1) * 1000));
    const before = credentials.saved!.refresh_token;
    const reconnected = await connectWith(mcpUrl(), credentials);
    open.push(reconnected);
    expect((await callTool(reconnected, 'get_credit_balance')).isError).toBe(false);
    expect(credentials.saved!.refresh_token).not.toBe(before);
  } finally {
    await restarted.close();
  }
});
