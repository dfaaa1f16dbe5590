import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound } from '../../../src/errors';
import { PERMISSIONS, type Permission } from '../../../src/db/entities/api-key';
import { permissionsOf } from '../../../src/services/assistant-grants';
import { CONSENT_PATH, type AssistantAuthorization } from '../../oauth/authorization-server';
import { CONTENT_SECURITY_POLICY } from '../security-headers';
import { html } from '../html';
import { csrfField, page, postButton, type Notice } from '../layout';
import { isUuid, send, signedIn, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';

const WHAT_IT_MAY_DO: Record<Permission, string> = {
  read: 'read your signals, leads, deliveries and credits',
  write: 'create, change, pause and delete signals',
  enrich: 'look up contacts, which spends credits',
};

/** The sign-in attempt behind the page, read from the authorization server's interaction cookie. */
const interactionOf = async (authorization: AssistantAuthorization, ctx: DashboardContext) => {
  const provider = authorization.providerFor(authorization.originOf(ctx));
  const details = await provider.interactionDetails(ctx.req, ctx.res).catch(() => null);
  if (!details || details.uid !== ctx.params.uid)
    throw new AppError(
      400,
      'SIGN_IN_EXPIRED',
      "This assistant's sign-in has expired or was started in another browser. Start it again from the assistant.",
    );
  const clientId = String(details.params.client_id);
  const client = await provider.Client.find(clientId);
  if (!client) throw notFound('Assistant');
  const redirectUri = String(details.params.redirect_uri);
  return {
    provider,
    details,
    clientId,
    clientName: client.clientName ? String(client.clientName) : clientId,
    redirectUri,
    resource: String(details.params.resource ?? authorization.resourceUrl(authorization.originOf(ctx))),
    requested: permissionsOf(String(details.params.scope ?? PERMISSIONS.join(' '))),
    scopes: String(details.params.scope ?? PERMISSIONS.join(' '))
      .split(' ')
      .filter(Boolean),
  };
};

/** The form leaves for the assistant's redirect URL in the end: the page's CSP must allow it. */
const allowFormTo = (ctx: DashboardContext, redirectUri: string) => {
  const target = new URL(redirectUri);
  const source = target.protocol === 'https:' || target.protocol === 'http:' ? target.origin : target.protocol;
  ctx.set(
    'Content-Security-Policy',
    CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${source}`),
  );
};

const consentPage = (authorization: AssistantAuthorization) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const asked = await interactionOf(authorization, ctx);
  allowFormTo(ctx, asked.redirectUri);
  const requested = asked.requested.length ? asked.requested : [...PERMISSIONS];
  send(
    ctx,
    page({
      title: 'Let an assistant in?',
      session,
      body: html`<section class="card">
        <p>
          <strong id="assistant-name">${asked.clientName}</strong> asks to use this account's tools as
          <strong id="signed-in-as">${session.email}</strong>. It will come back to
          <code>${new URL(asked.redirectUri).host}</code>.
        </p>
        <form class="stack" method="post" action="${CONSENT_PATH}/${asked.details.uid}">
          ${csrfField(session.csrfToken)}
          <fieldset>
            <legend>It may</legend>
            ${requested.map(
              (p) =>
                html`<label
                  ><input type="checkbox" name="permissions" value="${p}" checked /> ${p}: ${WHAT_IT_MAY_DO[p]}</label
                >`,
            )}
          </fieldset>
          <p class="hint">Calls it makes spend this account's credits and share its rate limit, as an API key does.</p>
          <div class="actions">
            <button type="submit" name="decision" value="allow">Allow</button>
            <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
          </div>
        </form>
      </section>`,
    }),
  );
};

const decideConsent =
  (services: Pick<Services, 'assistantGrants'>, authorization: AssistantAuthorization) =>
  async (ctx: DashboardContext) => {
    const { assistantGrants } = services;
    const session = signedIn(ctx);
    const asked = await interactionOf(authorization, ctx);
    const form = ctx.state.form as URLSearchParams;
    const chosen = permissionsOf(form.getAll('permissions').join(' ')).filter((p) => asked.requested.includes(p));
    let result;
    if (form.get('decision') !== 'allow' || chosen.length === 0) {
      result = { error: 'access_denied', error_description: 'The person did not let the assistant in' };
    } else {
      const { provider, details } = asked;
      // The sign-in is always the person signed in here: another person's sign-in left in this
      // browser (the provider's session outlives the dashboard's) ends, and its grant is not theirs.
      const signedInThere = details.session?.accountId;
      if (signedInThere !== undefined && signedInThere !== session.memberId) {
        const theirs = details.session?.uid ? await provider.Session.findByUid(details.session.uid) : undefined;
        await theirs?.destroy();
        details.session = undefined;
        details.grantId = undefined;
        await details.persist();
      }
      // The grant the provider's session knows, else the one this person gave the assistant before.
      const knownId = details.grantId ?? (await assistantGrants.oauthGrantIdOf(session.memberId, asked.clientId));
      const existing = knownId ? await provider.Grant.find(knownId) : undefined;
      // The oidc-provider account is the person; the grant row ties it to their account.
      const grant =
        existing && existing.accountId === session.memberId && existing.clientId === asked.clientId
          ? existing
          : new provider.Grant({ accountId: session.memberId, clientId: asked.clientId });
      // The token's scope comes from the resource's; the issuer's own list has them too (see authorization-server.ts).
      // This consent is the whole grant: what the person ticked, and the rest of what was asked
      // refused (the provider asks again for a scope neither granted nor refused).
      Object.assign(grant, { openid: undefined, resources: undefined, rejected: undefined });
      grant.addResourceScope(asked.resource, chosen.join(' '));
      grant.addOIDCScope(chosen.join(' '));
      const refused = asked.scopes.filter((s) => !(chosen as string[]).includes(s)).join(' ');
      if (refused) {
        grant.rejectResourceScope(asked.resource, refused);
        grant.rejectOIDCScope(refused);
      }
      const oauthGrantId = await grant.save();
      await assistantGrants.record({
        accountId: session.accountId,
        memberId: session.memberId,
        oauthGrantId,
        clientId: asked.clientId,
        clientName: asked.clientName,
        permissions: chosen,
      });
      result = {
        ...(details.prompt.name === 'login' || signedInThere !== session.memberId
          ? { login: { accountId: session.memberId } }
          : {}),
        consent: { grantId: oauthGrantId },
      };
    }
    const returnTo = await asked.provider.interactionResult(ctx.req, ctx.res, result, {
      mergeWithLastSubmission: false,
    });
    ctx.status = 303;
    ctx.redirect(returnTo);
  };

const render = async (
  services: Pick<Services, 'assistantGrants'>,
  authorization: AssistantAuthorization,
  ctx: DashboardContext,
  notice?: Notice,
) => {
  const { assistantGrants } = services;
  const session = signedIn(ctx);
  const grants = await assistantGrants.list(session.accountId);
  const origin = authorization.originOf(ctx);
  send(
    ctx,
    page({
      title: 'Assistants',
      section: '/assistants',
      session,
      notice,
      body: html`<section class="card">
          <p>
            Assistants (Claude, ChatGPT, editors) reach this account's tools at
            <code>${authorization.resourceUrl(origin)}</code>. Add that URL to the assistant; it signs in here.
          </p>
        </section>
        <section class="card">
          <h2>Let in</h2>
          <table class="responsive">
            <thead>
              <tr>
                <th>Assistant</th>
                <th>Granted by</th>
                <th>May</th>
                <th>Granted</th>
                <th>Last used</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${grants.map(
                (g) =>
                  html`<tr>
                    <td data-label="Assistant">${g.clientName}</td>
                    <td data-label="Granted by">${g.grantedBy}</td>
                    <td data-label="May">${g.permissions.join(', ')}</td>
                    <td data-label="Granted">${dateTime(g.createdAt)}</td>
                    <td data-label="Last used">${g.lastUsedAt ? dateTime(g.lastUsedAt) : 'never'}</td>
                    <td>
                      ${postButton(session, `/assistants/${g.id}/revoke`, 'Revoke', {
                        style: 'danger',
                        confirm: `Revoke ${g.clientName}? Its next call is refused.`,
                      })}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${grants.length === 0 ? html`<p>No assistant yet.</p>` : ''}
        </section>`,
    }),
  );
};

const assistantsPage =
  (services: Pick<Services, 'assistantGrants'>, authorization: AssistantAuthorization) => (ctx: DashboardContext) =>
    render(services, authorization, ctx);

const revokeAssistant =
  (services: Pick<Services, 'assistantGrants'>, authorization: AssistantAuthorization) =>
  async (ctx: DashboardContext) => {
    const { assistantGrants } = services;
    const session = signedIn(ctx);
    const grantId = String(ctx.params.grantId);
    if (!isUuid(grantId)) throw notFound('Assistant');
    await assistantGrants.revoke(session.accountId, grantId);
    await render(services, authorization, ctx, { kind: 'ok', text: 'Assistant revoked: its next call is refused.' });
  };

/**
 * Assistants signing in to /mcp: the consent page the authorization server sends a person to
 * (signed in first, as any page), and the list of assistants let in, each revocable.
 */
export function assistantRoutes(
  router: Router<DashboardState>,
  services: Services,
  authorization: AssistantAuthorization,
): void {
  router.get(`${CONSENT_PATH}/:uid`, consentPage(authorization));
  router.post(`${CONSENT_PATH}/:uid`, decideConsent(services, authorization));
  router.get('/assistants', assistantsPage(services, authorization));
  router.post('/assistants/:grantId/revoke', revokeAssistant(services, authorization));
}
