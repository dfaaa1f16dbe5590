import type { MemberSession } from '../../../src/services/member-sessions';
import type { CrmConnectionSummary } from '../../../src/services/crm/connections';
import { CRM_PROVIDERS, type CrmProvider } from '../../../src/services/crm/vendors';
import { DISPLAY_NAMES } from '../../../src/services/integrations';
import { html, type SafeHtml } from '../html';
import { csrfField } from '../layout';

type StoredDestination = { enabled?: boolean; integrationId?: string; spreadsheetId?: string; sheetName?: string };

/**
 * A signal's CRM, Google Sheets and Slack destinations: per tool, off or one of its connections
 * (Sheets also names the spreadsheet and sheet); Slack, on or off and its webhook URL, never
 * shown back but masked. Sequencer destinations are set by the API.
 */
export function destinationsCard(
  session: MemberSession,
  signalId: string,
  destinations: Record<string, unknown>,
  connections: CrmConnectionSummary[],
): SafeHtml {
  const tools = CRM_PROVIDERS.filter((p) => connections.some((c) => c.provider === p));
  const current = (provider: CrmProvider) => (destinations[provider] ?? {}) as StoredDestination;
  const sheets = current('google-sheets');
  const slack = (destinations.slack ?? {}) as { enabled?: boolean; webhookUrl?: string | null };
  return html`<section class="card">
    <h2>CRMs, spreadsheets and Slack</h2>
    <form class="stack" method="post" action="/signals/${signalId}/destinations" id="destinations">
      ${csrfField(session.csrfToken)}
      ${
        tools.length === 0
          ? html`<p>
              No CRM or spreadsheet is connected yet: <a href="/integrations">connect one</a>, then choose it here.
            </p>`
          : tools.map((provider) => {
              const chosen = current(provider).enabled ? current(provider).integrationId : undefined;
              return html`<div>
                <label for="dest-${provider}">Send each lead to ${DISPLAY_NAMES[provider]}</label>
                <select id="dest-${provider}" name="dest-${provider}">
                  <option value="">off</option>
                  ${connections
                    .filter((c) => c.provider === provider)
                    .map(
                      (c) =>
                        html`<option value="${c.integrationId}" ${c.integrationId === chosen ? html`selected` : ''}>
                          ${c.label}${c.status === 'broken' ? ' (broken: reconnect it)' : ''}
                        </option>`,
                    )}
                </select>
              </div>`;
            })
      }
      ${
        tools.includes('google-sheets')
          ? html`<div>
                <label for="sheets-spreadsheet"
                  >Spreadsheet id <span class="hint">(in its URL: /spreadsheets/d/<em>id</em>/edit)</span></label
                >
                <input
                  id="sheets-spreadsheet"
                  name="sheets-spreadsheet"
                  type="text"
                  value="${sheets.spreadsheetId ?? ''}"
                />
              </div>
              <div>
                <label for="sheets-sheet">Sheet</label>
                <input id="sheets-sheet" name="sheets-sheet" type="text" value="${sheets.sheetName ?? 'Leads'}" />
              </div>`
          : ''
      }
      <fieldset>
        <legend>Slack</legend>
        <input type="hidden" name="slack-form" value="1" />
        <label
          ><input type="checkbox" id="slack-enabled" name="slack-enabled" ${slack.enabled ? html`checked` : ''} /> Post
          each lead to a Slack channel</label
        >
        <label for="slack-webhook"
          >Incoming webhook URL
          <span class="hint"
            >${slack.webhookUrl ? `(saved: ${slack.webhookUrl}; leave empty to keep it)` : '(https://hooks.slack.com/services/…)'}</span
          ></label
        >
        <input id="slack-webhook" name="slack-webhook" type="url" autocomplete="off" value="" />
      </fieldset>
      <div><button type="submit">Save destinations</button></div>
    </form>
  </section>`;
}

/** The form as the REST `destinations` patch: a chosen connection enables the tool, "off" removes it. */
export function destinationsPatchOf(
  form: URLSearchParams,
  destinations: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const provider of CRM_PROVIDERS) {
    if (!form.has(`dest-${provider}`)) continue;
    const integrationId = (form.get(`dest-${provider}`) ?? '').trim();
    if (!integrationId) {
      if (destinations[provider] !== undefined) patch[provider] = null;
      continue;
    }
    patch[provider] =
      provider === 'google-sheets'
        ? {
            enabled: true,
            integrationId,
            spreadsheetId: (form.get('sheets-spreadsheet') ?? '').trim(),
            sheetName: (form.get('sheets-sheet') ?? '').trim() || 'Leads',
          }
        : { enabled: true, integrationId };
  }
  if (form.has('slack-form')) {
    const webhookUrl = (form.get('slack-webhook') ?? '').trim();
    const enabled = form.get('slack-enabled') === 'on';
    // An empty URL keeps the saved one (only its masked form is ever shown to re-send).
    if (webhookUrl) patch.slack = { enabled, webhookUrl };
    else if (destinations.slack !== undefined || enabled) patch.slack = { enabled };
  }
  return patch;
}
