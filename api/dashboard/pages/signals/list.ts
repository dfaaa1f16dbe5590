import type { Services } from '../../../../src/services';
import { signalListQuery } from '../../../schemas/signals';
import { html } from '../../html';
import { page } from '../../layout';
import { callerOf, send, signedIn, type DashboardContext } from '../../web';
import { counted } from '../format';
import { signalTable } from '../signal-parts';
import { FORM_TYPES, newTitle } from './new-signal';

/** The account's signals, 50 a page, with a create button per type. */
export const signalListPage =
  ({ signals }: Pick<Services, 'signals'>) =>
  async (ctx: DashboardContext) => {
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
  };
