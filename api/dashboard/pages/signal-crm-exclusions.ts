import type { MemberSession } from '../../../src/services/member-sessions';
import type { CrmConnectionSummary } from '../../../src/services/crm/connections';
import { isExcludableCrm } from '../../../src/services/crm/record-sync';
import { DISPLAY_NAMES } from '../../../src/services/integrations';
import type { CrmExclusions } from '../../../src/db/entities/signal';
import { html, type SafeHtml } from '../html';
import { csrfField } from '../layout';

/**
 * A signal's exclusions from the customer's CRM: a HubSpot, Salesforce or Pipedrive connection
 * (or none) and what to leave out, its contacts and its companies. Saved as the REST
 * `crmExclusions` field.
 */
export function crmExclusionsCard(
  session: MemberSession,
  signalId: string,
  current: CrmExclusions | undefined,
  connections: CrmConnectionSummary[],
): SafeHtml {
  const crms = connections.filter((c) => isExcludableCrm(c.provider));
  const checked = (on: boolean | undefined) => (on ? html`checked` : '');
  return html`<section class="card">
    <h2>Exclusions from your CRM</h2>
    ${
      crms.length === 0
        ? html`<p>
            Connect HubSpot, Salesforce or Pipedrive on the <a href="/integrations">integrations page</a> to leave out
            people and companies already in it.
          </p>`
        : html`<form class="stack" method="post" action="/signals/${signalId}/crm-exclusions" id="crm-exclusions">
            ${csrfField(session.csrfToken)}
            <p class="hint">
              Read from a copy synced every 15 minutes (status on the integrations page): an excluded person is never a
              lead, so never charged.
            </p>
            <div>
              <label for="crm-exclusions-connection">CRM</label>
              <select id="crm-exclusions-connection" name="connectionId">
                <option value="">none</option>
                ${crms.map(
                  (c) =>
                    html`<option
                      value="${c.integrationId}"
                      ${c.integrationId === current?.connectionId ? html`selected` : ''}
                    >
                      ${DISPLAY_NAMES[c.provider] ?? c.provider}:
                      ${c.label}${c.status === 'broken' ? ' (broken: reconnect it)' : ''}
                    </option>`,
                )}
              </select>
            </div>
            <label
              ><input
                type="checkbox"
                id="exclude-contacts"
                name="excludeExistingCrmContacts"
                value="true"
                ${checked(current?.excludeExistingCrmContacts)}
              />
              Leave out people whose email is in the CRM</label
            >
            <label
              ><input
                type="checkbox"
                id="exclude-companies"
                name="excludeCrmCompanies"
                value="true"
                ${checked(current?.excludeCrmCompanies)}
              />
              Leave out companies whose domain is in the CRM</label
            >
            <div><button type="submit">Save exclusions</button></div>
          </form>`
    }
  </section>`;
}

/** The form as the REST `crmExclusions` field: no connection chosen turns them off. */
export function crmExclusionsOf(form: URLSearchParams): Record<string, unknown> | null {
  const connectionId = (form.get('connectionId') ?? '').trim();
  if (!connectionId) return null;
  return {
    connectionId,
    excludeExistingCrmContacts: form.get('excludeExistingCrmContacts') === 'true',
    excludeCrmCompanies: form.get('excludeCrmCompanies') === 'true',
  };
}
