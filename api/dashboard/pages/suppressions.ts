import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound } from '../../../src/errors';
import { SUPPRESSION_KINDS, type SuppressionKind } from '../../../src/services/suppressions';
import { html } from '../html';
import { csrfField, page, postButton, type Notice } from '../layout';
import {
  callerOf,
  errorNotice,
  field,
  isUuid,
  lines,
  send,
  signedIn,
  type DashboardContext,
  type DashboardState,
} from '../web';
import { dateTime } from './format';

const PAGE = 50;
const KIND_LABELS: Record<SuppressionKind, string> = {
  email: 'Email (one person)',
  domain: 'Domain (the company and everyone at it)',
  company_url: 'Company page (professional network)',
};

const isKind = (text: string): text is SuppressionKind => (SUPPRESSION_KINDS as readonly string[]).includes(text);

/** What an add or an upload did, in one sentence a person reads. */
function outcome(added: number, duplicates: number, rejected: { where: string; message: string }[]): Notice {
  const parts = [`${added} added`];
  if (duplicates) parts.push(`${duplicates} already on the list`);
  if (rejected.length)
    parts.push(`${rejected.length} not usable (${rejected.map((r) => `${r.where}: ${r.message}`).join('; ')})`);
  return { kind: rejected.length ? 'warn' : 'ok', text: `${parts.join(', ')}.` };
}

