import { listPersonas } from '../../../src/catalogue/personas';
import { listIndustries } from '../../../src/catalogue/industries';
import { listCountries } from '../../../src/catalogue/locations';
import { AppError } from '../../../src/errors';
import { COMPANY_SIZE_BANDS } from '../../../src/catalogue/company-sizes';
import { DEFAULT_WATCHLIST_SOURCES, WATCHLIST_EVENT_KEYS } from '../../../src/catalogue/watchlist-events';
import type { SignalResource } from '../../../src/services/signals/resource';
import type { DashboardFormField } from '../../../src/signal-types/kit/dashboard-form';
import { SIGNAL_TYPES, type SignalType } from '../../../src/signal-types/registry';
import type { ApiKeySummary } from '../../../src/services/api-keys';
import type { MemberSession } from '../../../src/services/member-sessions';
import { html, type SafeHtml } from '../html';
import { csrfField } from '../layout';
import { field, lines, problemText } from '../web';
import { dateTime } from './format';
import { PREVIEW_PANEL_ID } from './signal-preview';

/** The type's name as the catalogue gives it; an id no type is registered under is shown as is. */
export const typeLabel = (signalTypeId: string) =>
  SIGNAL_TYPES.find((type) => type.signalTypeId === signalTypeId)?.name ?? signalTypeId;

/** The fields of the type's dashboard form; none for a type created through the API only. */
const formFields = (type: SignalType): DashboardFormField[] => type.dashboardForm?.fields ?? [];

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
            <td data-label="Type">${typeLabel(s.signalTypeId)}</td>
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
export function valuesOfSignal(signal: SignalResource, type: SignalType): FormValues {
  const v = new URLSearchParams();
  const config = (signal.config ?? {}) as Record<string, unknown>;
  v.set('name', signal.name);
  v.set('webhookUrl', signal.webhookUrl ?? '');
  v.set('dailyLeadLimit', String(signal.dailyLeadLimit));
  v.set('duplicateHandling', signal.duplicateHandling);
  const list = (key: string) => (Array.isArray(config[key]) ? (config[key] as string[]) : []);
  for (const field of formFields(type)) {
    const { name } = field;
    if (field.input === 'personas' || field.input === 'sizeBands' || field.input === 'industries')
      for (const item of list(name)) v.append(name, item);
    else if (field.input === 'lines' && !field.onlyAdds) v.set(name, list(name).join('\n'));
    else if (field.input === 'number' && typeof config[name] === 'number') v.set(name, String(config[name]));
    else if (field.input === 'flag' && config[name] === true) v.set(name, 'on');
    else if (field.input === 'watchlistSources') {
      const sources = (config[name] ?? {}) as Record<string, { enabled: boolean }>;
      for (const key of WATCHLIST_EVENT_KEYS)
        if ((sources[key] ?? DEFAULT_WATCHLIST_SOURCES[key]).enabled) v.append(name, key);
      v.set('sourcesShown', '1');
    }
  }
  return v;
}

const optionalNumber = (text: string) => (text === '' ? undefined : /^\d+$/.test(text) ? Number(text) : text);

/**
 * The form as the REST body of the same operation, so the same zod schema and the same service
 * decide; nothing here judges a value. `forUpdate`: blank fields clear (null, empty list).
 */
