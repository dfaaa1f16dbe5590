import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError } from '../../../src/errors';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Notice } from '../layout';
import { errorNotice, send, signedIn, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';
import { siteOrigin } from '../../context';

const render = async (
  services: Pick<Services, 'members'>,
  ctx: DashboardContext,
  options: { notice?: Notice; inviteUrl?: string; status?: number } = {},
) => {
  const { members } = services;
  const session = signedIn(ctx);
  const [people, invites] = await Promise.all([
    members.list(session.accountId),
    members.pendingInvites(session.accountId),
  ]);
  const owner = session.role === 'owner';
  let inviteBox: SafeHtml = html``;
  if (options.inviteUrl) {
    inviteBox = html`<div class="notice ok" role="status">
      <p>Send this link to the person you invite. It works once, for 7 days, and is shown only now.</p>
      <p>
        <code class="secret" id="invite-link">${options.inviteUrl}</code>
        <button type="button" class="secondary" data-copy="invite-link">Copy link</button>
        <span id="invite-link-status" role="status"></span>
      </p>
    </div>`;
  }
  send(
    ctx,
    page({
      title: 'Team',
      section: '/team',
      session,
      notice: options.notice,
      body: html`${inviteBox}
        <section class="card">
          <h2>People</h2>
          <table class="responsive">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Since</th>
              </tr>
            </thead>
            <tbody>
              ${people.map(
                (p) =>
                  html`<tr>
                    <td data-label="Email">${p.email}</td>
                    <td data-label="Role">${p.role}</td>
                    <td data-label="Since">${dateTime(p.createdAt)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${
            owner
              ? html`<h2>Invite someone</h2>
                  <p class="hint">No email is sent: the page shows a link to pass on.</p>
                  <form method="post" action="/team/invites">
                    ${csrfField(session.csrfToken)}<button type="submit">Create invite link</button>
                  </form>
                  ${invites.length ? html`<p class="hint">${invites.length} open invite link(s); the oldest expires ${dateTime(invites[invites.length - 1]!.expiresAt)}.</p>` : ''}`
              : html`<p class="hint">Only an owner of the account can invite people.</p>`
          }
        </section>
        <section class="card">
          <h2>Change your password</h2>
          <form class="stack" method="post" action="/team/password">
            ${csrfField(session.csrfToken)}
            <div>
              <label for="currentPassword">Current password</label
              ><input
                id="currentPassword"
                name="currentPassword"
                type="password"
                autocomplete="current-password"
                required
              />
            </div>
            <div>
              <label for="newPassword"
                >New password
                <span class="hint">(at least 10 characters; your other sessions are signed out)</span></label
              >
              <input
                id="newPassword"
                name="newPassword"
                type="password"
                autocomplete="new-password"
                minlength="10"
                required
              />
            </div>
            <div><button type="submit">Change password</button></div>
          </form>
        </section>`,
    }),
    options.status,
  );
};

const teamPage = (services: Pick<Services, 'members'>) => (ctx: DashboardContext) => render(services, ctx);

const inviteMember = (services: Pick<Services, 'config' | 'members'>) => async (ctx: DashboardContext) => {
  const { members } = services;
  const session = signedIn(ctx);
  if (session.role !== 'owner') throw new AppError(403, 'FORBIDDEN', 'Only an owner of the account can invite people');
  const invite = await members.createInvite(session.accountId, { createdBy: session.memberId });
  await render(services, ctx, { inviteUrl: `${siteOrigin(ctx, services.config)}/invites/${invite.token}` });
};

const changePassword = (services: Pick<Services, 'memberSessions' | 'members'>) => async (ctx: DashboardContext) => {
  const { memberSessions, members } = services;
  const session = signedIn(ctx);
  try {
    await members.changePassword(session.memberId, {
      currentPassword: ctx.state.form?.get('currentPassword') ?? '',
      newPassword: ctx.state.form?.get('newPassword') ?? '',
    });
    const ended = await memberSessions.endOthers(session.memberId, session.sessionId);
    await render(services, ctx, {
      notice: { kind: 'ok', text: `Password changed; ${ended} other session(s) signed out.` },
    });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

/** The people of the account, invite links (owners only) and the signed-in person's password. */
export function teamRoutes(
  router: Router<DashboardState>,
  services: Pick<Services, 'config' | 'members' | 'memberSessions'>,
): void {
  router.get('/team', teamPage(services));
  router.post('/team/invites', inviteMember(services));
  router.post('/team/password', changePassword(services));
}