const render = async (
  services: Pick<Services, 'signals' | 'suppressions'>,
  ctx: DashboardContext,
  options: { notice?: Notice; status?: number } = {},
) => {
  const session = signedIn(ctx);
  const kindFilter = isKind(String(ctx.query.kind ?? '')) ? (String(ctx.query.kind) as SuppressionKind) : undefined;
  const search = String(ctx.query.q ?? '')
    .trim()
    .slice(0, 2000);
  const pageNo = Math.max(1, Number.parseInt(String(ctx.query.page ?? '1'), 10) || 1);
  const [list, signals] = await Promise.all([
    services.suppressions.list(session.accountId, {
      limit: PAGE,
      offset: (pageNo - 1) * PAGE,
      kind: kindFilter,
      valueContains: search || undefined,
    }),
    services.signals.list(callerOf(session), { limit: 100, offset: 0 }),
  ]);
  const names = new Map(signals.signals.map((s) => [s.id, s.name]));
  const scopeOptions = html`<option value="">Every signal of the account</option>
    ${signals.signals.map((s) => html`<option value="${s.id}">Only ${s.name}</option>`)}`;
  const pageLink = (n: number) =>
    `/suppressions?${new URLSearchParams({ ...(kindFilter ? { kind: kindFilter } : {}), ...(search ? { q: search } : {}), page: String(n) })}`;
  send(
    ctx,
    page({
      title: 'Suppression list',
      section: '/suppressions',
      session,
      notice: options.notice,
      body: html`<p class="hint">
          Nobody on this list becomes a lead, so nobody on it is charged. An entry counts from the next evaluation on;
          removing it lets later evaluations produce that person or company again.
        </p>
        <section class="card">
          <h2>Add entries</h2>
          <form class="stack" method="post" action="/suppressions">
            ${csrfField(session.csrfToken)}
            <div>
              <label for="kind">Kind</label
              ><select id="kind" name="kind">
                ${SUPPRESSION_KINDS.map((k) => html`<option value="${k}">${KIND_LABELS[k]}</option>`)}
              </select>
            </div>
            <div>
              <label for="values">Values, one a line</label
              ><textarea id="values" name="values" rows="4" required placeholder="rival.com"></textarea>
            </div>
            <div>
              <label for="note">Note (optional)</label><input id="note" name="note" type="text" maxlength="1000" />
            </div>
            <div>
              <label for="signalId">Applies to</label
              ><select id="signalId" name="signalId">
                ${scopeOptions}
              </select>
            </div>
            <div><button type="submit">Add to the list</button></div>
          </form>
        </section>
        <section class="card">
          <h2>Upload a CSV</h2>
          <form class="stack" method="post" action="/suppressions/import">
            ${csrfField(session.csrfToken)}
            <div>
              <label for="csv">CSV with the header <code>kind,value,note</code></label
              ><textarea
                id="csv"
                name="csv"
                rows="5"
                required
                placeholder="kind,value,note&#10;domain,rival.com,competitor"
              ></textarea>
            </div>
            <div>
              <label for="csvSignalId">Applies to</label
              ><select id="csvSignalId" name="signalId">
                ${scopeOptions}
              </select>
            </div>
            <div><button type="submit">Upload</button></div>
          </form>
        </section>
        <section class="card">
          <h2>Entries (${list.total})</h2>
          <form method="get" action="/suppressions" class="actions">
            <div>
              <label for="kindFilter">Kind</label
              ><select id="kindFilter" name="kind">
                <option value="">All kinds</option>
                ${SUPPRESSION_KINDS.map((k) => html`<option value="${k}" ${kindFilter === k ? 'selected' : ''}>${k}</option>`)}
              </select>
            </div>
            <div>
              <label for="q">Value contains</label
              ><input id="q" name="q" type="search" value="${search}" placeholder="rival.com" />
            </div>
            <div><button type="submit" class="secondary">Filter</button></div>
            ${kindFilter || search ? html`<a href="/suppressions">Show every entry</a>` : ''}
          </form>
          <table class="responsive" id="suppressions">
            <thead>
              <tr>
                <th>Value</th>
                <th>Kind</th>
                <th>Applies to</th>
                <th>Note</th>
                <th>Added</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${list.items.map(
                (entry) =>
                  html`<tr>
                    <td data-label="Value"><code>${entry.value}</code></td>
                    <td data-label="Kind">${entry.kind}</td>
                    <td data-label="Applies to">
                      ${entry.signalId ? (names.get(entry.signalId) ?? 'a deleted signal') : 'every signal'}
                    </td>
                    <td data-label="Note">${entry.note ?? ''}</td>
                    <td data-label="Added">${dateTime(entry.createdAt)}</td>
                    <td>
                      ${postButton(session, `/suppressions/${entry.id}/remove`, 'Remove', {
                        style: 'danger',
                        confirm: `Remove ${entry.value}? Later evaluations may produce it again.`,
                      })}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${list.items.length === 0 ? html`<p>No entry${kindFilter ? ' of this kind' : ''}${search ? html` holding “${search}”` : ''}.</p>` : ''}
          <p class="actions">
            ${pageNo > 1 ? html`<a href="${pageLink(pageNo - 1)}">Newer</a>` : ''}
            ${list.hasMore ? html`<a href="${pageLink(pageNo + 1)}">Older</a>` : ''}
          </p>
        </section>`,
    }),
    options.status,
  );
};

const scopeOf = (form: URLSearchParams) => field(form, 'signalId') || null;

const suppressionListPage = (services: Pick<Services, 'signals' | 'suppressions'>) => (ctx: DashboardContext) =>
  render(services, ctx);

const addSuppressions = (services: Pick<Services, 'signals' | 'suppressions'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const form = ctx.state.form as URLSearchParams;
  const kind = field(form, 'kind');
  const values = lines(field(form, 'values'));
  if (!isKind(kind) || values.length === 0)
    return render(services, ctx, {
      notice: { kind: 'error', text: 'Choose a kind and give at least one value.' },
      status: 422,
    });
  try {
    const added = await services.suppressions.add(
      session.accountId,
      values.map((value) => ({ kind, value, note: field(form, 'note') || null, signalId: scopeOf(form) })),
    );
    const rejected = added.rejected.map((r) => ({ where: values[r.index]!, message: r.message }));
    await render(services, ctx, { notice: outcome(added.added.length, added.duplicates.length, rejected) });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

const importSuppressions = (services: Pick<Services, 'signals' | 'suppressions'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const form = ctx.state.form as URLSearchParams;
  try {
    const signalId = scopeOf(form);
    if (signalId) await services.signals.requireOwned(session.accountId, signalId);
    const imported = await services.suppressions.import(session.accountId, field(form, 'csv'), signalId ?? undefined);
    const rejected = imported.errors.map((e) => ({ where: `line ${e.line}`, message: e.message }));
    await render(services, ctx, { notice: outcome(imported.accepted, imported.duplicates, rejected) });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

const removeSuppression = (services: Pick<Services, 'signals' | 'suppressions'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const id = String(ctx.params.suppressionId);
  if (!isUuid(id)) throw notFound('Suppression');
  await services.suppressions.remove(session.accountId, id);
  await render(services, ctx, { notice: { kind: 'ok', text: 'Entry removed.' } });
};

/**
 * The suppression list: people and companies the account never wants as leads. Add values a
 * line each or paste a CSV, filter by kind and search by value, remove an entry; the same service as REST.
 */
export function suppressionRoutes(router: Router<DashboardState>, services: Services): void {
  router.get('/suppressions', suppressionListPage(services));
  router.post('/suppressions', addSuppressions(services));
  router.post('/suppressions/import', importSuppressions(services));
  router.post('/suppressions/:suppressionId/remove', removeSuppression(services));
}
