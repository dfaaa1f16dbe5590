import { html, type SafeHtml } from '../../html';
import type { LoggedLead } from '../../../../src/services/delivery-log';
import { dateTime } from '../format';
import { statusBadge } from '../signal-parts';

const textOf = (value: unknown) =>
  value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value).trim();
/** A value that is a web address becomes a link; anything else stays text (no javascript: links). */
const linkOrText = (value: string) =>
  /^https?:\/\//i.test(value) ? html`<a href="${value}" rel="noreferrer">${value}</a>` : value;
/** Label and value pairs, the empty ones left out. */
function facts(pairs: Array<[string, unknown]>): SafeHtml | '' {
  const shown = pairs.map(([label, value]) => [label, textOf(value)] as const).filter(([, value]) => value !== '');
  return shown.length
    ? html`<dl class="lead-facts">
        ${shown.map(
          ([label, value]) =>
            html`<dt>${label}</dt>
              <dd>${linkOrText(value)}</dd>`,
        )}
      </dl>`
    : '';
}
/** Signal fields the headings above already say (the signal itself, the job change's two jobs). */
const SHOWN_ELSEWHERE = new Set([
  'id',
  'name',
  'type',
  'last_signal',
  'last_signal_date',
  'previous_title',
  'previous_company',
  'new_title',
  'new_company',
  'is_test',
  'is_replay',
  // The account score's breakdown is a table on the lead's own page ("Why this lead").
  'score_breakdown',
]);

/** What a lead is about, shown when it is expanded: the person, the company, the job change, the event's own fields. */
function leadDetails(lead: LoggedLead): SafeHtml {
  const contact = lead.payload.contact === '' || lead.payload.contact === null ? null : lead.payload.contact;
  const { company, signal } = lead.payload;
  const eventFields = Object.entries(signal)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]): [string, unknown] => [key.replace(/_/g, ' '), value]);
  const changedJob = textOf(signal.previous_title) || textOf(signal.previous_company);
  return html`<div class="lead-details">
    ${
      contact
        ? html`<h3>Person</h3>
            ${facts([
              ['Name', `${textOf(contact.first_name)} ${textOf(contact.last_name)}`],
              ['Title', contact.title],
              ['Persona', contact.matched_persona],
              ['Email', contact.email],
              ['Phone', contact.phone],
              ['Location', contact.location],
              ['Profile', contact.linkedin_profile_url],
            ])}`
        : ''
    }
    <h3>Company</h3>
    ${facts([
      ['Name', company.name],
      ['Website', company.website],
      ['Company page', company.linkedin_url],
      ['Industry', company.industry],
      ['Size', company.employee_range],
      ['Headquarters', company.headquarters || company.location],
      ['Description', company.description],
    ])}
    ${
      changedJob
        ? html`<h3>The job change</h3>
            ${facts([
              ['Before', [textOf(signal.previous_title), textOf(signal.previous_company)].filter(Boolean).join(' at ')],
              ['Now', [textOf(signal.new_title), textOf(signal.new_company)].filter(Boolean).join(' at ')],
            ])}`
        : ''
    }
    <h3>Why it is a lead</h3>
    ${facts([['Event', signal.last_signal], ['On', signal.last_signal_date], ...eventFields])}
    <p><a href="/leads/${lead.id}">Why this lead: its events, their sources and the conditions it met</a></p>
  </div>`;
}

export function leadEntry(lead: LoggedLead): SafeHtml {
  const contact = lead.payload.contact === '' ? null : lead.payload.contact;
  const who = contact ? `${contact.first_name ?? ''} ${contact.last_name ?? ''}`.trim() : '';
  const title = contact?.title ? String(contact.title) : '';
  const statuses = lead.deliveries.map((d) => d.status);
  return html`<details class="lead" id="lead-${lead.id}">
    <summary>
      <strong>${who || String(lead.payload.company.name ?? '')}</strong>${title ? ` · ${title}` : ''} ·
      ${String(lead.payload.company.name ?? '')} · ${String(lead.payload.signal.last_signal ?? '')} ·
      ${dateTime(lead.createdAt)}
      ${lead.deliveries.length ? lead.deliveries.map((d) => html` ${statusBadge(d.status)}`) : html` <span class="hint">no delivery (polling)</span>`}
      <span class="visually-hidden">deliveries: ${statuses.join(', ')}</span>
    </summary>
    ${leadDetails(lead)}
    ${lead.deliveries.map(
      (d) =>
        html`<h3 class="hint delivery">
            Delivery ${d.id} to ${d.route}${d.kind === 'replay' ? ' (replay)' : ''}:
            ${d.status}${d.nextAttemptAt ? ` · next attempt ${dateTime(d.nextAttemptAt)}` : ''}
          </h3>
          <table class="responsive delivery-log">
            <thead>
              <tr>
                <th>Attempt</th>
                <th>Time</th>
                <th>Route</th>
                <th>Answer</th>
                <th>Took</th>
              </tr>
            </thead>
            <tbody>
              ${d.attempts.map(
                (a) =>
                  html`<tr>
                    <td data-label="Attempt">${a.attempt}</td>
                    <td data-label="Time">${dateTime(a.at)}</td>
                    <td data-label="Route">${d.route}</td>
                    <td data-label="Answer">
                      ${a.statusCode !== null ? `HTTP ${a.statusCode}` : ''}${a.error ? ` ${a.error}` : ''}
                    </td>
                    <td data-label="Took">${a.durationMs} ms</td>
                  </tr>`,
              )}
              ${
                d.attempts.length === 0
                  ? html`<tr>
                      <td colspan="5">No attempt yet.</td>
                    </tr>`
                  : ''
              }
            </tbody>
          </table>`,
    )}
  </details>`;
}
