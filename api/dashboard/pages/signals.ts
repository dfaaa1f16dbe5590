import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound, validationError } from '../../../src/errors';
import { createBodyOf, signalListQuery, updateSignalBody } from '../../schemas/signals';
import { SIGNAL_TYPES, signalType, type SignalType } from '../../../src/signal-types/registry';
import { funnelChart } from '../charts';
import { html, type SafeHtml } from '../html';
import { page, postButton, type Notice } from '../layout';
import {
  callerOf,
  errorNotice,
  problemText,
  send,
  signedIn,
  validatedBody,
  field,
  isUuid,
  type DashboardContext,
  type DashboardState,
} from '../web';
import { counted, dateTime } from './format';
import {
  bodyOfForm,
  fieldProblemsOf,
  signalForm,
  signalTable,
  statusBadge,
  typeLabel,
  valuesOfSignal,
  type FieldProblems,
} from './signal-parts';
import type { LoggedLead } from '../../../src/services/delivery-log';
import type { MemberSession } from '../../../src/services/member-sessions';
import { destinationsCard } from './signal-destinations';
import { destinationsPatchFromForm } from '../../../src/destinations/settings';
import { crmExclusionsCard, crmExclusionsOf } from './signal-crm-exclusions';
import { previewPanel, previewProblem } from './signal-preview';
import { watchlistCard } from './signal-watchlist';

/** The script asks for the preview panel alone; a form submitted without it gets the whole page. */
const wantsFragment = (ctx: DashboardContext) => ctx.get('X-Preview') === 'fragment';
const sendFragment = (ctx: DashboardContext, fragment: SafeHtml) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = fragment.text;
};

const LEADS_PER_PAGE = 10;
/** The types the dashboard creates: those whose module gives a dashboard form. */
const FORM_TYPES = SIGNAL_TYPES.filter((type) => type.dashboardForm);
const newTitle = (type: SignalType) => `New ${type.createPath} signal`;

function signalIdOf(ctx: DashboardContext): string {
  const id = String(ctx.params.signalId);
  if (!isUuid(id)) throw notFound('Signal');
  return id;
}

