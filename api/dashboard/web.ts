import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Middleware, ParameterizedContext } from 'koa';
import type { z } from 'zod';
import { AppError, fieldProblemsOf, validationError } from '../../src/errors';
import type { MemberSession, MemberSessions } from '../../src/services/member-sessions';
import type { Caller } from '../../src/services/api-keys';
import { PERMISSIONS } from '../../src/db/entities/api-key';
import { siteOrigin, type AppState } from '../context';
import { html } from './html';
import { page, type Notice } from './layout';

export const SESSION_COOKIE = 'intent_session';
/** Carries the CSRF token of signed-out forms (sign in, sign up, invite), submitted back in the form. */
export const FORM_COOKIE = 'intent_form';
const FORM_LIMIT_BYTES = 1_000_000;

export interface DashboardState extends AppState {
  session?: MemberSession;
  form?: URLSearchParams;
}
export type DashboardContext = ParameterizedContext<DashboardState>;

const cookieOptions = (ctx: DashboardContext) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.secure,
  path: '/',
  overwrite: true,
});

export function setSessionCookie(ctx: DashboardContext, token: string, expires: Date): void {
  ctx.cookies.set(SESSION_COOKIE, token, { ...cookieOptions(ctx), expires });
}

export function clearSessionCookie(ctx: DashboardContext): void {
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx), expires: new Date(0) });
}

/** The token a signed-out form carries; the same value sits in a cookie only this site can set. */
export function formToken(ctx: DashboardContext): string {
  let token = ctx.cookies.get(FORM_COOKIE);
  if (!token || !/^[\w-]{43}$/.test(token)) {
    token = randomBytes(32).toString('base64url');
    ctx.cookies.set(FORM_COOKIE, token, { ...cookieOptions(ctx), sameSite: 'strict' });
  }
  return token;
}

/** Who is signed in, if anyone: the session cookie resolved against PostgreSQL on every request. */
export function loadSession(sessions: MemberSessions): Middleware<DashboardState> {
  return async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) {
      ctx.state.session = (await sessions.resolve(token)) ?? undefined;
      if (!ctx.state.session) clearSessionCookie(ctx);
    }
    await next();
  };
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Every POST must carry the CSRF token: the session's own (synchronizer token) when signed in,
 * else the double-submitted form cookie. Reads the urlencoded body once for the handlers.
 */
export const requireCsrf: Middleware<DashboardState> = async (ctx, next) => {
  if (ctx.method !== 'POST') return next();
  const form = await readForm(ctx);
  ctx.state.form = form;
  const sent = form.get('_csrf') ?? ctx.get('X-CSRF-Token');
  const expected = ctx.state.session?.csrfToken ?? ctx.cookies.get(FORM_COOKIE);
  if (!sent || !expected || !sameText(sent, expected)) {
    throw new AppError(
      403,
      'CSRF_TOKEN_INVALID',
      'This form is out of date or did not come from this site. Reload the page and try again.',
    );
  }
  await next();
};

async function readForm(ctx: DashboardContext): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) throw new AppError(413, 'INVALID_REQUEST', 'The form is larger than 1 MB');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Pages behind sign-in send a signed-out visitor to the sign-in page, then back. */
export function signedIn(ctx: DashboardContext): MemberSession {
  const session = ctx.state.session;
  if (!session) {
    if (ctx.method === 'GET') {
      ctx.redirect(`/sign-in?next=${encodeURIComponent(ctx.originalUrl)}`);
      throw new RedirectDone();
    }
    throw new AppError(401, 'UNAUTHORIZED', 'Your session has ended. Sign in again.');
  }
  return session;
}

/** The address people reach the service at: PUBLIC_URL, else the request's own (OAuth redirect URLs). */
export const publicOrigin = siteOrigin;

/** Thrown after a redirect is set, to leave the handler. */
export class RedirectDone extends Error {}

/** The account's rights as the services take them: a signed-in person may do what a full key may. */
export function callerOf(session: MemberSession, keyId: string = NO_KEY): Caller {
  return { keyId, accountId: session.accountId, permissions: [...PERMISSIONS] };
}
/** Operations other than creating a signal never read the caller's key. */
const NO_KEY = '00000000-0000-0000-0000-000000000000';

export function send(ctx: DashboardContext, markup: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = markup;
}

/** The form's value, trimmed; '' when absent. */
export const field = (form: URLSearchParams | undefined, name: string) => (form?.get(name) ?? '').trim();

/** Lines of a textarea, without blanks. */
export const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * An unknown place as a person reads it: the API's words with its suggestions, not the API
 * route its message sends a program to (issue 38, item 6).
 */
function locationProblemText(err: AppError): string | undefined {
  const invalid = err.extra.invalid_locations as string[] | undefined;
  if (err.code !== 'INVALID_LOCATION' || !invalid?.length) return undefined;
  const suggestions = (err.extra.suggestions ?? {}) as Record<string, string[]>;
  const each = invalid.map((place) => {
    const close = suggestions[place] ?? [];
    return close.length
      ? `“${place}” (did you mean ${close.map((s) => `“${s}”`).join(' or ')}?)`
      : `“${place}” (no close match: give a country, a region or a city)`;
  });
  return `Unrecognised location${invalid.length === 1 ? '' : 's'}: ${each.join(', ')}.`;
}

/** What an AppError says to a person: the message, and each field's problem. */
export function problemText(err: AppError): string {
  const location = locationProblemText(err);
  if (location) return location;
  const details = (err.extra.details as Array<{ field: string; message: string }> | undefined) ?? [];
  if (err.code === 'VALIDATION_ERROR' && details.length)
    return details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('. ');
  return err.message;
}

export function errorNotice(err: unknown): Notice {
  if (err instanceof AppError) return { kind: 'error', text: problemText(err) };
  throw err;
}

/** Errors of a page become an HTML page with the same status (404 for another account's signal). */
export function dashboardErrors(): Middleware<DashboardState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof RedirectDone) return;
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      ctx.set(err.headers);
      const title = err.status === 404 ? 'Not found' : err.status === 403 ? 'Refused' : 'Something is wrong';
      const text = err.status === 404 ? 'There is nothing here, or it belongs to another account.' : problemText(err);
      send(
        ctx,
        page({
          title,
          session: ctx.state.session,
          notice: { kind: 'error', text },
          body: html`<p><a href="/">Back to the overview</a></p>`,
        }),
        err.status,
      );
    }
  };
}

/** A form turned into its REST body is judged by the REST schema: the same 422 and field names. */
export function validatedBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path or form id that is not a UUID names nothing: it answers like an unknown one, never reaching SQL. */
export const isUuid = (text: string) => UUID.test(text);
