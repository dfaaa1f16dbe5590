import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { callTool, connectAssistant, SERVED_TOOLS, toolError, toolOk, toolServerUrl } from './helpers';

/**
 * The tool server as a protocol endpoint: who may connect, what it lists, how it refuses.
 * RATE_LIMIT_PER_SECOND is 5 here so that a tool call and REST calls visibly share one budget.
 */
let stack: Stack;
let account: TestAccount;
let assistant: Client;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { RATE_LIMIT_PER_SECOND: '5' } });
  account = await createAccount(stack, { credits: 100 });
  assistant = await connectAssistant(stack, account.apiKey);
});
afterAll(async () => {
  await assistant?.close();
  await stack?.stop();
});

/** Lets the key's one-second rate window pass, so each test starts with a full budget. */
const freshWindow = () => new Promise((r) => setTimeout(r, 1100));

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const postToToolServer = (headers: Record<string, string>) =>
  call(toolServerUrl(stack), {
    method: 'POST',
    body: initialize,
    headers: { Accept: 'application/json, text/event-stream', ...headers },
  });

describe('connecting', () => {
  test('lists the 24 tools of the specification, the cost preview and the three of the suppression list, each with a description and an object input schema', async () => {
    const { tools } = await assistant.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...SERVED_TOOLS].sort());
    for (const tool of tools) {
      expect({ name: tool.name, description: (tool.description ?? '').length > 20 }).toEqual({
        name: tool.name,
        description: true,
      });
      expect(tool.inputSchema.type).toBe('object');
    }
  });

  test('tools that spend credits state their price in their description', async () => {
    const { tools } = await assistant.listTools();
    const description = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
    for (const name of ['create_signal', 'resume_signal', 'update_signal']) {
      expect(description(name)).toContain('2 credits');
      expect(description(name)).toContain('+0.5 per email found');
      expect(description(name)).toContain('3 (account watchlist)');
    }
    expect(description('enrich_contact')).toMatch(/1 credit/);
    expect(description('find_email')).toMatch(/0\.5 credit/);
    expect(description('start_phone_lookup')).toMatch(/5 credits/);
    expect(description('enrich_company')).toMatch(/0\.5 credit/);
  });

  test('without a key: 401 with a Bearer challenge naming the resource metadata, and the error envelope', async () => {
    const answer = await postToToolServer({});
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(
      /^Bearer realm="intent-leads", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="read write enrich"$/,
    );

    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1];
    const metadata = await call(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      resource: toolServerUrl(stack),
      authorization_servers: [`${stack.url}/oauth`],
      scopes_supported: ['read', 'write', 'enrich'],
      bearer_methods_supported: ['header'],
    });
  });

  test('with an unknown key: 401 INVALID_API_KEY, challenge with error="invalid_token"', async () => {
    const answer = await postToToolServer({ Authorization: 'Bearer USR_not-a-real-key' });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_API_KEY');
    expect(answer.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="intent-leads", error="invalid_token", resource_metadata="/,
    );
  });

  test('the SDK client without a key cannot connect', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(toolServerUrl(stack)))),
    ).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('UNAUTHORIZED'),
    });
  });

  test('a revoked key is refused', async () => {
    const other = await createAccount(stack);
    await stack.services.apiKeys.revoke(other.keyId);
    const answer = await postToToolServer({ Authorization: `Bearer ${other.apiKey}` });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_API_KEY');
  });

  test('stateless: GET (no stream to open) answers 405 with Allow: POST', async () => {
    const answer = await call(toolServerUrl(stack), {
      token: account.apiKey,
      headers: { Accept: 'text/event-stream' },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('permissions', () => {
  test('a read-only key reads through tools but cannot call create_signal (FORBIDDEN, like its REST twin)', async () => {
    await freshWindow();
    const reader = await createAccount(stack, { credits: 100, permissions: ['read'] });
    const readOnly = await connectAssistant(stack, reader.apiKey);
    try {
      expect(await toolOk(readOnly, 'list_signals')).toMatchObject({ signals: [], total: 0 });
      const error = await toolError(
        readOnly,
        'create_signal',
        { signalTypeId: 'job_changes', name: 'Not allowed', config: { jobTitles: ['Chief Technology Officer'] } },
        'FORBIDDEN',
      );
      expect(error.message).toContain('"write"');
      const rest = await call(`${stack.url}/api/v1/signals/job-changes`, {
        token: reader.apiKey,
        body: { name: 'Not allowed', config: { jobTitles: ['Chief Technology Officer'] } },
      });
      expect(rest.status).toBe(403);
      expect(rest.body.error.code).toBe('FORBIDDEN');
      // Nothing was created by either.
      expect((await toolOk(readOnly, 'list_signals')).total).toBe(0);
    } finally {
      await readOnly.close();
    }
  });
});

describe('rate limit shared with REST', () => {
  const restBalance = () => call(`${stack.url}/api/v1/credits/balance`, { token: account.apiKey });

  test('5 REST calls, then a tool call in the same second is refused with RATE_LIMITED and retryAfterSeconds 1', async () => {
    await freshWindow();
    const answers = await Promise.all(Array.from({ length: 5 }, restBalance));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const error = await toolError(assistant, 'get_credit_balance', {}, 'RATE_LIMITED');
    expect(error.retryAfterSeconds).toBe(1);

    await freshWindow();
    expect(await toolOk(assistant, 'get_credit_balance')).toEqual({ balance: 100 });
  });

  test('5 tool calls, then a REST call in the same second is refused with 429', async () => {
    await freshWindow();
    for (let i = 0; i < 5; i++) expect(await toolOk(assistant, 'get_credit_balance')).toEqual({ balance: 100 });
    const refused = await restBalance();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  test('listing tools is protocol, not a tool call: it spends nothing', async () => {
    await freshWindow();
    for (let i = 0; i < 8; i++) await assistant.listTools();
    const answers = await Promise.all(Array.from({ length: 5 }, restBalance));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('bad input', () => {
  test('input the schema refuses is a tool error, and the server keeps answering', async () => {
    await freshWindow();
    const malformedId = await callTool(assistant, 'get_signal', { signalId: 'not-a-uuid' });
    expect(malformedId.isError).toBe(true);
    expect(malformedId.text).toMatch(/signalId/);

    const missing = await callTool(assistant, 'update_signal', { name: 'no id' });
    expect(missing.isError).toBe(true);

    const unknownTool = await callTool(assistant, 'drop_database', {});
    expect(unknownTool.isError).toBe(true);

    expect(await toolOk(assistant, 'get_credit_balance')).toEqual({ balance: 100 });
  });

  test("a config the type's REST body refuses answers the REST envelope: VALIDATION_ERROR naming the field", async () => {
    await freshWindow();
    const error = await toolError(
      assistant,
      'create_signal',
      {
        signalTypeId: 'job_changes',
        name: 'Typo',
        config: { jobTitles: ['Chief Technology Officer'], jobTitle: 'CTO' },
      },
      'VALIDATION_ERROR',
    );
    expect(error.details).toEqual([{ field: 'config.jobTitle', message: '"jobTitle" is not a known field here' }]);

    const rest = await call(`${stack.url}/api/v1/signals/job-changes`, {
      token: account.apiKey,
      body: { name: 'Typo', config: { jobTitles: ['Chief Technology Officer'], jobTitle: 'CTO' } },
    });
    expect(rest.status).toBe(422);
    expect(rest.body.error).toEqual(error);

    // A watchlist config under job_changes is refused the same way, field by field.
    const mixed = await toolError(
      assistant,
      'create_signal',
      { signalTypeId: 'job_changes', name: 'Mixed', config: { companies: ['acme.com'] } },
      'VALIDATION_ERROR',
    );
    expect(mixed.details).toEqual([{ field: 'config.companies', message: '"companies" is not a known field here' }]);
  });

  test('a service error is a tool error with the envelope: an unknown signal is NOT_FOUND', async () => {
    await freshWindow();
    const error = await toolError(
      assistant,
      'get_signal',
      { signalId: '00000000-0000-4000-8000-000000000000' },
      'NOT_FOUND',
    );
    expect(error.message).toMatch(/not found/i);
  });
});
