import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError } from '../../../src/errors';
import { SIGN_UP_LINK_HOURS, signUpLinkNotValid } from '../../../src/services/sign-ups';
import { html } from '../html';
import { page, type Notice } from '../layout';
import {
  clearSessionCookie,
  errorNotice,
  field,
  formToken,
  publicOrigin,
  send,
  setSessionCookie,
  signedIn,
  type DashboardContext,
  type DashboardState,
} from '../web';

/** Only a path of this site, so a crafted `next` cannot send a person elsewhere after sign-in. */
const safeNext = (next: string | undefined) => (next && /^\/(?![/\\])/.test(next) ? next : '/');

function credentialsForm(
  ctx: DashboardContext,
  action: string,
  submit: string,
  options: { email?: string; extra?: ReturnType<typeof html>; next?: string; newPassword?: boolean } = {},
) {
  return html`<form class="stack" method="post" action="${action}">
    <input type="hidden" name="_csrf" value="${formToken(ctx)}" />
    ${options.next ? html`<input type="hidden" name="next" value="${options.next}" />` : ''}
    <div>
      <label for="email">Email</label
      ><input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}" />
    </div>
    <div>
      <label for="password"
        >Password ${options.newPassword ? html`<span class="hint">(at least 10 characters)</span>` : ''}</label
      >
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="${options.newPassword ? 'new-password' : 'current-password'}"
        required
        ${options.newPassword ? html`minlength="10"` : ''}
      />
    </div>
    ${options.extra ?? ''}
    <div><button type="submit">${submit}</button></div>
  </form>`;
}

