import fc from 'fast-check';
import type { Client as Assistant } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { connectAssistant } from '../mcp/helpers';
import {
  fingerprint,
  fixedBodies,
  hostileBody,
  hostileValue,
  prototypePollution,
  runSeed,
  send,
} from './hostile-requests';

/**
 * Random and hostile arguments on every tool of the assistant tool server, through the MCP
 * SDK client as an assistant host sends them, and hostile raw JSON-RPC on /mcp itself. A tool
 * answers a tool error (or a protocol refusal of the arguments), never a crash: no internal
 * error, no failed transport, and a refused call changes nothing in the database.
 */

const SEED = runSeed();
// 15 runs a tool keep the file to a few minutes over its 25 tools; FC_RUNS asks for more.
const RUNS = Number(process.env.FC_RUNS ?? 15);

let stack: Stack;
let account: TestAccount;
let assistant: Assistant;
let tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
const ids: Record<string, string> = {};
/** Per tool: outcomes seen, for the log. */
const seen = new Map<string, Record<string, number>>();

function record(tool: string, outcome: string): void {
  const counts = seen.get(tool) ?? {};
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  seen.set(tool, counts);
}

async function createSignal(owner: TestAccount, kind: 'job-changes' | 'account-watchlist'): Promise<string> {
  const config = kind === 'job-changes' ? { jobTitles: ['Chief Technology Officer'] } : { companies: ['acme.com'] };
  const answer = await call(`${stack.url}/api/v1/signals/${kind}`, {
    token: owner.apiKey,
    body: { name: `Tool target ${kind}`, config },
  });
  if (answer.status !== 201) throw new Error(`fixture signal not created: ${answer.status} ${answer.text}`);
  return answer.body.id;
}

