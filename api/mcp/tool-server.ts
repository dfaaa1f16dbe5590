import type Router from '@koa/router';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../../src/services';
import { AppError, forbidden, validationError } from '../../src/errors';
import { API_KEY_PREFIX, type Caller } from '../../src/services/api-keys';
import { PERMISSIONS, type Permission } from '../../src/db/entities/api-key';
import type { Logger } from '../../src/logger';
import type { AppContext, AppState } from '../context';
import { bearerToken } from '../middleware/auth';
import type { RequestRateLimit } from '../middleware/rate-limit';
import { JsonText, unstorableText, type AnyRoute } from '../route';
import type { AssistantAuthorization } from '../oauth/authorization-server';
import type { AnyToolDef, ToolOutput } from './tool';
import { assistantTools } from './tools';

export const TOOL_SERVER_PATH = '/mcp';
/** RFC 9728 metadata of the tool server as a protected resource, at its path-inserted well-known address. */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${TOOL_SERVER_PATH}`;
const REALM = 'intent-leads';
const SERVER_INFO = { name: 'intent-leads', version: '1.0.0' };

interface BoundTool extends AnyToolDef {
  permission: Permission;
}

/**
 * The assistant tool server: MCP over Streamable HTTP at /mcp, stateless (a fresh server and
 * transport per POST, no session), so any API process answers any request. Authentication is
 * the REST API key or an OAuth access token for this resource; each tools/call spends one
 * request of that key's (or grant's) REST rate limit and needs the permission of the tool's
 * REST twin.
 */
export function mountToolServer(
  router: Router<AppState>,
  services: Services,
  rateLimit: RequestRateLimit,
  restRoutes: AnyRoute[],
  authorization: AssistantAuthorization,
): void {
  const tools = bindPermissions(assistantTools(services), restRoutes);

  router.get(RESOURCE_METADATA_PATH, (ctx) => {
    const origin = authorization.originOf(ctx);
    ctx.body = {
      resource: authorization.resourceUrl(origin),
      authorization_servers: [authorization.issuerUrl(origin)],
      scopes_supported: [...PERMISSIONS],
      resource_name: 'Intent-signal lead service tools',
      bearer_methods_supported: ['header'],
    };
  });

  router.all(TOOL_SERVER_PATH, async (ctx) => {
    const caller = await authenticate(ctx, services, authorization);
    ctx.state.caller = caller;
    // Stateless: there is no stream to open (GET) and no session to end (DELETE).
    if (ctx.method !== 'POST')
      throw new AppError(
        405,
        'METHOD_NOT_ALLOWED',
        'The tool server takes POST only (stateless Streamable HTTP)',
        {},
        { Allow: 'POST' },
      );

    const body = (ctx.request as { body?: unknown }).body;
    const refusal = await admitToolCalls(body, caller, rateLimit);
    const server = buildServer(tools, caller, refusal, ctx.state.log, ctx.state.requestId);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // From here the transport writes the response; Koa must not.
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res, body);
    } catch (err) {
      ctx.state.log.error({ err }, 'tool server request failed');
      if (!ctx.res.headersSent) {
        ctx.res.writeHead(500, { 'Content-Type': 'application/json' });
        ctx.res.end(JSON.stringify(internalError(ctx.state.requestId)));
      }
    }
  });
}

/** The tool's permission is its REST twin's; a tool without a twin is a programming error, found at start-up. */
function bindPermissions(tools: AnyToolDef[], restRoutes: AnyRoute[]): BoundTool[] {
  return tools.map((tool) => {
    const twin = restRoutes.find((route) => route.operationId === tool.twin);
    if (!twin || twin.access.kind !== 'apiKey')
      throw new Error(`tool ${tool.name}: no API-key REST route "${tool.twin}" to mirror`);
    return { ...tool, permission: twin.access.permission };
  });
}

/**
 * `Authorization: Bearer <API_KEY>` as on REST, or an access token an assistant got by OAuth
 * for this resource. A refusal carries the `WWW-Authenticate` challenge pointing at the
 * resource metadata (where the authorization server is named), and the error envelope.
 */
async function authenticate(
  ctx: AppContext,
  services: Pick<Services, 'apiKeys'>,
  authorization: AssistantAuthorization,
): Promise<Caller> {
  const token = bearerToken(ctx.get('Authorization'));
  const origin = authorization.originOf(ctx);
  const challenge = (error?: string) => ({
    'WWW-Authenticate': `Bearer realm="${REALM}"${error ? `, error="${error}"` : ''}, resource_metadata="${origin}${RESOURCE_METADATA_PATH}", scope="${PERMISSIONS.join(' ')}"`,
  });
  if (!token) {
    throw new AppError(
      401,
      'UNAUTHORIZED',
      'Missing or malformed Authorization header; send "Authorization: Bearer <API_KEY>" or sign in with OAuth',
      {},
      challenge(),
    );
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const caller = await services.apiKeys.authenticate(token);
    if (!caller)
      throw new AppError(401, 'INVALID_API_KEY', 'The API key is invalid or revoked', {}, challenge('invalid_token'));
    return caller;
  }
  const caller = await authorization.callerForToken(origin, token);
  if (!caller)
    throw new AppError(
      401,
      'INVALID_TOKEN',
      'The access token is invalid, expired, revoked or for another resource; sign in again',
      {},
      challenge('invalid_token'),
    );
  return caller;
}

/**
 * Spends one request of the key's REST budget per tools/call in the body, before the SDK
 * even validates the input: as on REST, a refused or invalid call still counts. Handshake
 * messages (initialize, tools/list, notifications) are free, so a stateless client that
 * re-initialises does not halve its budget. Over the budget the calls of this request answer
 * a RATE_LIMITED tool error instead of running.
 */
async function admitToolCalls(
  body: unknown,
  caller: Caller,
  rateLimit: RequestRateLimit,
): Promise<AppError | undefined> {
  const messages = Array.isArray(body) ? body : [body];
  const calls = messages.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
  for (let i = 0; i < calls; i++) {
    try {
      await rateLimit.consume(caller.keyId);
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
  }
  return undefined;
}

function buildServer(
  tools: BoundTool[],
  caller: Caller,
  refusal: AppError | undefined,
  log: Logger,
  requestId: string,
): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Tools of the intent-signal lead service, acting on the account of the API key. Signals produce leads billed in credits; ' +
      'tools that spend credits state their price. Errors come back as {"error": {"code", "message", ...}}, as on the REST API.',
  });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      async (input: Record<string, unknown>, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
        try {
          if (refusal) throw refusal;
          if (!caller.permissions.includes(tool.permission)) throw forbidden(tool.permission);
          // As on REST: text PostgreSQL cannot store is a validation error, not a failed query.
          const unstorable = unstorableText(input);
          if (unstorable) throw validationError([unstorable]);
          return success(await tool.run(caller, input, { signal: extra.signal }));
        } catch (err) {
          if (err instanceof AppError) return failure(envelopeOf(err));
          // Never a crash: the assistant gets the same opaque 500 a REST client would.
          log.error({ err, tool: tool.name }, 'tool failed');
          return failure(internalError(requestId));
        }
      },
    );
  }
  return server;
}

function success(output: ToolOutput): CallToolResult {
  if (output instanceof JsonText) {
    // Stored lead payloads go out as stored, never re-serialised.
    return { content: [{ type: 'text', text: output.text }], structuredContent: JSON.parse(output.text) };
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(output) }],
    structuredContent: output as Record<string, unknown>,
  };
}

function failure(envelope: { error: Record<string, unknown> }): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope, isError: true };
}

/** The REST error envelope; a Retry-After header becomes `retryAfterSeconds`, since a tool result has no headers. */
function envelopeOf(err: AppError): { error: Record<string, unknown> } {
  const retryAfter = err.headers['Retry-After'];
  return {
    error: {
      code: err.code,
      message: err.message,
      ...err.extra,
      ...(retryAfter !== undefined ? { retryAfterSeconds: Number(retryAfter) } : {}),
    },
  };
}

function internalError(requestId: string) {
  return {
    error: { code: 'INTERNAL_ERROR', message: `Internal error; quote request id ${requestId} when reporting it` },
  };
}