export function bodyOfForm(type: SignalType, form: URLSearchParams, forUpdate: boolean): Record<string, unknown> {
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
  const valueOf = (formField: DashboardFormField): unknown => {
    switch (formField.input) {
      case 'personas':
      case 'sizeBands':
      case 'industries':
        return listOf(formField.name);
      case 'lines':
        // Items only added (companies to watch): a blank field sends nothing, even on update.
        return formField.onlyAdds && !linesOf(formField.name)?.length ? undefined : linesOf(formField.name);
      case 'number':
        return numberOf(formField.name);
      case 'flag':
        return flag(formField.name);
      case 'watchlistSources':
        return Object.fromEntries(
          WATCHLIST_EVENT_KEYS.map((key) => [key, { enabled: form.getAll(formField.name).includes(key) }]),
        );
    }
  };
  const config = Object.fromEntries(formFields(type).map((formField) => [formField.name, valueOf(formField)]));
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

/** The filter the script shows above a long list: typing narrows it, Enter picks the first match. */
const pickerFilter = (name: string, what: string) =>
  html`<input
    type="search"
    id="${name}-filter"
    class="picker-filter"
    data-picker-for="${name}"
    aria-label="Filter the ${what}"
    aria-controls="${name}"
    placeholder="Type to filter the ${what}; Enter picks the first match"
    autocomplete="off"
    hidden
  />`;
const chosenLine = (name: string) =>
  html`<p class="hint" id="${name}-chosen" data-picker-chosen="${name}" aria-live="polite"></p>`;
const PICKER_HINT = 'pick one or more: filter and press Enter, or click; without the script, Ctrl/Cmd-click';

function personaSelect(name: string, label: string, values: FormValues): SafeHtml {
  return html`<div class="picker">
    <label for="${name}">${label} <span class="hint">(${PICKER_HINT})</span></label>
    ${pickerFilter(name, 'personas')}
    <select id="${name}" name="${name}" multiple size="8" data-picker aria-describedby="${name}-chosen">
      ${listPersonas().map((p) => html`<option value="${p.name}" ${selected(values, name, p.name)}>${p.name}</option>`)}
    </select>
    ${chosenLine(name)}
  </div>`;
}

function industrySelect(name: string, values: FormValues): SafeHtml {
  const byCategory = new Map<string, string[]>();
  for (const industry of listIndustries()) {
    const names = byCategory.get(industry.category) ?? [];
    names.push(industry.name);
    byCategory.set(industry.category, names);
  }
  return html`<div class="picker">
    <label for="${name}"
      >Industries <span class="hint">(${PICKER_HINT}; a category name selects the whole category)</span></label
    >
    ${pickerFilter(name, 'industries')}
    <select id="${name}" name="${name}" multiple size="8" data-picker aria-describedby="${name}-chosen">
      ${[...byCategory].map(
        ([category, names]) =>
          html`<optgroup label="${category}">
            ${names.map((n) => html`<option value="${n}" ${selected(values, name, n)}>${n}</option>`)}
          </optgroup>`,
      )}
    </select>
    ${chosenLine(name)}
  </div>`;
}

/** Fields that hold places, one a line: the script offers the known countries to add to them. */
const PLACE_FIELDS = new Set(['locations', 'jobLocations']);
const placeAdder = (name: string) =>
  html`<div class="picker-add" data-place-adder="${name}" hidden>
    <input
      type="search"
      id="${name}-add"
      list="known-places"
      aria-label="Add a place to ${name}"
      placeholder="Add a country (or type any region or city); Enter adds it"
      autocomplete="off"
    />
  </div>`;
const knownPlaces = () =>
  html`<datalist id="known-places">${listCountries().map((c) => html`<option value="${c.name}"></option>`)}</datalist>`;

/** A refusal's problems by form field, shown beside the field they are about. */
export type FieldProblems = Map<string, string>;

/**
 * Which fields of the form a refusal is about: an unknown place is the problem of the field that
 * holds it; a schema's problem on `config.<field>` or `<field>` is that field's.
 */
export function fieldProblemsOf(err: unknown, type: SignalType, form: URLSearchParams): FieldProblems {
  const problems: FieldProblems = new Map();
  if (!(err instanceof AppError)) return problems;
  const names = new Set([
    'name',
    'webhookUrl',
    'dailyLeadLimit',
    'duplicateHandling',
    ...formFields(type).map((f) => f.name),
  ]);
  const invalid = err.code === 'INVALID_LOCATION' ? ((err.extra.invalid_locations as string[] | undefined) ?? []) : [];
  for (const name of names) {
    if (invalid.some((place) => lines(form.get(name) ?? '').includes(place))) problems.set(name, problemText(err));
  }
  for (const detail of (err.extra.details as Array<{ field: string; message: string }> | undefined) ?? []) {
    const name = detail.field.replace(/^config\./, '').split('.')[0] ?? '';
    if (names.has(name) && !problems.has(name)) problems.set(name, detail.message);
  }
  return problems;
}

const problemOf = (problems: FieldProblems | undefined, name: string) =>
  problems?.has(name) ? html`<p class="field-problem" id="${name}-problem" role="alert">${problems.get(name)}</p>` : '';

/** One field of a type's dashboard form, as the input it names. */
function formInput(
  formField: DashboardFormField,
  values: FormValues,
  editing: boolean,
  problems?: FieldProblems,
): SafeHtml {
  const { name } = formField;
  const invalid = problems?.has(name) ? html`aria-invalid="true" aria-errormessage="${name}-problem"` : '';
  const v = values.get(name) ?? '';
  switch (formField.input) {
    case 'personas':
      return html`${personaSelect(name, formField.label, values)}${problemOf(problems, name)}`;
    case 'industries':
      return html`${industrySelect(name, values)}${problemOf(problems, name)}`;
    case 'sizeBands':
      return html`<fieldset>
        <legend>${formField.legend}</legend>
        ${COMPANY_SIZE_BANDS.map(
          (band) =>
            html`<label
              ><input type="checkbox" name="${name}" value="${band}" ${checked(values, name, band)} /> ${band}</label
            >`,
        )}
      </fieldset>`;
    case 'lines':
      return html`<div>
        <label for="${name}"
          >${editing && formField.editLabel ? formField.editLabel : formField.label}
          <span class="hint">(${formField.hint})</span></label
        ><textarea id="${name}" name="${name}" ${invalid}>${v}</textarea>
        ${PLACE_FIELDS.has(name) ? placeAdder(name) : ''} ${problemOf(problems, name)}
      </div>`;
    case 'number':
      return html`<div>
        <label for="${name}">${formField.label} <span class="hint">(${formField.hint})</span></label
        ><input
          id="${name}"
          name="${name}"
          type="number"
          min="${formField.min}"
          max="${formField.max}"
          value="${v}"
          ${invalid}
        />
        ${problemOf(problems, name)}
      </div>`;
    case 'flag':
      return html`<div>
        <label><input type="checkbox" name="${name}" ${checked(values, name)} /> ${formField.label}</label>
      </div>`;
    case 'watchlistSources':
      return html`<fieldset>
        <legend>${formField.legend}</legend>
        ${WATCHLIST_EVENT_KEYS.map((key) => {
          // A form never shown yet starts from the defaults; a submitted one keeps what was ticked.
          const on = values.get('sourcesShown')
            ? values.getAll(name).includes(key)
            : DEFAULT_WATCHLIST_SOURCES[key].enabled;
          return html`<label
            ><input type="checkbox" name="${name}" value="${key}" ${on ? html`checked` : ''} />
            ${key.replace(/_/g, ' ')}</label
          >`;
        })}<input type="hidden" name="sourcesShown" value="1" />
      </fieldset>`;
  }
}

/** The create and edit form of a signal type: the settings every signal has, then its type's own fields. */
export function signalForm(options: {
  session: MemberSession;
  type: SignalType;
  action: string;
  values: FormValues;
  keys?: ApiKeySummary[];
  editing?: boolean;
  /** Where the form's cost preview is asked for, and the one to show now (a preview asked without the script). */
  preview?: { action: string; shown?: SafeHtml };
  /** A refusal's problems, each shown beside its field. */
  problems?: FieldProblems;
}): SafeHtml {
  const { values, type } = options;
  const v = (name: string) => values.get(name) ?? '';
  const common = html` <div>
      <label for="name">Name</label
      ><input id="name" name="name" type="text" required maxlength="255" value="${v('name')}" />
      ${problemOf(options.problems, 'name')}
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
      ${problemOf(options.problems, 'webhookUrl')}
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
      ${problemOf(options.problems, 'dailyLeadLimit')}
    </div>
    <div>
      <label for="duplicateHandling"
        >Repeated person or company <span class="hint">(refuse, allow, or e.g. 30d)</span></label
      >
      <input
        id="duplicateHandling"
        name="duplicateHandling"
        type="text"
        value="${v('duplicateHandling') || type.defaultDuplicateHandling}"
      />
      ${problemOf(options.problems, 'duplicateHandling')}
    </div>`;
  const preview = options.preview;
  const fields = html`${csrfField(options.session.csrfToken)}
    ${common}${formFields(type).map((formField) => formInput(formField, values, options.editing === true, options.problems))}
    ${formFields(type).some((f) => PLACE_FIELDS.has(f.name)) ? knownPlaces() : ''}
    ${
      options.editing
        ? ''
        : html`<div>
            <label
              ><input type="checkbox" name="activate" ${checked(values, 'activate')} /> Start it now (active)</label
            >
          </div>`
    }
    <div class="actions">
      <button type="submit">${options.editing ? 'Save changes' : 'Create signal'}</button>
      ${
        preview
          ? html`<button type="submit" class="secondary" formaction="${preview.action}" formnovalidate>
              Preview cost
            </button>`
          : ''
      }
    </div>`;
  // The preview sits beside the fields and follows the page as it scrolls (issue 38, item 10).
  return preview
    ? html`<form class="with-preview" method="post" action="${options.action}" data-preview-action="${preview.action}">
        <div class="stack">${fields}</div>
        <aside class="card preview-panel" id="${PREVIEW_PANEL_ID}" aria-live="polite" aria-label="Cost preview">
          ${preview.shown ?? ''}
        </aside>
      </form>`
    : html`<form class="stack" method="post" action="${options.action}">${fields}</form>`;
}
