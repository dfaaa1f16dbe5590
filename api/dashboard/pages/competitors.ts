import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { notFound, type AppError } from '../../../src/errors';
import { html } from '../html';
import { csrfField, page, postButton, type Notice } from '../layout';
import { errorNotice, field, isUuid, send, signedIn, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';

const PAGE = 50;

/** Handles as a person types them: one a line, or separated by commas or spaces. */
const handlesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((h) => h.trim())
    .filter(Boolean);

const render = async (
  services: Pick<Services, 'competitors'>,
  ctx: DashboardContext,
  options: { notice?: Notice; status?: number } = {},
) => {
  const session = signedIn(ctx);
  const pageNo = Math.max(1, Number.parseInt(String(ctx.query.page ?? '1'), 10) || 1);
  const list = await services.competitors.list(session.accountId, { limit: PAGE, offset: (pageNo - 1) * PAGE });
  const pageLink = (n: number) => `/competitors?page=${n}`;
  send(
    ctx,
    page({
      title: 'Competitors',
      section: '/competitors',
      session,
      notice: options.notice,
      body: html`<p class="hint">
          People who like or repost a competitor's posts on Bluesky, and its new followers, become leads of every
          account watchlist with the competitor events on. Without handles, the competitor's domain is its handle when
          Bluesky verifies it.
        </p>
        <section class="card">
          <h2>Add a competitor</h2>
          <form class="stack" method="post" action="/competitors">
            ${csrfField(session.csrfToken)}
            <div>
              <label for="name">Name</label><input id="name" name="name" type="text" maxlength="300" required />
            </div>
            <div>
              <label for="domain">Domain or website</label
              ><input id="domain" name="domain" type="text" maxlength="2000" required placeholder="rival.com" />
            </div>
            <div>
              <label for="handles">Bluesky handles (optional, one a line)</label
              ><textarea id="handles" name="handles" rows="2" placeholder="rival.bsky.social"></textarea>
            </div>
            <div><button type="submit">Add</button></div>
          </form>
        </section>
        <section class="card">
          <h2>Competitors (${list.total})</h2>
          <table class="responsive" id="competitors">
            <thead>
              <tr>
                <th>Name</th>
                <th>Domain</th>
                <th>Bluesky handles</th>
                <th>Added</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${list.items.map(
                (c) =>
                  html`<tr>
                    <td data-label="Name">${c.name}</td>
                    <td data-label="Domain"><code>${c.domain}</code></td>
                    <td data-label="Bluesky handles">
                      <form class="actions" method="post" action="/competitors/${c.id}">
                        ${csrfField(session.csrfToken)}
                        <input
                          name="handles"
                          type="text"
                          aria-label="Bluesky handles of ${c.name}"
                          value="${c.blueskyHandles.join(', ')}"
                        />
                        <button type="submit" class="secondary">Save</button>
                      </form>
                    </td>
                    <td data-label="Added">${dateTime(c.createdAt)}</td>
                    <td>
                      ${postButton(session, `/competitors/${c.id}/remove`, 'Remove', {
                        style: 'danger',
                        confirm: `Remove ${c.name}? Its events stop reaching the watchlists.`,
                      })}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${list.items.length === 0 ? html`<p>No competitor yet.</p>` : ''}
          <p class="actions">
            ${pageNo > 1 ? html`<a href="${pageLink(pageNo - 1)}">Newer</a>` : ''}
            ${list.hasMore ? html`<a href="${pageLink(pageNo + 1)}">Older</a>` : ''}
          </p>
        </section>`,
    }),
    options.status,
  );
};

const competitorsPage = (services: Pick<Services, 'competitors'>) => (ctx: DashboardContext) => render(services, ctx);

const addCompetitor = (services: Pick<Services, 'competitors'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const form = ctx.state.form as URLSearchParams;
  try {
    const made = await services.competitors.create(session.accountId, {
      name: field(form, 'name'),
      domain: field(form, 'domain'),
      blueskyHandles: handlesOf(field(form, 'handles')),
    });
    await render(services, ctx, { notice: { kind: 'ok', text: `${made.name} (${made.domain}) added.` } });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

const updateCompetitor = (services: Pick<Services, 'competitors'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const id = String(ctx.params.competitorId);
  if (!isUuid(id)) throw notFound('Competitor');
  const form = ctx.state.form as URLSearchParams;
  try {
    const changed = await services.competitors.update(session.accountId, id, {
      blueskyHandles: handlesOf(field(form, 'handles')),
    });
    await render(services, ctx, { notice: { kind: 'ok', text: `${changed.name}'s handles saved.` } });
  } catch (err) {
    await render(services, ctx, { notice: errorNotice(err), status: (err as AppError).status });
  }
};

const removeCompetitor = (services: Pick<Services, 'competitors'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const id = String(ctx.params.competitorId);
  if (!isUuid(id)) throw notFound('Competitor');
  await services.competitors.remove(session.accountId, id);
  await render(services, ctx, { notice: { kind: 'ok', text: 'Competitor removed.' } });
};

/**
 * The account's competitors: whose posts' reactions and new followers feed the watchlists'
 * competitor events. Add, change the handles, remove; the same service as REST.
 */
export function competitorRoutes(router: Router<DashboardState>, services: Pick<Services, 'competitors'>): void {
  router.get('/competitors', competitorsPage(services));
  router.post('/competitors', addCompetitor(services));
  router.post('/competitors/:competitorId', updateCompetitor(services));
  router.post('/competitors/:competitorId/remove', removeCompetitor(services));
}
