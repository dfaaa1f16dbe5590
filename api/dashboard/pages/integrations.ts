import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound } from '../../../src/errors';
import { DISPLAY_NAMES } from '../../../src/services/integrations';
import { SEQUENCER_NAMES } from '../../../src/providers/sequencers';
import { connectBody } from '../../routes/integrations';
import { html } from '../html';
import { csrfField, page, postButton, type Notice } from '../layout';
import {
  errorNotice,
  field,
  isUuid,
  publicOrigin,
  send,
  signedIn,
  validatedBody,
  type DashboardContext,
  type DashboardState,
} from '../web';
import { CRM_PROVIDERS } from '../../../src/services/crm/vendors';
import { crmProviderOf } from '../../../src/services/crm/connections';
import { dateTime } from './format';
import type { CrmSyncStatus } from '../../../src/services/crm/record-sync';

const TOOL_NAMES: Record<string, string> = DISPLAY_NAMES;

const callbackUrl = (services: Pick<Services, 'config'>, ctx: DashboardContext, provider: string) =>
  `${publicOrigin(ctx, services.config)}/integrations/${provider}/callback`;

const render = async (
  services: Pick<Services, 'crmConnections' | 'crmRecordSync' | 'integrations'>,
  ctx: DashboardContext,
  notice?: Notice,
  status = 200,
) => {
  const { crmConnections, integrations } = services;
  const session = signedIn(ctx);
  const overview = await integrations.overview(session.accountId);
  const sequencers = overview.integrations.filter((i) => i.kind === 'sequencer');
  const connections = await crmConnections.list(session.accountId);
  const syncs = new Map((await services.crmRecordSync.statusOf(session.accountId)).map((s) => [s.connectionId, s]));
  send(
    ctx,
    page({
      title: 'Integrations',
      section: '/integrations',
      session,
      notice,
      body: html`<section class="card">
          <h2>Email-sequencing tools</h2>
          ${sequencers.map(
            (tool) =>
              html`<h3>
                  ${TOOL_NAMES[tool.provider] ?? tool.provider}
                  ${tool.connected ? html`<span class="badge active">connected</span>` : html`<span class="badge">not connected</span>`}
                </h3>
                ${
                  tool.accounts.length
                    ? html`<ul>
                        ${tool.accounts.map((a) => html`<li>${a.label} · since ${dateTime(a.connectedAt)}</li>`)}
                      </ul>`
                    : ''
                }
                <form class="stack" method="post" action="/integrations/${tool.provider}">
                  ${csrfField(session.csrfToken)}
                  <div>
                    <label for="${tool.provider}-key"
                      >${TOOL_NAMES[tool.provider] ?? tool.provider} API key
                      <span class="hint">(checked with the tool, stored encrypted, never shown again)</span></label
                    >
                    <input id="${tool.provider}-key" name="apiKey" type="password" autocomplete="off" required />
                  </div>
                  <div>
                    <label for="${tool.provider}-label">Label <span class="hint">(optional)</span></label
                    ><input id="${tool.provider}-label" name="label" type="text" maxlength="255" />
                  </div>
                  <div><button type="submit">${tool.connected ? 'Connect another account' : 'Connect'}</button></div>
                </form>`,
          )}
        </section>
        <section class="card">
          <h2>CRMs and spreadsheets</h2>
          <p class="hint">
            Each connects by OAuth at the tool: you sign in there and allow access. Connect several accounts of one tool
            if you need to; a signal's destination names which.
          </p>
          <table class="responsive" id="crm-connections">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Connection</th>
                <th>Status</th>
                <th>Exclusions sync</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${connections.map(
                (c) =>
                  html`<tr data-provider="${c.provider}">
                    <td data-label="Tool">${TOOL_NAMES[c.provider] ?? c.provider}</td>
                    <td data-label="Connection">
                      ${c.label} · since ${dateTime(c.connectedAt)}<br /><code>${c.integrationId}</code>
                    </td>
                    <td data-label="Status">
                      ${
                        c.status === 'broken'
                          ? html`<span class="badge">broken</span> ${c.brokenReason ?? ''}`
                          : html`<span class="badge active">connected</span>`
                      }
                    </td>
                    <td data-label="Exclusions sync" id="sync-${c.integrationId}">
                      ${crmSyncCell(syncs.get(c.integrationId))}
                    </td>
                    <td>
                      <div class="actions">
                        ${
                          c.status === 'broken'
                            ? html`<a
                                class="button"
                                href="/integrations/${c.provider}/connect?reconnect=${c.integrationId}"
                                >Reconnect</a
                              >`
                            : ''
                        }
                        ${postButton(session, `/integrations/connections/${c.integrationId}/disconnect`, 'Disconnect', {
                          style: 'danger',
                          confirm: 'Disconnect? Signals sending here stop delivering to it.',
                        })}
                      </div>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${connections.length === 0 ? html`<p>Nothing connected yet.</p>` : ''}
          <div class="actions">
            ${CRM_PROVIDERS.map((provider) =>
              crmConnections.isConfigured(provider)
                ? html`<a class="button" id="connect-${provider}" href="/integrations/${provider}/connect"
                    >Connect ${TOOL_NAMES[provider] ?? provider}</a
                  >`
                : html`<span class="hint" id="connect-${provider}"
                    >${TOOL_NAMES[provider] ?? provider}: not configured on this service</span
                  >`,
            )}
          </div>
        </section>
        <section class="card">
          <h2>AI assistants</h2>
          <p class="hint">
            Assistants sign in with OAuth at <code>/mcp</code>; see and revoke them under
            <a href="/assistants">Assistants</a>.
          </p>
        </section>`,
    }),
    status,
  );
};

const integrationsPage =
  (services: Pick<Services, 'crmConnections' | 'crmRecordSync' | 'integrations'>) => (ctx: DashboardContext) =>
    render(services, ctx);

// A link, not a form: the page's form-action allows only this site, and the vendor is another.
const connectCrm = (services: Pick<Services, 'config' | 'crmConnections'>) => async (ctx: DashboardContext) => {
  const { crmConnections } = services;
  const session = signedIn(ctx);
  const provider = crmProviderOf(String(ctx.params.tool));
  const reconnect = typeof ctx.query.reconnect === 'string' ? ctx.query.reconnect : undefined;
  if (reconnect !== undefined && !isUuid(reconnect)) throw notFound('Connection');
  const url = await crmConnections.startAuthorization({
    accountId: session.accountId,
    memberId: session.memberId,
    provider,
    redirectUri: callbackUrl(services, ctx, provider),
    ...(reconnect ? { reconnectId: reconnect } : {}),
  });
  ctx.redirect(url.href);
};

const crmCallback =
  (services: Pick<Services, 'config' | 'crmConnections' | 'crmRecordSync' | 'integrations'>) =>
  async (ctx: DashboardContext) => {
    const { crmConnections } = services;
    const session = signedIn(ctx);
    const provider = crmProviderOf(String(ctx.params.tool));
    try {
      const connected = await crmConnections.completeAuthorization({
        memberId: session.memberId,
        provider,
        callbackUrl: new URL(ctx.originalUrl, publicOrigin(ctx, services.config)),
        redirectUri: callbackUrl(services, ctx, provider),
        label: session.email,
      });
      await render(services, ctx, { kind: 'ok', text: `${TOOL_NAMES[provider]} connected (${connected.label}).` });
    } catch (err) {
      await render(services, ctx, errorNotice(err), (err as AppError).status);
    }
  };

const disconnectCrm =
  (services: Pick<Services, 'crmConnections' | 'crmRecordSync' | 'crmSyncSchedules' | 'integrations'>) =>
  async (ctx: DashboardContext) => {
    const { crmConnections } = services;
    const session = signedIn(ctx);
    const id = String(ctx.params.id);
    if (!isUuid(id)) throw notFound('Connection');
    const { revoked } = await crmConnections.disconnect(session.accountId, id);
    await services.crmSyncSchedules.remove(id);
    await render(services, ctx, {
      kind: 'ok',
      text: revoked ? 'Disconnected, and the access was revoked at the tool.' : 'Disconnected.',
    });
  };

const connectSequencer =
  (services: Pick<Services, 'crmConnections' | 'crmRecordSync' | 'integrations'>) => async (ctx: DashboardContext) => {
    const { integrations } = services;
    const session = signedIn(ctx);
    const tool = String(ctx.params.tool);
    if (!(SEQUENCER_NAMES as readonly string[]).includes(tool)) throw notFound('Integration');
    const form = ctx.state.form as URLSearchParams;
    try {
      const body = validatedBody(connectBody, {
        apiKey: field(form, 'apiKey'),
        ...(field(form, 'label') ? { label: field(form, 'label') } : {}),
      });
      const connected = await integrations.connect(session.accountId, tool, body);
      await render(services, ctx, { kind: 'ok', text: `${TOOL_NAMES[tool]} connected as "${connected.label}".` });
    } catch (err) {
      await render(services, ctx, errorNotice(err), (err as AppError).status);
    }
  };

/** Sequencers connect with an API key (checked with the tool, stored encrypted); CRMs and Sheets by OAuth at the tool. */
export function integrationRoutes(router: Router<DashboardState>, services: Services): void {
  router.get('/integrations', integrationsPage(services));
  router.get('/integrations/:tool/connect', connectCrm(services));
  router.get('/integrations/:tool/callback', crmCallback(services));
  router.post('/integrations/connections/:id/disconnect', disconnectCrm(services));
  router.post('/integrations/:tool', connectSequencer(services));
}

/** The sync of a CRM's contacts and companies for signals' exclusions: last run, records held, what went wrong. */
function crmSyncCell(sync: CrmSyncStatus | undefined) {
  if (!sync) return html`<span class="hint">not a CRM with contacts</span>`;
  if (!sync.lastRunAt) return html`<span class="hint">not synced: no signal excludes its records yet</span>`;
  const held = `${sync.emails} emails, ${sync.domains} domains`;
  return html`last run ${dateTime(sync.lastRunAt)} · ${held}
  ${sync.lastSuccessAt ? html`<br />last complete ${dateTime(sync.lastSuccessAt)}` : ''}
  ${
    sync.connectionStatus === 'broken'
      ? html`<br /><span class="badge">not excluding</span> the connection is broken: nothing is excluded until you
          reconnect (the ${held} synced before are kept for then)`
      : sync.error
        ? html`<br /><span class="badge">error</span> ${sync.error}`
        : ''
  }`;
}
