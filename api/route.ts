import Router, { type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { Permission } from '../src/db/entities/api-key';
import { fieldProblemsOf, invalidRequest, notFound, validationError } from '../src/errors';
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
export function defineRoute<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  def: RouteDef<B, Q, P>,
): AnyRoute {
  return def as unknown as AnyRoute;
}

const successStatus = (route: AnyRoute) =>
  Number(Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0] ?? 200);

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
      const query = parse(route.query, ctx.query, (e) =>
        invalidRequest(`Invalid query parameters: ${fieldProblemsOf(e).map((d) => `${d.field}: ${d.message}`).join('; ')}`, {
          details: fieldProblemsOf(e),
        }),
      );
      const body = parse(route.body, (ctx.request as { body?: unknown }).body ?? {}, (e) => validationError(fieldProblemsOf(e)));
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

function parse<T>(schema: z.ZodType | undefined, value: unknown, fail: (e: z.ZodError) => Error): T {
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fail(parsed.error);
  return parsed.data as T;
}
