import type Router from '@koa/router';
import { z } from 'zod';
import type { Services } from '../../../src/services';
import { AppError } from '../../../src/errors';
import type { UsageItem } from '../../../src/services/credits';
import { html } from '../html';
import { page, type Notice } from '../layout';
import { callerOf, send, signedIn, type DashboardState } from '../web';
import { credits, dateTime } from './format';

const PAGE = 50;
const usageFilters = z.object({
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  signalId: z.uuid().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** Balance and the usage list, filtered by dates (UTC days, inclusive) and signal. */
export function creditRoutes(router: Router<DashboardState>, services: Pick<Services, 'credits' | 'signals'>): void {
  router.get('/credits', async (ctx) => {
    const session = signedIn(ctx);
    const filters = usageFilters.parse({
      ...ctx.query,
      from: ctx.query.from || undefined,
      to: ctx.query.to || undefined,
      signalId: ctx.query.signalId || undefined,
    });
    const to = filters.to ? new Date(Date.parse(filters.to) + 86_400_000) : undefined;
    let notice: Notice;
    let usage = {
      items: [] as UsageItem[],
      total: 0,
      hasMore: false,
    };
    const [balance, signals] = await Promise.all([
      services.credits.balance(session.accountId),
      services.signals.list(callerOf(session), { limit: 100, offset: 0 }),
    ]);
    try {
      usage = await services.credits.usage(session.accountId, {
        from: filters.from ? new Date(filters.from) : undefined,
        to,
        signalId: filters.signalId,
        limit: PAGE,
        offset: (filters.page - 1) * PAGE,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      notice = { kind: 'error', text: err.message };
    }
    const names = new Map(signals.signals.map((s) => [s.id, s.name]));
    const query = (pageNo: number) =>
      `/credits?${new URLSearchParams({ ...(filters.from ? { from: filters.from } : {}), ...(filters.to ? { to: filters.to } : {}), ...(filters.signalId ? { signalId: filters.signalId } : {}), page: String(pageNo) })}`;
    send(
      ctx,
      page({
        title: 'Credits',
        section: '/credits',
        session,
        notice,
        body: html`<div class="stats">
            <div class="stat">
              <div class="hint">Credit balance</div>
              <div class="value">${credits(balance)}</div>
            </div>
          </div>
          <section class="card">
            <h2>Usage</h2>
            <form method="get" action="/credits" class="actions">
              <div>
                <label for="from">From (UTC day)</label
                ><input id="from" name="from" type="date" value="${filters.from ?? ''}" />
              </div>
              <div>
                <label for="to">To (UTC day, included)</label
                ><input id="to" name="to" type="date" value="${filters.to ?? ''}" />
              </div>
              <div>
                <label for="signalId">Signal</label
                ><select id="signalId" name="signalId">
                  <option value="">All signals</option>
                  ${signals.signals.map((s) => html`<option value="${s.id}" ${filters.signalId === s.id ? 'selected' : ''}>${s.name}</option>`)}
                </select>
              </div>
              <div><button type="submit">Filter</button></div>
            </form>
            <table class="responsive">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Operation</th>
                  <th>Signal</th>
                  <th>Credits</th>
                </tr>
              </thead>
              <tbody>
                ${usage.items.map(
                  (item) =>
                    html`<tr>
                      <td data-label="When">${dateTime(item.at)}</td>
                      <td data-label="Operation">${item.operation}</td>
                      <td data-label="Signal">
                        ${item.signalId ? html`<a href="/signals/${item.signalId}">${names.get(item.signalId) ?? item.signalId}</a>` : ''}
                      </td>
                      <td data-label="Credits">${item.credits > 0 ? '+' : ''}${credits(item.credits)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${usage.items.length === 0 ? html`<p>No credit movements match.</p>` : ''}
            <nav class="pager" aria-label="Usage pages">
              ${filters.page > 1 ? html`<a href="${query(filters.page - 1)}">Newer</a>` : ''}
              <span>${usage.total} movement(s)</span>
              ${usage.hasMore ? html`<a href="${query(filters.page + 1)}">Older</a>` : ''}
            </nav>
          </section>`,
      }),
    );
  });
}
