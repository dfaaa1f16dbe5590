import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Services } from '../../src/services';
import { DASHBOARD_CSS } from './assets/dashboard.css';
import { DASHBOARD_JS } from './assets/dashboard.js';
import { dashboardHeaders } from './security-headers';
import { dashboardErrors, loadSession, requireCsrf, type DashboardState } from './web';
import { signInRoutes } from './pages/sign-in';
import { teamRoutes } from './pages/team';
import { overviewRoutes } from './pages/overview';
import { signalRoutes } from './pages/signals';
import { watchlistRoutes } from './pages/signal-watchlist';
import { apiKeyRoutes } from './pages/api-keys';
import { suppressionRoutes } from './pages/suppressions';
import { competitorRoutes } from './pages/competitors';
import { integrationRoutes } from './pages/integrations';
import { creditRoutes } from './pages/credits';
import { assistantRoutes } from './pages/assistants';
import { scoringRoutes } from './pages/scoring';
import type { AssistantAuthorization } from '../oauth/authorization-server';

const ASSETS: Record<string, { type: string; body: string; etag: string }> = Object.fromEntries(
  [
    ['/assets/dashboard.css', 'text/css; charset=utf-8', DASHBOARD_CSS],
    ['/assets/dashboard.js', 'text/javascript; charset=utf-8', DASHBOARD_JS],
  ].map(([path, type, body]) => [
    path,
    {
      type,
      body,
      etag: `"${createHash('sha256')
        .update(body as string)
        .digest('base64url')
        .slice(0, 16)}"`,
    },
  ]),
);

/**
 * The dashboard: server-rendered pages at `/` over the same services as REST. Every request
 * gets the security headers and its session; every POST needs its CSRF token.
 */
export function dashboardRouter(services: Services, authorization: AssistantAuthorization): Router<DashboardState> {
  const router = new Router<DashboardState>();
  router.use(dashboardHeaders, dashboardErrors(), loadSession(services.memberSessions), requireCsrf);
  for (const [path, asset] of Object.entries(ASSETS)) {
    router.get(path, (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('ETag', asset.etag);
      if (ctx.get('If-None-Match') === asset.etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = asset.type;
      ctx.body = asset.body;
    });
  }
  signInRoutes(router, services);
  teamRoutes(router, services);
  overviewRoutes(router, services);
  signalRoutes(router, services);
  watchlistRoutes(router, services);
  suppressionRoutes(router, services);
  competitorRoutes(router, services);
  apiKeyRoutes(router, services);
  integrationRoutes(router, services);
  creditRoutes(router, services);
  scoringRoutes(router, services);
  assistantRoutes(router, services, authorization);
  return router;
}
