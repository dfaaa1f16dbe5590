import type { Middleware } from 'koa';
import type { MemberSessions } from '../../src/services/member-sessions';
import { html } from './html';
import { page } from './layout';
import { dashboardHeaders } from './security-headers';
import { loadSession, send, type DashboardContext, type DashboardState } from './web';

/** Paths of machines (APIs, the tool server, OAuth, discovery): a miss there stays the JSON envelope. */
const MACHINE_PATHS = /^\/(api|admin|v1|mcp|oauth|\.well-known)(\/|$)/i;

/**
 * The last stop of a request nothing answered: a browser asking for a page gets the dashboard's
 * "Page not found" (with its nav when signed in) instead of the API's JSON; API clients, and any
 * request that is not a GET, fall through to the error envelope's 404.
 */
export function pageNotFound(sessions: MemberSessions): Middleware<DashboardState> {
  const withSession = loadSession(sessions);
  return async (ctx, next) => {
    const forPeople =
      (ctx.method === 'GET' || ctx.method === 'HEAD') &&
      !MACHINE_PATHS.test(ctx.path) &&
      ctx.accepts('json', 'html') === 'html';
    if (!forPeople) return next();
    await dashboardHeaders(ctx, () => withSession(ctx, async () => render(ctx)));
  };
}

function render(ctx: DashboardContext): void {
  send(
    ctx,
    page({
      title: 'Page not found',
      session: ctx.state.session,
      notice: { kind: 'error', text: 'There is no page at this address.' },
      body: html`<p><a href="/">Back to the overview</a></p>`,
    }),
    404,
  );
}