export function signInRoutes(
  router: Router<DashboardState>,
  services: Pick<Services, 'config' | 'members' | 'signUps' | 'memberSessions' | 'signInThrottle' | 'assistantGrants'>,
): void {
  const { members, signUps, memberSessions, signInThrottle, assistantGrants } = services;

  const signInPage = (ctx: DashboardContext, notice?: Notice, email?: string, status = 200) =>
    send(
      ctx,
      page({
        title: 'Sign in',
        notice,
        body: html`<div class="auth">
          ${credentialsForm(ctx, '/sign-in', 'Sign in', { email, next: safeNext(String(ctx.query.next ?? ctx.state.form?.get('next') ?? '')) })}
          ${services.config.SIGN_UP === 'open' ? html`<p>New here? <a href="/sign-up">Create an account</a>.</p>` : ''}
        </div>`,
      }),
      status,
    );

  const signUpPage = (
    ctx: DashboardContext,
    notice?: Notice,
    values: { email?: string; accountName?: string } = {},
    status = 200,
  ) =>
    send(
      ctx,
      page({
        title: 'Create an account',
        notice,
        body: html`<div class="auth">
          ${credentialsForm(ctx, '/sign-up', 'Create account', {
            email: values.email,
            newPassword: true,
            extra: html`<div>
              <label for="accountName">Company or team name <span class="hint">(optional)</span></label>
              <input
                id="accountName"
                name="accountName"
                type="text"
                autocomplete="organization"
                maxlength="255"
                value="${values.accountName ?? ''}"
              />
            </div>`,
          })}
          <p>Already signed up? <a href="/sign-in">Sign in</a>.</p>
        </div>`,
      }),
      status,
    );

  const startSession = async (ctx: DashboardContext, memberId: string, next = '/') => {
    const started = await memberSessions.start(memberId);
    setSessionCookie(ctx, started.token, started.expiresAt);
    ctx.redirect(safeNext(next));
  };

  router.get('/sign-in', (ctx) => (ctx.state.session ? ctx.redirect('/') : signInPage(ctx)));
  router.post('/sign-in', async (ctx) => {
    const email = field(ctx.state.form, 'email');
    const password = ctx.state.form?.get('password') ?? '';
    let attempt;
    try {
      attempt = await signInThrottle.signIn(email, ctx.ip);
    } catch (err) {
      if (err instanceof AppError) ctx.set(err.headers);
      return signInPage(ctx, errorNotice(err), email, 429);
    }
    const member = email && password ? await members.verify(email, password) : null;
    if (!member) return signInPage(ctx, { kind: 'error', text: 'Wrong email or password.' }, email, 401);
    await signInThrottle.succeeded(email, attempt);
    await startSession(ctx, member.id, field(ctx.state.form, 'next'));
  });

  const signUpClosed = services.config.SIGN_UP === 'closed';
  const closedPage = (ctx: DashboardContext) =>
    send(
      ctx,
      page({
        title: 'Sign-up is closed',
        notice: { kind: 'warn', text: 'This service creates accounts by invite only. Ask for an invite link.' },
        body: html`<p><a href="/sign-in">Sign in</a></p>`,
      }),
      403,
    );

  // The same page whether or not the email has a sign-in: only the mail to the address says which.
  const checkEmailPage = (ctx: DashboardContext, email: string) =>
    send(
      ctx,
      page({
        title: 'Check your email',
        body: html`<div class="auth">
          <p>
            We sent a mail to <strong>${email}</strong>. Open the link in it to finish creating your account; it works
            once, for ${SIGN_UP_LINK_HOURS} hours.
          </p>
          <p class="hint">
            If this address already has a sign-in, the mail says so instead. Nothing came? Look in your spam folder, or
            sign up again in a few minutes.
          </p>
          <p><a href="/sign-in">Sign in</a></p>
        </div>`,
      }),
    );

  router.get('/sign-up', (ctx) =>
    ctx.state.session ? ctx.redirect('/') : signUpClosed ? closedPage(ctx) : signUpPage(ctx),
  );
  router.post('/sign-up', async (ctx) => {
    if (signUpClosed) return closedPage(ctx);
    const values = { email: field(ctx.state.form, 'email'), accountName: field(ctx.state.form, 'accountName') };
    const origin = publicOrigin(ctx, services.config);
    try {
      await signInThrottle.signUp(ctx.ip);
      await signUps.request(
        { ...values, password: ctx.state.form?.get('password') ?? '', accountName: values.accountName || undefined },
        { confirm: (token) => `${origin}/sign-up/confirm/${token}`, signIn: `${origin}/sign-in` },
      );
    } catch (err) {
      if (err instanceof AppError) ctx.set(err.headers);
      return signUpPage(ctx, errorNotice(err), values, (err as AppError).status);
    }
    checkEmailPage(ctx, values.email.toLowerCase());
  });

  /** The mailed link's page: a GET changes nothing (mail scanners open links), the button finishes the sign-up. */
  const confirmPage = async (ctx: DashboardContext) => {
    const request = signUpClosed ? null : await signUps.open(String(ctx.params.token));
    if (!request) return linkNotValidPage(ctx, undefined, 410);
    send(
      ctx,
      page({
        title: 'Finish creating your account',
        body: html`<div class="auth">
          <p>This link confirms <strong>${request.email}</strong>. One step left:</p>
          <form class="stack" method="post" action="/sign-up/confirm/${String(ctx.params.token)}">
            <input type="hidden" name="_csrf" value="${ctx.state.session?.csrfToken ?? formToken(ctx)}" />
            <div><button type="submit">Create my account</button></div>
          </form>
        </div>`,
      }),
    );
  };
  const linkNotValidPage = (ctx: DashboardContext, notice: Notice | undefined, status: number) =>
    send(
      ctx,
      page({
        title: 'Sign-up link',
        notice: notice ?? { kind: 'error', text: signUpLinkNotValid().message },
        body: html`<p><a href="/sign-up">Sign up</a> · <a href="/sign-in">Sign in</a></p>`,
      }),
      status,
    );
  router.get('/sign-up/confirm/:token', (ctx) => confirmPage(ctx));
  router.post('/sign-up/confirm/:token', async (ctx) => {
    if (signUpClosed) return linkNotValidPage(ctx, undefined, 410);
    let member;
    try {
      member = await signUps.confirm(String(ctx.params.token));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return linkNotValidPage(ctx, errorNotice(err), err.status);
    }
    if (ctx.state.session) await memberSessions.end(ctx.state.session.sessionId);
    await startSession(ctx, member.id, '/');
  });

  router.post('/sign-out', async (ctx) => {
    const session = signedIn(ctx);
    await memberSessions.end(session.sessionId);
    // The assistant authorization server's own session of this person (14 days) ends with it.
    await assistantGrants.endSignIns(session.memberId);
    clearSessionCookie(ctx);
    ctx.redirect('/sign-in');
  });

  const invitePage = async (ctx: DashboardContext, notice?: Notice, email?: string, status = 200) => {
    const invite = await members.openInvite(String(ctx.params.token));
    if (!invite) {
      return send(
        ctx,
        page({
          title: 'Invite',
          notice: { kind: 'error', text: 'This invite link is unknown, already used or expired. Ask for a new one.' },
          body: html`<p><a href="/sign-in">Sign in</a></p>`,
        }),
        410,
      );
    }
    send(
      ctx,
      page({
        title: `Join ${invite.accountName}`,
        notice,
        body: html`<div class="auth">
          <p>Choose the email and password you will sign in with.</p>
          ${credentialsForm(ctx, `/invites/${ctx.params.token}`, 'Join', { email, newPassword: true })}
        </div>`,
      }),
      status,
    );
  };
  router.get('/invites/:token', (ctx) => invitePage(ctx));
  router.post('/invites/:token', async (ctx) => {
    const email = field(ctx.state.form, 'email');
    try {
      const member = await members.acceptInvite(String(ctx.params.token), {
        email,
        password: ctx.state.form?.get('password') ?? '',
      });
      if (ctx.state.session) await memberSessions.end(ctx.state.session.sessionId);
      await startSession(ctx, member.id, '/');
    } catch (err) {
      await invitePage(ctx, errorNotice(err), email, (err as AppError).status);
    }
  });
}
