import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound } from '../../../src/errors';
import { DISPLAY_NAMES } from '../../../src/services/integrations';
import { SEQUENCER_PROVIDERS } from '../../../src/services/signals/destinations';
import { connectBody } from '../../routes/integrations';
import { html } from '../html';
import { csrfField, page, type Notice } from '../layout';
import { errorNotice, field, send, signedIn, validatedBody, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';

const TOOL_NAMES: Record<string, string> = DISPLAY_NAMES;

/** Sequencers connect with an API key (checked with the tool, stored encrypted); CRMs by OAuth, next. */
export function integrationRoutes(router: Router<DashboardState>, services: Services): void {
  const { integrations } = services;

  const render = async (ctx: DashboardContext, notice?: Notice, status = 200) => {
    const session = signedIn(ctx);
    const overview = await integrations.overview(session.accountId);
    const sequencers = overview.integrations.filter((i) => i.kind === 'sequencer');
    const crms = overview.integrations.filter((i) => i.kind === 'crm');
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
              These connect once by OAuth from this page; the connection flow arrives with the next release.
            </p>
            <table class="responsive">
              <thead>
                <tr>
                  <th>Tool</th>
                  <th>Status</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${crms.map(
                  (tool) =>
                    html`<tr>
                      <td data-label="Tool">${TOOL_NAMES[tool.provider] ?? tool.provider}</td>
                      <td data-label="Status">
                        ${tool.connected ? html`connected ${tool.accounts.map((a) => dateTime(a.connectedAt))}` : 'not connected'}
                      </td>
                      <td>
                        <button type="button" class="secondary" disabled>Connect with OAuth (coming next)</button>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </section>
          <section class="card">
            <h2>AI assistants</h2>
            <p class="hint">
              Assistant connections made by OAuth will be listed here, each revocable. Until then an assistant uses an
              API key at <code>/mcp</code>.
            </p>
          </section>`,
      }),
      status,
    );
  };

  router.get('/integrations', (ctx) => render(ctx));
  router.post('/integrations/:tool', async (ctx) => {
    const session = signedIn(ctx);
    const tool = String(ctx.params.tool);
    if (!(SEQUENCER_PROVIDERS as readonly string[]).includes(tool)) throw notFound('Integration');
    const form = ctx.state.form as URLSearchParams;
    try {
      const body = validatedBody(connectBody, {
        apiKey: field(form, 'apiKey'),
        ...(field(form, 'label') ? { label: field(form, 'label') } : {}),
      });
      const connected = await integrations.connect(session.accountId, tool, body);
      await render(ctx, { kind: 'ok', text: `${TOOL_NAMES[tool]} connected as "${connected.label}".` });
    } catch (err) {
      await render(ctx, errorNotice(err), (err as AppError).status);
    }
  });
}
