import type { MemberSession } from '../../../src/services/member-sessions';
import type { CrmConnectionSummary } from '../../../src/services/crm/connections';
import { DISPLAY_NAMES } from '../../../src/services/integrations';
import { registeredDestinations } from '../../../src/destinations/registry';
import { fieldsOf, type Destination, type FormField } from '../../../src/destinations/kit/destination';
import { html, type SafeHtml } from '../html';
import { csrfField } from '../layout';

/**
 * A signal's destinations as each one's module describes its form (src/destinations): per tool
 * connected by OAuth, off or one of its connections, with the tool's own fields (Sheets' spreadsheet
 * and sheet); a destination with a section of its own (Slack) shows it always. Sequencer
 * destinations are set by the API.
 */
export function destinationsCard(
  session: MemberSession,
  signalId: string,
  destinations: Record<string, unknown>,
  connections: CrmConnectionSummary[],
): SafeHtml {
  const registered = registeredDestinations();
  const tools = registered.filter(
    (d) => d.dashboard?.kind === 'connection' && connections.some((c) => c.provider === d.kind),
  );
  const sections = registered.filter((d) => d.dashboard?.kind === 'section');
  return html`<section class="card">
    <h2>CRMs, spreadsheets and Slack</h2>
    <form class="stack" method="post" action="/signals/${signalId}/destinations" id="destinations">
      ${csrfField(session.csrfToken)}
      ${
        tools.length === 0
          ? html`<p>
              No CRM or spreadsheet is connected yet: <a href="/integrations">connect one</a>, then choose it here.
            </p>`
          : tools.map((tool) => connectionChoice(tool, destinations[tool.kind], connections))
      }
      ${tools.map((tool) => (tool.dashboard?.fields ?? []).map((field) => fieldOf(field, destinations[tool.kind])))}
      ${sections.map(
        (d) =>
          html`<fieldset>
            <legend>${d.dashboard?.kind === 'section' ? d.dashboard.legend : d.kind}</legend>
            <input type="hidden" name="${d.kind}-form" value="1" />
            ${(d.dashboard?.fields ?? []).map((field) => fieldOf(field, destinations[d.kind]))}
          </fieldset>`,
      )}
      <div><button type="submit">Save destinations</button></div>
    </form>
  </section>`;
}

/** Off, or one of the account's connections of the tool (a broken one says so). */
function connectionChoice(tool: Destination, stored: unknown, connections: CrmConnectionSummary[]): SafeHtml {
  const { enabled, integrationId } = fieldsOf(stored);
  const chosen = enabled ? integrationId : undefined;
  const name = (DISPLAY_NAMES as Record<string, string>)[tool.kind] ?? tool.kind;
  return html`<div>
    <label for="dest-${tool.kind}">Send each lead to ${name}</label>
    <select id="dest-${tool.kind}" name="dest-${tool.kind}">
      <option value="">off</option>
      ${connections
        .filter((c) => c.provider === tool.kind)
        .map(
          (c) =>
            html`<option value="${c.integrationId}" ${c.integrationId === chosen ? html`selected` : ''}>
              ${c.label}${c.status === 'broken' ? ' (broken: reconnect it)' : ''}
            </option>`,
        )}
    </select>
  </div>`;
}

function fieldOf(field: FormField, stored: unknown): SafeHtml {
  const settings = fieldsOf(stored);
  const hint = field.hint?.(settings);
  if (field.input === 'checkbox') {
    return html`<label
      ><input
        type="checkbox"
        id="${field.id}"
        name="${field.id}"
        ${field.value(settings) === true ? html`checked` : ''}
      />
      ${field.label}</label
    >`;
  }
  // A secret is never shown back: its hint says what is saved, masked.
  return html`<div>
    <label for="${field.id}">${field.label}${hint ? html` <span class="hint">${hint}</span>` : ''}</label>
    <input
      id="${field.id}"
      name="${field.id}"
      type="${field.input}"
      ${field.secret ? html`autocomplete="off"` : ''}
      value="${field.secret ? '' : String(field.value(settings))}"
    />
  </div>`;
}
