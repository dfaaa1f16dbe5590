import { listPersonas } from '../../../src/catalogue/personas';
import { listIndustries } from '../../../src/catalogue/industries';
import { COMPANY_SIZE_BANDS } from '../../../src/catalogue/company-sizes';
import { DEFAULT_WATCHLIST_SOURCES, WATCHLIST_EVENT_KEYS } from '../../../src/catalogue/watchlist-events';
import type { SignalResource } from '../../../src/services/signals/resource';
import type { ApiKeySummary } from '../../../src/services/api-keys';
import type { MemberSession } from '../../../src/services/member-sessions';
import { html, type SafeHtml } from '../html';
import { csrfField } from '../layout';
import { field, lines } from '../web';
import { dateTime } from './format';

export type SignalKind = 'job-changes' | 'account-watchlist';
export const KIND_OF_TYPE: Record<string, SignalKind> = {
  job_changes: 'job-changes',
  account_watchlist: 'account-watchlist',
};
export const TYPE_LABEL: Record<string, string> = {
  job_changes: 'Job changes',
  account_watchlist: 'Account watchlist',
};

export const statusBadge = (status: string) => html`<span class="badge ${status}">${status}</span>`;

export function signalTable(signals: SignalResource[]): SafeHtml {
  return html`<table class="responsive">
    <thead>
      <tr>
        <th>Name</th>
        <th>Status</th>
        <th>Type</th>
        <th>Leads today</th>
        <th>Leads in total</th>
        <th>Daily cap</th>
        <th>Last lead</th>
      </tr>
    </thead>
    <tbody>
      ${signals.map(
        (s) =>
          html`<tr>
            <td data-label="Name"><a href="/signals/${s.id}">${s.name}</a></td>
            <td data-label="Status">${statusBadge(s.status)}</td>
            <td data-label="Type">${TYPE_LABEL[s.signalTypeId] ?? s.signalTypeId}</td>
            <td data-label="Leads today">${s.leadsToday}</td>
            <td data-label="Leads in total">${s.leadsTotal}</td>
            <td data-label="Daily cap">${s.dailyLeadLimit}</td>
            <td data-label="Last lead">${dateTime(s.lastLeadAt)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** What the form shows: a stored signal, the values just submitted, or nothing for a new one. */
export type FormValues = URLSearchParams;

/** The stored signal as the form's fields, so editing starts from what is saved. */
export function valuesOfSignal(signal: SignalResource): FormValues {
  const v = new URLSearchParams();
  const config = (signal.config ?? {}) as Record<string, unknown>;
  v.set('name', signal.name);
  v.set('webhookUrl', signal.webhookUrl ?? '');
  v.set('dailyLeadLimit', String(signal.dailyLeadLimit));
  v.set('duplicateHandling', signal.duplicateHandling);
  const list = (key: string) => (Array.isArray(config[key]) ? (config[key] as string[]) : []);
  for (const key of ['jobTitles', 'companySizeFilters', 'industryFilters', 'targetPersonas'])
    for (const item of list(key)) v.append(key, item);
  v.set('customTitles', list('customTitles').join('\n'));
  v.set('locations', list('locations').join('\n'));
  for (const key of ['maxJobAgeDays', 'firstRunLookbackDays'])
    if (typeof config[key] === 'number') v.set(key, String(config[key]));
  for (const key of ['getEmails', 'getPhones']) if (config[key] === true) v.set(key, 'on');
  const sources = (config.sources ?? {}) as Record<string, { enabled: boolean }>;
  for (const key of WATCHLIST_EVENT_KEYS)
    if ((sources[key] ?? DEFAULT_WATCHLIST_SOURCES[key]).enabled) v.append('sources', key);
  v.set('sourcesShown', '1');
  return v;
}

const optionalNumber = (text: string) => (text === '' ? undefined : /^\d+$/.test(text) ? Number(text) : text);

/**
 * The form as the REST body of the same operation, so the same zod schema and the same service
 * decide; nothing here judges a value. `forUpdate`: blank fields clear (null, empty list).
 */
export function bodyOfForm(kind: SignalKind, form: URLSearchParams, forUpdate: boolean): Record<string, unknown> {
  const blank = forUpdate ? null : undefined;
  const listOf = (name: string) => {
    const values = form
      .getAll(name)
      .map((s) => s.trim())
      .filter(Boolean);
    return values.length || forUpdate ? values : undefined;
  };
  const linesOf = (name: string) => {
    const values = lines(form.get(name) ?? '');
    return values.length || forUpdate ? values : undefined;
  };
  const numberOf = (name: string) => optionalNumber(field(form, name)) ?? blank;
  const flag = (name: string) => (form.get(name) === 'on' ? true : forUpdate ? false : undefined);
  const config: Record<string, unknown> =
    kind === 'job-changes'
      ? {
          jobTitles: listOf('jobTitles'),
          customTitles: linesOf('customTitles'),
          companySizeFilters: listOf('companySizeFilters'),
          industryFilters: listOf('industryFilters'),
          locations: linesOf('locations'),
          getEmails: flag('getEmails'),
          maxJobAgeDays: numberOf('maxJobAgeDays'),
        }
      : {
          companies: linesOf('companies')?.length ? linesOf('companies') : undefined,
          sources: Object.fromEntries(
            WATCHLIST_EVENT_KEYS.map((key) => [key, { enabled: form.getAll('sources').includes(key) }]),
          ),
          firstRunLookbackDays: numberOf('firstRunLookbackDays'),
          targetPersonas: listOf('targetPersonas'),
          getEmails: flag('getEmails'),
          getPhones: flag('getPhones'),
        };
  const body: Record<string, unknown> = {
    name: field(form, 'name'),
    webhookUrl: field(form, 'webhookUrl') || (forUpdate ? null : undefined),
    dailyLeadLimit: optionalNumber(field(form, 'dailyLeadLimit')),
    duplicateHandling: field(form, 'duplicateHandling') || undefined,
    config: Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)),
  };
  if (!forUpdate) body.status = form.get('activate') === 'on' ? 'active' : 'draft';
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const selected = (values: FormValues, name: string, value: string) =>
  values.getAll(name).includes(value) ? html`selected` : '';
const checked = (values: FormValues, name: string, value = 'on') =>
  values.getAll(name).includes(value) ? html`checked` : '';

function personaSelect(name: string, label: string, values: FormValues): SafeHtml {
  return html`<div>
    <label for="${name}">${label} <span class="hint">(pick one or more; Ctrl/Cmd-click or Space)</span></label>
    <select id="${name}" name="${name}" multiple size="8">
      ${listPersonas().map((p) => html`<option value="${p.name}" ${selected(values, name, p.name)}>${p.name}</option>`)}
    </select>
  </div>`;
}

function industrySelect(values: FormValues): SafeHtml {
  const byCategory = new Map<string, string[]>();
  for (const industry of listIndustries()) {
    const names = byCategory.get(industry.category) ?? [];
    names.push(industry.name);
    byCategory.set(industry.category, names);
  }
  return html`<div>
    <label for="industryFilters"
      >Industries <span class="hint">(a category name selects the whole category)</span></label
    >
    <select id="industryFilters" name="industryFilters" multiple size="8">
      ${[...byCategory].map(
        ([category, names]) =>
          html`<optgroup label="${category}">
            ${names.map((n) => html`<option value="${n}" ${selected(values, 'industryFilters', n)}>${n}</option>`)}
          </optgroup>`,
      )}
    </select>
  </div>`;
}

/** The create and edit form of both signal types. */
export function signalForm(options: {
  session: MemberSession;
  kind: SignalKind;
  action: string;
  values: FormValues;
  keys?: ApiKeySummary[];
  editing?: boolean;
}): SafeHtml {
  const { values, kind } = options;
  const v = (name: string) => values.get(name) ?? '';
  const common = html` <div>
      <label for="name">Name</label
      ><input id="name" name="name" type="text" required maxlength="255" value="${v('name')}" />
    </div>
    <div>
      <label for="webhookUrl">Webhook URL <span class="hint">(optional: each lead is POSTed here, signed)</span></label>
      <input
        id="webhookUrl"
        name="webhookUrl"
        type="url"
        placeholder="https://example.com/hooks/leads"
        value="${v('webhookUrl')}"
      />
    </div>
    ${
      options.keys
        ? html`<div>
            <label for="apiKeyId">Sign webhooks with the secret of key</label>
            <select id="apiKeyId" name="apiKeyId" required>
              ${options.keys.map(
                (k) =>
                  html`<option value="${k.id}" ${selected(values, 'apiKeyId', k.id)}>
                    ${k.name || 'unnamed'} (${k.prefix}…)
                  </option>`,
              )}
            </select>
          </div>`
        : ''
    }
    <div>
      <label for="dailyLeadLimit">Daily lead cap</label
      ><input
        id="dailyLeadLimit"
        name="dailyLeadLimit"
        type="number"
        min="1"
        max="999999"
        value="${v('dailyLeadLimit') || '100'}"
      />
    </div>
    <div>
      <label for="duplicateHandling"
        >Repeated person or company <span class="hint">(refuse, allow, or e.g. 30d)</span></label
      >
      <input
        id="duplicateHandling"
        name="duplicateHandling"
        type="text"
        value="${v('duplicateHandling') || (kind === 'job-changes' ? 'refuse' : 'allow')}"
      />
    </div>`;
  const specific =
    kind === 'job-changes'
      ? html`${personaSelect('jobTitles', 'Personas (job titles)', values)}
          <div>
            <label for="customTitles">Custom job titles <span class="hint">(one per line)</span></label
            ><textarea id="customTitles" name="customTitles">${v('customTitles')}</textarea>
          </div>
          <fieldset>
            <legend>Company sizes</legend>
            ${COMPANY_SIZE_BANDS.map(
              (band) =>
                html`<label
                  ><input
                    type="checkbox"
                    name="companySizeFilters"
                    value="${band}"
                    ${checked(values, 'companySizeFilters', band)}
                  />
                  ${band}</label
                >`,
            )}
          </fieldset>
          ${industrySelect(values)}
          <div>
            <label for="locations"
              >Locations <span class="hint">(countries, regions or cities, one per line; checked on save)</span></label
            ><textarea id="locations" name="locations">${v('locations')}</textarea>
          </div>
          <div>
            <label for="maxJobAgeDays"
              >Oldest job change, in days <span class="hint">(optional; below 180 counts as 180)</span></label
            ><input
              id="maxJobAgeDays"
              name="maxJobAgeDays"
              type="number"
              min="1"
              max="3650"
              value="${v('maxJobAgeDays')}"
            />
          </div>
          <div>
            <label
              ><input type="checkbox" name="getEmails" ${checked(values, 'getEmails')} /> Find emails (0.5 credit per
              email found)</label
            >
          </div>`
      : html`<div>
            <label for="companies"
              >${options.editing ? 'Add companies' : 'Companies to watch'}
              <span class="hint">(one per line: name, domain or company page URL)</span></label
            ><textarea id="companies" name="companies">${v('companies')}</textarea>
          </div>
          <fieldset>
            <legend>Events</legend>
            ${WATCHLIST_EVENT_KEYS.map((key) => {
              const on = values.get('sourcesShown')
                ? values.getAll('sources').includes(key)
                : DEFAULT_WATCHLIST_SOURCES[key].enabled;
              return html`<label
                ><input type="checkbox" name="sources" value="${key}" ${on ? html`checked` : ''} />
                ${key.replace(/_/g, ' ')}</label
              >`;
            })}<input type="hidden" name="sourcesShown" value="1" />
          </fieldset>
          <div>
            <label for="firstRunLookbackDays"
              >First check reaches back, in days <span class="hint">(optional, default 180)</span></label
            ><input
              id="firstRunLookbackDays"
              name="firstRunLookbackDays"
              type="number"
              min="1"
              max="3650"
              value="${v('firstRunLookbackDays')}"
            />
          </div>
          ${personaSelect('targetPersonas', 'Target personas (optional)', values)}
          <div>
            <label><input type="checkbox" name="getEmails" ${checked(values, 'getEmails')} /> Find emails</label>
          </div>
          <div>
            <label><input type="checkbox" name="getPhones" ${checked(values, 'getPhones')} /> Include phones</label>
          </div>`;
  return html`<form class="stack" method="post" action="${options.action}">
    ${csrfField(options.session.csrfToken)} ${common}${specific}
    ${
      options.editing
        ? ''
        : html`<div>
            <label
              ><input type="checkbox" name="activate" ${checked(values, 'activate')} /> Start it now (active)</label
            >
          </div>`
    }
    <div><button type="submit">${options.editing ? 'Save changes' : 'Create signal'}</button></div>
  </form>`;
}