export function signalRoutes(router: Router<DashboardState>, services: Services): void {
  const { signals } = services;

  router.get('/signals', async (ctx) => {
    const session = signedIn(ctx);
    const pageNo = Math.max(1, Number(ctx.query.page) || 1);
    const list = await signals.list(callerOf(session), {
      ...signalListQuery.parse({}),
      limit: 50,
      offset: (pageNo - 1) * 50,
    });
    send(
      ctx,
      page({
        title: 'Signals',
        section: '/signals',
        session,
        body: html`<div class="actions">
            ${FORM_TYPES.map(
              (type, i) =>
                html`<a class="button${i > 0 ? ' secondary' : ''}" href="/signals/new/${type.createPath}"
                  >${newTitle(type)}</a
                >`,
            )}
          </div>
          <section class="card">
            ${list.signals.length ? signalTable(list.signals) : html`<p>No signal yet.</p>`}
            <nav class="pager" aria-label="Signal pages">
              ${pageNo > 1 ? html`<a href="/signals?page=${pageNo - 1}">Newer</a>` : ''}<span>${counted(list.total, 'signal')}</span>${list.hasMore ? html`<a href="/signals?page=${pageNo + 1}">Older</a>` : ''}
            </nav>
          </section>`,
      }),
    );
  });

  const newForm = async (
    ctx: DashboardContext,
    type: SignalType,
    values: URLSearchParams,
    notice?: Notice,
    status = 200,
    shownPreview?: SafeHtml,
    problems?: FieldProblems,
  ) => {
    const session = signedIn(ctx);
    const keys = (await services.apiKeys.list(session.accountId)).filter((k) => !k.revokedAt);
    const action = `/signals/new/${type.createPath}`;
    const body: SafeHtml = keys.length
      ? signalForm({
          session,
          type,
          action,
          values,
          keys,
          preview: { action: `${action}/preview`, shown: shownPreview },
          problems,
        })
      : html`<p>
          First <a href="/api-keys">create an API key</a>: its webhook secret signs this signal's deliveries.
        </p>`;
    send(ctx, page({ title: newTitle(type), section: '/signals', session, notice, body }), status);
  };

  for (const type of FORM_TYPES) {
    router.get(`/signals/new/${type.createPath}`, (ctx) => newForm(ctx, type, new URLSearchParams()));
    router.post(`/signals/new/${type.createPath}`, async (ctx) => {
      const session = signedIn(ctx);
      const form = ctx.state.form as URLSearchParams;
      try {
        const keyId = field(form, 'apiKeyId');
        const key = isUuid(keyId)
          ? await services.apiKeys.requireOwned(session.accountId, keyId).catch(() => null)
          : null;
        if (!key || key.revokedAt)
          throw validationError([{ field: 'apiKeyId', message: 'choose one of your live API keys' }]);
        const body = validatedBody(createBodyOf(type), bodyOfForm(type, form, false));
        const created = await signals.create(callerOf(session, key.id), type.signalTypeId, body);
        ctx.redirect(`/signals/${created.id}?notice=created`);
      } catch (err) {
        await newForm(
          ctx,
          type,
          form,
          errorNotice(err),
          (err as AppError).status,
          undefined,
          fieldProblemsOf(err, type, form),
        );
      }
    });
    router.post(`/signals/new/${type.createPath}/preview`, async (ctx) => {
      const session = signedIn(ctx);
      const form = ctx.state.form as URLSearchParams;
      const shown = await previewOfForm(session, type, bodyOfForm(type, form, false));
      if (wantsFragment(ctx)) return sendFragment(ctx, shown);
      await newForm(ctx, type, form, undefined, 200, shown);
    });
  }

  /** The cost preview of a form's create body, or why there is none, as the panel shows it. */
  const previewOfForm = async (session: MemberSession, type: SignalType, body: Record<string, unknown>) => {
    try {
      const draft = validatedBody(createBodyOf(type), { ...body, name: body.name || 'Preview' });
      // A member's previews share one cap, as an API key's do.
      const caller = { accountId: session.accountId, keyId: session.memberId };
      return previewPanel(await services.signalPreviews.preview(caller, type.signalTypeId, draft));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return previewProblem(problemText(err));
    }
  };

  const detail = async (ctx: DashboardContext, notice?: Notice, status = 200) => {
    const session = signedIn(ctx);
    const signalId = signalIdOf(ctx);
    const signal = await signals.get(session.accountId, signalId);
    const pageNo = Math.max(1, Math.min(100_000, Number(ctx.query.page) || 1));
    const watches = signalType(signal.signalTypeId).watchesCompanies;
    const [log, funnel, connections, matchCounts] = await Promise.all([
      services.deliveryLog.page(session.accountId, signalId, {
        limit: LEADS_PER_PAGE,
        offset: (pageNo - 1) * LEADS_PER_PAGE,
      }),
      services.funnel.ofSignal(await signals.requireOwned(session.accountId, signalId), {}),
      services.crmConnections.list(session.accountId),
      watches ? services.watchlistMatches.counts(signalId) : null,
    ]);
    if (!log) throw notFound('Signal');
    const shownNotice =
      notice ??
      (ctx.query.notice === 'created'
        ? { kind: 'ok' as const, text: 'Signal created.' }
        : ctx.query.notice === 'saved'
          ? { kind: 'ok' as const, text: 'Changes saved.' }
          : undefined);
    const base = `/signals/${signal.id}`;
    send(
      ctx,
      page({
        title: signal.name,
        section: '/signals',
        session,
        notice: shownNotice,
        body: html`<section class="card">
            <p>
              ${statusBadge(signal.status)} ${typeLabel(signal.signalTypeId)} · created ${dateTime(signal.createdAt)}
            </p>
            <table class="responsive">
              <tbody>
                <tr>
                  <th>Webhook</th>
                  <td>${signal.webhookUrl ?? 'none (read by polling)'}</td>
                </tr>
                <tr>
                  <th>Leads today / daily cap</th>
                  <td>${signal.leadsToday} / ${signal.dailyLeadLimit}</td>
                </tr>
                <tr>
                  <th>Leads in total</th>
                  <td id="leads-total">${signal.leadsTotal}</td>
                </tr>
                <tr>
                  <th>Last lead</th>
                  <td>${dateTime(signal.lastLeadAt)}</td>
                </tr>
              </tbody>
            </table>
            ${signal.warnings.map((w) => html`<div class="notice ${w.severity === 'warning' ? 'warn' : 'ok'}">${w.message}</div>`)}
            <div class="actions">
              <a class="button secondary" href="${base}/edit">Edit</a>
              ${signal.status === 'active' ? postButton(session, `${base}/pause`, 'Pause', { style: 'secondary' }) : postButton(session, `${base}/resume`, signal.status === 'draft' ? 'Activate' : 'Resume')}
              ${signal.webhookUrl ? postButton(session, `${base}/test-webhook`, 'Send test webhook', { style: 'secondary', progress: 'Sending…' }) : ''}
              ${signal.webhookUrl ? postButton(session, `${base}/replay`, 'Replay all leads', { style: 'secondary', progress: 'Replaying… this can take a while', confirm: 'Send every lead of this signal to the webhook again?' }) : ''}
              ${postButton(session, `${base}/delete`, 'Delete', { style: 'danger', confirm: 'Delete this signal? Pending deliveries are cancelled.' })}
            </div>
          </section>
          ${matchCounts ? watchlistCard(signal.id, matchCounts) : ''}
          ${destinationsCard(session, signal.id, signal.destinations, connections)}
          ${crmExclusionsCard(session, signal.id, signal.crmExclusions, connections)}
          <section class="card">
            <h2>Funnel, last 30 days</h2>
            ${funnelChart(funnel.candidates, funnel.stages, funnel.leads)}
          </section>
          <section class="card">
            <h2>Leads, newest first</h2>
            ${log.leads.length ? log.leads.map(leadEntry) : html`<p>No lead yet.${signal.status === 'active' ? ' New leads appear here as the signal finds them; reload to see them.' : ''}</p>`}
            <nav class="pager" aria-label="Lead pages">
              ${pageNo > 1 ? html`<a href="${base}?page=${pageNo - 1}">Newer</a>` : ''}<span>${counted(log.total, 'lead')}</span>${pageNo * LEADS_PER_PAGE < log.total ? html`<a href="${base}?page=${pageNo + 1}">Older</a>` : ''}
            </nav>
          </section>`,
      }),
      status,
    );
  };

  router.get('/signals/:signalId', (ctx) => detail(ctx));

  const editForm = async (
    ctx: DashboardContext,
    values?: URLSearchParams,
    notice?: Notice,
    status = 200,
    shownPreview?: SafeHtml,
    problems?: FieldProblems,
  ) => {
    const session = signedIn(ctx);
    const signal = await signals.get(session.accountId, signalIdOf(ctx));
    const type = signalType(signal.signalTypeId);
    const matchCounts = type.watchesCompanies ? await services.watchlistMatches.counts(signal.id) : null;
    send(
      ctx,
      page({
        title: `Edit ${signal.name}`,
        section: '/signals',
        session,
        notice,
        body: html`${signalForm({
            session,
            type,
            action: `/signals/${signal.id}/edit`,
            values: values ?? valuesOfSignal(signal, type),
            editing: true,
            preview: { action: `/signals/${signal.id}/edit/preview`, shown: shownPreview },
            problems,
          })}
          ${matchCounts ? watchlistCard(signal.id, matchCounts) : ''}
          <p><a href="/signals/${signal.id}">Back to the signal</a></p>`,
      }),
      status,
    );
  };
  router.get('/signals/:signalId/edit', (ctx) => editForm(ctx));
  router.post('/signals/:signalId/edit', async (ctx) => {
    const session = signedIn(ctx);
    const signal = await signals.get(session.accountId, signalIdOf(ctx));
    const form = ctx.state.form as URLSearchParams;
    try {
      const body = validatedBody(updateSignalBody, bodyOfForm(signalType(signal.signalTypeId), form, true));
      await signals.update(callerOf(session), signal.id, body);
      ctx.redirect(`/signals/${signal.id}?notice=saved`);
    } catch (err) {
      const problems = fieldProblemsOf(err, signalType(signal.signalTypeId), form);
      await editForm(ctx, form, errorNotice(err), (err as AppError).status, undefined, problems);
    }
  });

  router.post('/signals/:signalId/edit/preview', async (ctx) => {
    const session = signedIn(ctx);
    const signal = await signals.get(session.accountId, signalIdOf(ctx));
    const type = signalType(signal.signalTypeId);
    const form = ctx.state.form as URLSearchParams;
    const body = bodyOfForm(type, form, false);
    if (type.watchesCompanies) {
      // The edit form adds companies; the preview counts the ones already watched too.
      const watched = await services.watchlists.list(signal.id, { limit: 10_000, offset: 0 });
      const adding = ((body.config as { companies?: unknown[] }).companies ?? []) as unknown[];
      const kept = watched.items.map(({ name, domain, linkedinUrl }) => ({ name, domain, linkedinUrl }));
      (body.config as Record<string, unknown>).companies = [...kept, ...adding].slice(0, 10_000);
    }
    const shown = await previewOfForm(session, type, body);
    if (wantsFragment(ctx)) return sendFragment(ctx, shown);
    await editForm(ctx, form, undefined, 200, shown);
  });

  const action = (path: string, run: (ctx: DashboardContext, signalId: string) => Promise<Notice>) =>
    router.post(`/signals/:signalId/${path}`, async (ctx) => {
      const session = signedIn(ctx);
      const signalId = signalIdOf(ctx);
      await signals.requireOwned(session.accountId, signalId);
      let notice: Notice;
      let status = 200;
      try {
        notice = await run(ctx, signalId);
      } catch (err) {
        notice = errorNotice(err);
        status = (err as AppError).status;
      }
      await detail(ctx, notice, status);
    });

  action('destinations', async (ctx, id) => {
    const signal = await signals.get(signedIn(ctx).accountId, id);
    const body = validatedBody(updateSignalBody, {
      destinations: destinationsPatchFromForm(ctx.state.form as URLSearchParams, signal.destinations),
    });
    await signals.update(callerOf(signedIn(ctx)), id, body);
    return { kind: 'ok', text: 'Destinations saved: new leads go there from now on.' };
  });
  action('crm-exclusions', async (ctx, id) => {
    const body = validatedBody(updateSignalBody, { crmExclusions: crmExclusionsOf(ctx.state.form as URLSearchParams) });
    await signals.update(callerOf(signedIn(ctx)), id, body);
    return { kind: 'ok', text: 'CRM exclusions saved: they apply from the next evaluation.' };
  });
  action('pause', async (ctx, id) => {
    await signals.setStatus(callerOf(signedIn(ctx)), id, 'paused');
    return { kind: 'ok', text: 'Paused: it produces nothing until resumed.' };
  });
  action('resume', async (ctx, id) => {
    await signals.setStatus(callerOf(signedIn(ctx)), id, 'active');
    return { kind: 'ok', text: 'Active: it evaluates now and on its interval.' };
  });
  action('test-webhook', async (ctx, id) => {
    const result = await services.testSends.send(signedIn(ctx).accountId, id);
    const answer = result.statusCode === null ? 'no answer' : `HTTP ${result.statusCode}`;
    return result.success
      ? {
          kind: 'ok',
          text: `Test webhook delivered: the receiver answered ${answer}${result.signed ? '' : ' (unsigned: the signal has no key)'}.`,
        }
      : { kind: 'error', text: `Test webhook failed: ${answer}.` };
  });
  action('replay', async (ctx, id) => {
    const result = await services.webhookReplays.replay(signedIn(ctx).accountId, id);
    return {
      kind: result.failed ? 'warn' : 'ok',
      text: `Replay done: ${counted(result.total, 'lead')}, ${result.sent} delivered, ${result.failed} failed.`,
    };
  });
  router.post('/signals/:signalId/delete', async (ctx) => {
    const session = signedIn(ctx);
    await signals.delete(session.accountId, signalIdOf(ctx));
    ctx.redirect('/signals');
  });
}

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

function leadEntry(lead: LoggedLead): SafeHtml {
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
