import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound, validationError } from '../../../src/errors';
import { PERMISSIONS } from '../../../src/db/entities/api-key';
import { createApiKeyBody } from '../../routes/admin';
import { html, type SafeHtml } from '../html';
import { csrfField, page, postButton, type Notice } from '../layout';
import {
  errorNotice,
  field,
  isUuid,
  send,
  signedIn,
  validatedBody,
  type DashboardContext,
  type DashboardState,
} from '../web';
import { dateTime } from './format';

const SWITCH_WARNING =
  'Every receiver of the signals linked to this key must switch to the new secret: from now on deliveries are signed only with it, and the old secret verifies nothing.';

/** A value shown once, with a copy button (the script copies; without it, the text can be selected). */
const shownOnce = (id: string, label: string, value: string) =>
  html`<p>
    <strong>${label}</strong><br /><code class="secret" id="${id}">${value}</code>
    <button type="button" class="secondary" data-copy="${id}" aria-label="Copy ${label}">Copy</button>
    <span id="${id}-status" role="status"></span>
  </p>`;

const render = async (
  services: Pick<Services, 'apiKeys'>,
  ctx: DashboardContext,
  options: { notice?: Notice; shown?: SafeHtml; status?: number } = {},
) => {
  const { apiKeys } = services;
  const session = signedIn(ctx);
  const keys = await apiKeys.list(session.accountId);
  send(
    ctx,
    page({
      title: 'API keys',
      section: '/api-keys',
      session,
      notice: options.notice,
      body: html`${options.shown ?? ''}
        <section class="card">
          <h2>Create a key</h2>
          <form class="stack" method="post" action="/api-keys">
            ${csrfField(session.csrfToken)}
            <div>
              <label for="keyName">Name</label
              ><input
                id="keyName"
                name="name"
                type="text"
                maxlength="255"
                required
                placeholder="e.g. Production CRM sync"
              />
            </div>
            <fieldset>
              <legend>Permissions</legend>
              ${PERMISSIONS.map(
                (p) => html`<label><input type="checkbox" name="permissions" value="${p}" checked /> ${p}</label>`,
              )}
            </fieldset>
            <div><button type="submit">Create key</button></div>
          </form>
        </section>
        <section class="card">
          <h2>Keys</h2>
          <table class="responsive">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Permissions</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Webhook secret</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${keys.map(
                (k) =>
                  html`<tr>
                    <td data-label="Name">${k.name || 'unnamed'}</td>
                    <td data-label="Key"><code>${k.prefix}…</code></td>
                    <td data-label="Permissions">${k.permissions.join(', ')}</td>
                    <td data-label="Created">${dateTime(k.createdAt)}</td>
                    <td data-label="Last used">
                      ${k.revokedAt ? html`revoked ${dateTime(k.revokedAt)}` : k.lastUsedAt ? dateTime(k.lastUsedAt) : 'never'}
                    </td>
                    <td data-label="Webhook secret">
                      ${
                        k.revokedAt
                          ? ''
                          : html`<div class="actions">
                              ${postButton(session, `/api-keys/${k.id}/webhook-secret`, 'Reveal', { style: 'secondary' })}
                              ${postButton(session, `/api-keys/${k.id}/webhook-secret/regenerate`, 'Regenerate', { style: 'secondary', confirm: SWITCH_WARNING })}
                            </div>`
                      }
                    </td>
                    <td>
                      ${k.revokedAt ? '' : postButton(session, `/api-keys/${k.id}/revoke`, 'Revoke', { style: 'danger', confirm: 'Revoke this key? Calls with it fail from now on.' })}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${keys.length === 0 ? html`<p>No key yet.</p>` : ''}
        </section>`,
    }),
    options.status,
  );
};

const ownedKey = async (services: Pick<Services, 'apiKeys'>, ctx: DashboardContext) => {
  const { apiKeys } = services;
  const session = signedIn(ctx);
  const keyId = String(ctx.params.keyId);
  if (!isUuid(keyId)) throw notFound('API key');
  const key = await apiKeys.requireOwned(session.accountId, keyId);
  if (key.revokedAt) throw notFound('API key');
  return key;
};

const apiKeysPage = (services: Pick<Services, 'apiKeys'>) => (ctx: DashboardContext) => render(services, ctx);

const createApiKey = (services: Pick<Services, 'apiKeys'>) => async (ctx: DashboardContext) => {
  const { apiKeys } = services;
  const session = signedIn(ctx);
  const form = ctx.state.form as URLSearchParams;
  try {
    const body = validatedBody(createApiKeyBody, {
      name: field(form, 'name'),
      permissions: form.getAll('permissions'),
    });
    if (!body.name) throw validationError([{ field: 'name', message: 'give the key a name' }]);
    const created = await apiKeys.create(session.accountId, body);
    await render(services, ctx, {
      shown: html`<div class="notice ok" role="status">
        <p>Key created. Copy it now: it is shown only this once.</p>
        ${shownOnce('new-api-key', 'API key', created.apiKey)}
        ${shownOnce('new-webhook-secret', 'Webhook secret', created.webhookSecret)}
      </div>`,
    });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

const revokeApiKey = (services: Pick<Services, 'apiKeys'>) => async (ctx: DashboardContext) => {
  const { apiKeys } = services;
  const key = await ownedKey(services, ctx);
  await apiKeys.revoke(key.id);
  await render(services, ctx, { notice: { kind: 'ok', text: `Key ${key.keyPrefix}… revoked.` } });
};

// A POST, not a GET: a secret never sits in a URL, the history or a cache, and needs the CSRF token.
const showWebhookSecret = (services: Pick<Services, 'apiKeys'>) => async (ctx: DashboardContext) => {
  const { apiKeys } = services;
  const key = await ownedKey(services, ctx);
  const { webhookSecret } = await apiKeys.revealWebhookSecret(key.accountId, key.id);
  await render(services, ctx, {
    shown: html`<div class="notice ok" role="status">
      ${shownOnce('webhook-secret', `Webhook secret of ${key.name || key.keyPrefix}`, webhookSecret)}
    </div>`,
  });
};

const regenerateWebhookSecret = (services: Pick<Services, 'apiKeys'>) => async (ctx: DashboardContext) => {
  const { apiKeys } = services;
  const key = await ownedKey(services, ctx);
  const { webhookSecret } = await apiKeys.regenerateWebhookSecret(key.id);
  await render(services, ctx, {
    shown: html`<div class="notice warn" role="status">
      <p>New webhook secret. ${SWITCH_WARNING}</p>
      ${shownOnce('webhook-secret', `New webhook secret of ${key.name || key.keyPrefix}`, webhookSecret)}
    </div>`,
  });
};

/** Keys: create (shown once), list by prefix with last use, revoke; each key's webhook secret. */
export function apiKeyRoutes(router: Router<DashboardState>, services: Pick<Services, 'apiKeys'>): void {
  router.get('/api-keys', apiKeysPage(services));
  router.post('/api-keys', createApiKey(services));
  router.post('/api-keys/:keyId/revoke', revokeApiKey(services));
  router.post('/api-keys/:keyId/webhook-secret', showWebhookSecret(services));
  router.post('/api-keys/:keyId/webhook-secret/regenerate', regenerateWebhookSecret(services));
}
