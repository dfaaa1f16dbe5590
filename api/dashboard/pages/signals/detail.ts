import type { Services } from '../../../../src/services';
import { notFound } from '../../../../src/errors';
import { signalType } from '../../../../src/signal-types/registry';
import { funnelChart } from '../../charts';
import { html } from '../../html';
import { page, postButton, type Notice } from '../../layout';
import { isUuid, send, signedIn, type DashboardContext } from '../../web';
import { counted, dateTime } from '../format';
import { statusBadge, typeLabel } from '../signal-parts';
import { crmExclusionsCard } from '../signal-crm-exclusions';
import { destinationsCard } from '../signal-destinations';
import { watchlistCard } from '../signal-watchlist';
import { leadEntry } from './lead-entry';

const LEADS_PER_PAGE = 10;

export function signalIdOf(ctx: DashboardContext): string {
  const id = String(ctx.params.signalId);
  if (!isUuid(id)) throw notFound('Signal');
  return id;
}

export type SignalDetailDeps = Pick<
  Services,
  'signals' | 'deliveryLog' | 'funnel' | 'crmConnections' | 'watchlistMatches'
>;

/** The signal's page: its facts and actions, watchlist, destinations, CRM exclusions, funnel and leads. */
export async function signalDetail(
  { signals, deliveryLog, funnel: funnels, crmConnections, watchlistMatches }: SignalDetailDeps,
  ctx: DashboardContext,
  notice?: Notice,
  status = 200,
) {
  const session = signedIn(ctx);
  const signalId = signalIdOf(ctx);
  const signal = await signals.get(session.accountId, signalId);
  const pageNo = Math.max(1, Math.min(100_000, Number(ctx.query.page) || 1));
  const watches = signalType(signal.signalTypeId).watchesCompanies;
  const [log, funnel, connections, matchCounts] = await Promise.all([
    deliveryLog.page(session.accountId, signalId, {
      limit: LEADS_PER_PAGE,
      offset: (pageNo - 1) * LEADS_PER_PAGE,
    }),
    funnels.ofSignal(await signals.requireOwned(session.accountId, signalId), {}),
    crmConnections.list(session.accountId),
    watches ? watchlistMatches.counts(signalId) : null,
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
          <p>${statusBadge(signal.status)} ${typeLabel(signal.signalTypeId)} · created ${dateTime(signal.createdAt)}</p>
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
}

export const signalPage = (deps: SignalDetailDeps) => (ctx: DashboardContext) => signalDetail(deps, ctx);
