import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { signalListQuery } from '../../schemas/signals';
import { dailyChart } from '../charts';
import { html } from '../html';
import { page } from '../layout';
import { callerOf, send, signedIn, type DashboardState } from '../web';
import { credits } from './format';
import { signalTable } from './signal-parts';

/** Balance, the last 30 days as a chart, and the active signals. */
export function overviewRoutes(
  router: Router<DashboardState>,
  services: Pick<Services, 'accountActivity' | 'credits' | 'signals'>,
): void {
  router.get('/', async (ctx) => {
    const session = signedIn(ctx);
    const [balance, days, active] = await Promise.all([
      services.credits.balance(session.accountId),
      services.accountActivity.daily(session.accountId, 30),
      services.signals.list(callerOf(session), { ...signalListQuery.parse({ limit: '100' }), status: 'active' }),
    ]);
    const leads30 = days.reduce((sum, d) => sum + d.leads, 0);
    const spent30 = days.reduce((sum, d) => sum + d.creditsSpent, 0);
    send(
      ctx,
      page({
        title: 'Overview',
        section: '/',
        session,
        body: html`<div class="stats">
            <div class="stat">
              <div class="hint">Credit balance</div>
              <div class="value" id="balance">${credits(balance)}</div>
              <a href="/credits">Usage</a>
            </div>
            <div class="stat">
              <div class="hint">Leads, last 30 days</div>
              <div class="value">${leads30}</div>
            </div>
            <div class="stat">
              <div class="hint">Credits spent, last 30 days</div>
              <div class="value">${credits(spent30)}</div>
            </div>
            <div class="stat">
              <div class="hint">Active signals</div>
              <div class="value">${active.total}</div>
            </div>
          </div>
          <section class="card">
            <h2>Last 30 days</h2>
            ${dailyChart(days)}
          </section>
          <section class="card">
            <h2>Active signals</h2>
            ${active.signals.length ? signalTable(active.signals) : html`<p>No active signal yet. <a href="/signals">Create one</a>.</p>`}
          </section>`,
      }),
    );
  });
}
