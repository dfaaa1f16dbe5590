import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Stack } from '../setup/stack';

/** The 24 tools the specification names, in its order. */
export const SPECIFIED_TOOLS = [
  'list_signal_types',
  'list_personas',
  'list_industries',
  'list_technographic_tools',
  'list_signals',
  'get_signal',
  'create_signal',
  'update_signal',
  'pause_signal',
  'resume_signal',
  'delete_signal',
  'get_signal_funnel',
  'list_signal_leads',
  'list_watched_companies',
  'add_watched_companies',
  'get_credit_balance',
  'get_credit_usage',
  'enrich_contact',
  'enrich_company',
  'find_email',
  'search_companies',
  'search_people',
  'start_phone_lookup',
  'get_phone_lookup_result',
] as const;

/** Every tool the server lists: the specification's, then the cost preview's the suppression list's (issue 27) and the competitors' (issue 34). */
export const SERVED_TOOLS = [
  ...SPECIFIED_TOOLS,
  'preview_signal',
  'list_suppressions',
  'add_suppressions',
  'delete_suppression',
  'list_competitors',
  'create_competitor',
  'get_competitor',
  'update_competitor',
  'delete_competitor',
  'get_scoring_model',
  'set_scoring_model',
  'get_company_score',
  'get_lead',
] as const;

export const toolServerUrl = (stack: Stack) => `${stack.url}/mcp`;

/** An assistant connected to the tool server with an API key, as an MCP host configures it. */
export async function connectAssistant(stack: Stack, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(toolServerUrl(stack)), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolAnswer<T = any> {
  isError: boolean;
  /** `structuredContent`, checked to be the same object as the text content. */
  body: T;
  text: string;
}

/** Calls a tool and checks the result's shape: one JSON text block and the same object as structured content. */
export async function callTool<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer<T>> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: T;
    isError?: boolean;
  };
  expect(result.content).toHaveLength(1);
  expect(result.content[0].type).toBe('text');
  const text = result.content[0].text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (result.structuredContent !== undefined) expect(parsed).toEqual(result.structuredContent);
  return { isError: result.isError === true, body: (result.structuredContent ?? parsed) as T, text };
}

/** A successful tool call's object, failing with the whole answer otherwise. */
export async function toolOk<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool<T>(client, name, args);
  expect({ name, isError: answer.isError, text: answer.isError ? answer.text : '' }).toEqual({
    name,
    isError: false,
    text: '',
  });
  return answer.body;
}

/** A tool error carrying the REST envelope with this code. */
export async function toolError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<Record<string, any>> {
  const answer = await callTool(client, name, args);
  expect({ name, isError: answer.isError, code: answer.body?.error?.code, text: answer.text }).toEqual({
    name,
    isError: true,
    code,
    text: answer.text,
  });
  expect(answer.body.error.message).toEqual(expect.any(String));
  return answer.body.error;
}
