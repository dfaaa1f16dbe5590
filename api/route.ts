import Router, { type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { Permission } from '../src/db/entities/api-key';
import { AppError, fieldProblemsOf, invalidRequest, notFound, validationError, type FieldProblem } from '../src/errors';
import type { Caller } from '../src/services/api-keys';
import type { AppContext, AppState } from './context';

/** A body that is already JSON text (stored lead payloads): sent as is, never parsed and re-serialised. */
export class JsonText {
  constructor(readonly text: string) {}
}

export type Access = { kind: 'public' } | { kind: 'apiKey'; permission: Permission } | { kind: 'admin' };

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** Set on every apiKey route: the key, its account and its permissions. */
  caller: Caller;
  ctx: AppContext;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
}

export interface RouteDef<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, `{name}` for parameters. */
  path: string;
  /** Further paths answering the same way (the specification shows some paths in two forms). */
  aliases?: string[];
  operationId: string;
  summary: string;
  tags: string[];
  access: Access;
  body?: B;
  query?: Q;
  params?: P;
  /** The lowest 2xx status is the one answered. */
  responses: Record<number, ResponseSpec>;
  /** Refusals that depend on the path alone, answered before the body is validated. */
  pathCheck?(params: z.output<P>): void;
  handle(input: RouteInput<z.output<B>, z.output<Q>, z.output<P>>): Promise<unknown> | unknown;
}

export type AnyRoute = RouteDef<z.ZodType, z.ZodType, z.ZodType>;

/** Keeps each route's schemas beside its handler: they validate, type the handler and feed OpenAPI. */
export function defineRoute<
  B extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  P extends z.ZodType = z.ZodUnknown,
>(def: RouteDef<B, Q, P>): AnyRoute {
  return def as unknown as AnyRoute;
}

const successStatus = (route: AnyRoute) =>
  Number(
    Object.keys(route.responses)
      .map(Number)
      .filter((s) => s >= 200 && s < 300)
      .sort((a, b) => a - b)[0] ?? 200,
  );

/**
 * Registers routes on a Koa router. `guards` turn an access rule into middleware (auth,
 * permission, rate limit); the registry itself only validates and calls the handler.
 */
export function mountRoutes(
  router: Router<AppState>,
  routes: AnyRoute[],
  guards: (access: Access) => RouterMiddleware<AppState>[],
): void {
  for (const route of routes) {
    const koaPaths = [route.path, ...(route.aliases ?? [])].map((path) => path.replace(/\{(\w+)\}/g, ':$1'));
    const status = successStatus(route);
    router[route.method](koaPaths, ...guards(route.access), async (ctx) => {
      // A malformed id names no resource, so it answers like an unknown one; so does one that
      // PostgreSQL cannot hold (a NUL reached a text column's query as a 500).
      if (unstorableText(ctx.params)) throw notFound();
      const params = parse(route.params, ctx.params, () => notFound());
      route.pathCheck?.(params);
      refuseUnknownQueryParameters(route, ctx.query);
      if (route.body) refuseNonJsonBody(ctx);
      const rawBody = (ctx.request as { body?: unknown }).body ?? {};
      const unstorableQuery = route.query ? unstorableText(ctx.query) : undefined;
      if (unstorableQuery) {
        throw invalidRequest(`Invalid query parameters: ${unstorableQuery.field}: ${unstorableQuery.message}`, {
          details: [unstorableQuery],
        });
      }
      const query = parse(route.query, ctx.query, (e) =>
        invalidRequest(
          `Invalid query parameters: ${fieldProblemsOf(e)
            .map((d) => `${d.field}: ${d.message}`)
            .join('; ')}`,
          {
            details: fieldProblemsOf(e),
          },
        ),
      );
      const unstorableBody = route.body ? unstorableText(rawBody) : undefined;
      if (unstorableBody) throw validationError([unstorableBody]);
      const body = parse(route.body, rawBody, (e) => validationError(fieldProblemsOf(e)));
      const result = await route.handle({ body, query, params, caller: ctx.state.caller as Caller, ctx });
      ctx.status = status;
      if (result instanceof JsonText) {
        ctx.type = 'application/json';
        ctx.body = result.text;
      } else if (status !== 204 && result !== undefined) {
        ctx.body = result;
      }
    });
  }
}

/** The parameters a query schema reads; undefined when its shape cannot be told (then nothing is refused). */
function queryParameterNames(schema: z.ZodType | undefined): string[] | undefined {
  if (schema === undefined) return [];
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return queryParameterNames(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const names = (schema.options as z.ZodType[]).map(queryParameterNames);
    return names.some((n) => n === undefined) ? undefined : [...new Set(names.flat() as string[])];
  }
  return undefined;
}

/**
 * A parameter the route does not read is refused, as an unknown body field is: ignored, a
 * misspelt filter (`people/search?personas=…`) silently answered everyone.
 */
function refuseUnknownQueryParameters(route: AnyRoute, query: Record<string, unknown>): void {
  const known = queryParameterNames(route.query);
  if (known === undefined) return;
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const takes = known.length ? `this route takes ${known.map((n) => `"${n}"`).join(', ')}` : 'this route takes none';
  throw invalidRequest(
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; ${takes}`,
    { details: unknown.map((field) => ({ field, message: `is not a query parameter of this route; ${takes}` })) },
  );
}

/**
 * A body the JSON parser did not read (no Content-Type, or another one) would reach the route
 * as `{}` and be reported as missing fields: it is refused with what to send instead.
 */
function refuseNonJsonBody(ctx: AppContext): void {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody || ctx.is('json') || ctx.is('+json')) return;
  const sent = ctx.get('content-type');
  throw new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `The body is read as JSON only: send it with "Content-Type: application/json" (${sent ? `got "${sent}"` : 'no Content-Type was sent'})`,
  );
}

/** NUL and unpaired surrogates: PostgreSQL stores neither in text nor in JSON, so they are refused at the door. */
// eslint-disable-next-line no-control-regex -- the NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first string (value or key) of a request's input that PostgreSQL cannot store, named by
 * its dotted path; undefined when there is none. Iterative, so input nested 100,000 levels
 * deep cannot overflow the stack. The tool server checks tool arguments with it too.
 */
export function unstorableText(value: unknown): FieldProblem | undefined {
  const field = unstorableTextAt(value);
  return field === undefined
    ? undefined
    : { field, message: 'contains a NUL character or an unpaired surrogate, which cannot be stored' };
}

function unstorableTextAt(value: unknown): string | undefined {
  interface Node {
    value: unknown;
    key?: string;
    parent?: Node;
  }
  const pathOf = (node: Node) => {
    const keys: string[] = [];
    for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.');
  };
  const pending: Node[] = [{ value }];
  while (pending.length > 0) {
    const node = pending.pop() as Node;
    if (typeof node.value === 'string') {
      if (UNSTORABLE.test(node.value)) return pathOf(node);
    } else if (node.value !== null && typeof node.value === 'object') {
      for (const [key, child] of Object.entries(node.value)) {
        const childNode = { value: child, key, parent: node };
        if (UNSTORABLE.test(key)) return pathOf(childNode);
        pending.push(childNode);
      }
    }
  }
  return undefined;
}

function parse<T>(schema: z.ZodType | undefined, value: unknown, fail: (e: z.ZodError) => Error): T {
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fail(parsed.error);
  return parsed.data as T;
}