/** A valid call may delete a fixture signal: bring the fixtures back before the next call. */
async function ensureFixtures(other: TestAccount): Promise<void> {
  const live = new Set<string>(
    (
      await stack.db.query(`SELECT id FROM signals WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [
        Object.values(ids),
      ])
    ).map((r: { id: string }) => r.id),
  );
  if (!live.has(ids.jobChanges)) ids.jobChanges = await createSignal(account, 'job-changes');
  if (!live.has(ids.watchlist)) ids.watchlist = await createSignal(account, 'account-watchlist');
  if (!live.has(ids.otherAccount)) ids.otherAccount = await createSignal(other, 'job-changes');
}

let otherAccount: TestAccount;

/** Arguments for a tool: its own field names with hostile values, ids that exist, unknown and polluting keys. */
function hostileArguments(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const own = fields.length > 0 ? fields : ['unknownField'];
  const withId = (args: Record<string, unknown>, id: unknown) =>
    fields.includes('signalId') ? { ...args, signalId: id } : args;
  return fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...own), hostileValue, { maxKeys: own.length }) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.dictionary(fc.constantFrom(...own), hostileValue, { maxKeys: 2 }),
          fc.constantFrom('@jobChanges', '@watchlist', '@otherAccount'),
        )
        .map(([args, id]) => withId(args, id)),
    },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom(...own, '__proto__', 'constructor', 'prototype', 'unknownField'),
        hostileValue,
      ),
    },
    { weight: 1, arbitrary: fc.object({ maxDepth: 3 }) },
  );
}

/**
 * Always tried: each field of the tool set to text PostgreSQL cannot store (NUL, an unpaired
 * surrogate), beside a real signal id; and a signal creation valid but for its name.
 */
function fixedArguments(tool: string, fields: string[]): [Record<string, unknown>][] {
  const id = fields.includes('signalId') ? { signalId: '@jobChanges' } : {};
  const perField = fields
    .filter((f) => f !== 'signalId')
    .flatMap((f) => ['a\u0000b', 'a\ud800b'].map((text) => [{ ...id, [f]: text }] as [Record<string, unknown>]));
  const creation: [Record<string, unknown>][] =
    tool === 'create_signal'
      ? ['a\u0000b', 'a\ud800b'].flatMap((name): [Record<string, unknown>][] => [
          [
            {
              signalTypeId: 'job_changes',
              name,
              config: { jobTitles: ['Chief Technology Officer'], customTitles: [name] },
            },
          ],
          [{ signalTypeId: 'hiring', name: 'Hiring', config: { keywords: [name], jobLocations: [name] } }],
          [{ signalTypeId: 'fundraising', name, config: { fundingStages: ['Series A'] } }],
          // Configs of the market-wide types that are wrong in every field.
          [
            {
              signalTypeId: 'fundraising',
              name: 'x',
              config: {
                fundingStages: ['Series Z', name],
                minAmountUsd: 'lots',
                maxAmountUsd: -1,
                maxAnnouncementAgeDays: 0,
              },
            },
          ],
          [
            {
              signalTypeId: 'hiring',
              name: 'x',
              status: 'active',
              config: { keywords: [], departments: ['dragons'], seniorities: [name], maxPostingAgeDays: 1e9 },
            },
          ],
        ])
      : [];
  return [...perField, ...creation];
}

/** Resolves `@name` placeholders to the fixtures' current ids. */
const resolve = (args: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(args).map(([k, v]) => [
      k,
      typeof v === 'string' && v.startsWith('@') && v.slice(1) in ids ? ids[v.slice(1)] : v,
    ]),
  );

type Outcome = 'valid' | 'tool error' | 'invalid params' | 'refused request';

/** Calls the tool; throws on a crash, answers how a non-crash went. */
async function outcomeOf(name: string, args: Record<string, unknown>): Promise<Outcome> {
  let result: { isError?: boolean; content?: { type: string; text?: string }[] };
  try {
    result = (await assistant.callTool({ name, arguments: args })) as typeof result;
  } catch (err) {
    // The SDK refusing the arguments against the tool's schema is a protocol answer, not a crash.
    if (err instanceof McpError && err.code === -32602) return 'invalid params';
    // The HTTP layer refusing the request body (a `__proto__` key is refused as prototype
    // poisoning before any tool runs) answers 400 with the error envelope: a refusal too.
    if (
      err instanceof StreamableHTTPError &&
      err.code !== undefined &&
      err.code >= 400 &&
      err.code < 500 &&
      /"error":\{"code":"[A-Z_]+"/.test(err.message)
    ) {
      return 'refused request';
    }
    throw new Error(
      `${name} crashed (${err instanceof McpError ? `MCP error ${err.code}` : 'transport'}: ${(err as Error).message.slice(0, 300)})`,
    );
  }
  const text = result.content?.map((c) => c.text ?? '').join('') ?? '';
  if (/INTERNAL_ERROR|-32603/.test(text)) throw new Error(`${name} answered an internal error: ${text.slice(0, 300)}`);
  return result.isError ? 'tool error' : 'valid';
}

const shown = (args: Record<string, unknown>) => {
  const text = JSON.stringify(args) ?? String(args);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
};

beforeAll(async () => {
  stack = await startStack({
    env: { SIGNAL_EVALUATION_INTERVAL: '1h', RATE_LIMIT_PER_SECOND: '100000', ENRICHMENT_LIVE_LATENCY_MS: '0' },
  });
  account = await createAccount(stack, { credits: 500 });
  otherAccount = await createAccount(stack, { credits: 10, name: 'Another account' });
  await ensureFixtures(otherAccount);
  assistant = await connectAssistant(stack, account.apiKey);
  tools = (await assistant.listTools()).tools as typeof tools;
}, 60_000);

afterAll(async () => {
  console.log(
    `[bad-input] tool outcomes: ${[...seen].map(([tool, counts]) => `${tool} ${JSON.stringify(counts)}`).join('; ')}`,
  );
  await assistant?.close();
  await stack?.stop();
});

test('random and hostile arguments on every tool: a tool error, never a crash, nothing changed', async () => {
  expect(tools.length).toBeGreaterThanOrEqual(20);
  for (const tool of tools) {
    const fields = Object.keys(tool.inputSchema.properties ?? {});
    const details = await fc.check(
      fc.asyncProperty(hostileArguments(fields), async (raw) => {
        await ensureFixtures(otherAccount);
        const args = resolve(raw);
        const before = await fingerprint(stack.db, account.accountId);
        let outcome: Outcome;
        try {
          outcome = await outcomeOf(tool.name, args);
        } catch (err) {
          throw new Error(`${(err as Error).message} with arguments ${shown(args)}`);
        }
        record(tool.name, outcome);
        if (outcome === 'valid') return;
        const after = await fingerprint(stack.db, account.accountId);
        const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
        if (changed.length > 0)
          throw new Error(`${tool.name} refused (${outcome}) but changed ${changed.join(', ')}: ${shown(args)}`);
        const polluted = prototypePollution();
        if (polluted.length > 0)
          throw new Error(`Object.prototype polluted (${polluted.join(', ')}) by ${tool.name} ${shown(args)}`);
      }),
      { seed: SEED, numRuns: RUNS, examples: fixedArguments(tool.name, fields), endOnFailure: true },
    );
    if (details.failed) {
      const cause =
        details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(`${tool.name}: ${cause}\n(seed ${details.seed}, path "${details.counterexamplePath}")`);
    }
  }
}, 300_000);

test('hostile JSON-RPC on /mcp: a JSON-RPC error or the error envelope, never a 5xx, nothing changed', async () => {
  const accept = {
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    Authorization: `Bearer ${account.apiKey}`,
  };
  const toolNames = tools.map((t) => t.name);
  const message = fc.oneof(
    // Well-formed envelopes with hostile parts.
    fc
      .record({
        method: fc.oneof(
          fc.constantFrom(
            'tools/call',
            'tools/list',
            'initialize',
            'resources/list',
            'prompts/get',
            'logging/setLevel',
            '__proto__',
          ),
          fc.string(),
        ),
        name: fc.oneof(fc.constantFrom(...toolNames), fc.string()),
        arguments: hostileValue,
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant({})),
      })
      .map(({ method, name, arguments: args, id }) => ({
        kind: 'json-rpc',
        bytes: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: { name, arguments: args } }) ?? 'null'),
      })),
    // Batches, including hundreds of calls in one body.
    fc.integer({ min: 2, max: 300 }).map((n) => ({
      kind: 'batch',
      bytes: Buffer.from(
        JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: toolNames[i % toolNames.length], arguments: {} },
          })),
        ),
      ),
    })),
    hostileBody(['jsonrpc', 'method', 'params', 'id']),
  );
  const examples = fixedBodies(['method']).map((body) => [body] as [typeof body]);
  const details = await fc.check(
    fc.asyncProperty(message, async (body) => {
      await ensureFixtures(otherAccount);
      const before = await fingerprint(stack.db, account.accountId);
      const answer = await send(stack.url, { method: 'POST', target: '/mcp', headers: accept, body: body.bytes });
      const request = `${body.kind} body ${JSON.stringify(body.bytes.subarray(0, 200).toString('latin1'))}`;
      if (answer.status >= 500)
        throw new Error(`/mcp answered ${answer.status} ${answer.text.slice(0, 300)} to ${request}`);
      if (/INTERNAL_ERROR/.test(answer.text))
        throw new Error(`/mcp answered an internal error ${answer.text.slice(0, 300)} to ${request}`);
      let parsed: any;
      try {
        // Streamable HTTP may answer as an event stream: the JSON is on its data line.
        parsed = JSON.parse(
          answer.text.startsWith('event:') || answer.text.startsWith('data:')
            ? (/^data: (.*)$/m.exec(answer.text)?.[1] ?? '')
            : answer.text || 'null',
        );
      } catch {
        throw new Error(
          `/mcp answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)} to ${request}`,
        );
      }
      const answers = Array.isArray(parsed) ? parsed : [parsed];
      // The SDK answers -32603 (internal error) when a request's params fail its own request
      // schema (e.g. tools/call with `arguments` an array) where -32602 is meant: a refusal
      // with the wrong code, reported; any other -32603 is a crash.
      const crashed = answers.filter(
        (a) => a?.error?.code === -32603 && !/"path":\s*\[\s*"params"/.test(String(a.error.message)),
      );
      if (crashed.length > 0)
        throw new Error(`/mcp answered an internal error ${JSON.stringify(crashed[0]).slice(0, 300)} to ${request}`);
      const wellFormed = answers.every((a) => a === null || a?.jsonrpc === '2.0' || typeof a?.error?.code === 'string');
      // 202 Accepted with no body answers a notification.
      if (!wellFormed && !(answer.status === 202 && answer.text === ''))
        throw new Error(`/mcp answered ${answer.status} ${answer.text.slice(0, 300)} to ${request}`);
      if (answer.status >= 200 && answer.status < 300 && answers.some((a) => a?.result && !a.result.isError)) return; // Some call was valid.
      const after = await fingerprint(stack.db, account.accountId);
      const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
      if (changed.length > 0) throw new Error(`/mcp refused but changed ${changed.join(', ')}: ${request}`);
    }),
    { seed: SEED, numRuns: RUNS * 2, examples, endOnFailure: true },
  );
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${cause}\n(seed ${details.seed}, path "${details.counterexamplePath}")`);
  }
}, 240_000);
