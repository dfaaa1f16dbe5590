import Router, { type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { Permission } from '../src/db/entities/api-key';
import { fieldProblemsOf, invalidRequest, notFound, validationError, type FieldProblem } from '../src/errors';
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
      const params = parse(route.params, ctx.params, (e) => {
        // A malformed id names no resource, so it answers like an unknown one.
        void e;
        return notFound();
      });
      route.pathCheck?.(params);
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
