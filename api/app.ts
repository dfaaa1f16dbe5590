import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Services } from '../src/services';
import { AppError, invalidRequest } from '../src/errors';
import type { AppState } from './context';
import { errorEnvelope } from './middleware/errors';
import { requestLog } from './middleware/request-log';
import { adminAuth, apiKeyAuth, requirePermission } from './middleware/auth';
import { RequestRateLimit } from './middleware/rate-limit';
import { mountRoutes, type Access, type AnyRoute } from './route';
import { buildOpenApiDocument } from './openapi';
import { healthRoutes } from './routes/health';
import { adminRoutes } from './routes/admin';
import { adminSourceRoutes } from './routes/admin-sources';
import { adminForecastRoutes } from './routes/admin-forecasts';
import { adminIngestRoutes, ingestBodyPassThrough } from './routes/admin-ingest';
import { publicApiRoutes } from './routes/public-api';
import { mountToolServer } from './mcp/tool-server';
import { dashboardRouter } from './dashboard/dashboard';
import { pageNotFound } from './dashboard/not-found';
import { AssistantAuthorization } from './oauth/authorization-server';

function refuseBody(err: Error & { status?: number }): never {
  if (err.status === 413) throw new AppError(413, 'INVALID_REQUEST', 'Request body is larger than 5 MB');
  throw invalidRequest('Request body is not valid JSON');
}

export interface ApiApp {
  app: Koa<AppState>;
  rateLimit: RequestRateLimit;
  openApi: ReturnType<typeof buildOpenApiDocument>;
}

/** The whole HTTP surface: public API, operator API, health, OpenAPI. No slow work happens inline. */
export async function createApp(services: Services): Promise<ApiApp> {
  const rateLimit = await RequestRateLimit.create({
    perSecond: services.config.RATE_LIMIT_PER_SECOND,
    store: services.config.RATE_LIMIT_STORE,
    db: services.db,
  });
  const publicRoutes: AnyRoute[] = [...healthRoutes(services), ...publicApiRoutes(services)];
  const openApi = buildOpenApiDocument(publicRoutes);

  const authenticate = apiKeyAuth(services.apiKeys);
  const operator = adminAuth(services.config.ADMIN_TOKEN);
  const limit = rateLimit.middleware();
  const guards = (access: Access): RouterMiddleware<AppState>[] => {
    switch (access.kind) {
      case 'public':
        return [];
      case 'admin':
        return [operator];
      case 'apiKey':
        return [authenticate, limit, requirePermission(access.permission)];
    }
  };

  const router = new Router<AppState>();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
  mountRoutes(
    router,
    [
      ...publicRoutes,
      ...adminRoutes(services),
      ...adminIngestRoutes(services),
      ...adminSourceRoutes(services),
      ...adminForecastRoutes(services),
    ],
    guards,
  );
  // The assistant tool server at /mcp: same keys, rate limit and permissions as the REST twins of its tools.
  const authorization = new AssistantAuthorization(services);
  mountToolServer(router, services, rateLimit, publicRoutes, authorization);

  const app = new Koa<AppState>();
  // X-Forwarded-For/-Proto/-Host are believed only from the proxies the operator says are there:
  // with N of them, the N-th address from the right is the client (the leftmost is whatever it wrote).
  app.proxy = services.config.TRUST_PROXY_HOPS > 0;
  app.maxIpsCount = services.config.TRUST_PROXY_HOPS;
  app.keys = authorization.cookieKeys;
  app.use(requestLog(services.logger));
  app.use(errorEnvelope);
  app.use(ingestBodyPassThrough);
  // The OAuth authorization server reads its own bodies, so it comes before the JSON parser.
  app.use(authorization.middleware());
  // DELETE is parsed too: removing watched companies takes a body.
  app.use(
    bodyParser({
      enableTypes: ['json'],
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      jsonLimit: '5mb',
      encoding: 'utf-8',
      onError: refuseBody,
    }),
  );
  app.use(router.routes());
  // The dashboard's pages at `/`; its routes never overlap /api, /admin, /mcp or the health checks.
  const dashboard = dashboardRouter(services, authorization);
  app.use(dashboard.routes() as unknown as Koa.Middleware<AppState>);
  // Nothing answered: a page for people, else the error envelope's JSON 404.
  app.use(pageNotFound(services.memberSessions) as unknown as Koa.Middleware<AppState>);
  return { app, rateLimit, openApi };
}
