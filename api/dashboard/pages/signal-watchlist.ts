import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { notFound } from '../../../src/errors';
import { signalType } from '../../../src/signal-types/registry';
import type { MatchCounts, ReviewedEntry, WatchedEntryMatch } from '../../../src/services/signals/watchlist-matches';
import type { MemberSession } from '../../../src/services/member-sessions';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Notice } from '../layout';
import { isUuid, send, signedIn, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';

const ENTRIES_PER_PAGE = 25;

/** The match as a short badge; the explanation beside it says the rest. */
const MATCH_LABELS: Record<WatchedEntryMatch, string> = {
  bound: 'matched',
  claimed: 'matched by its site',
  awaitingSite: 'site not read yet',
  sharedName: 'name shared',
  unknownName: 'no known company',
  unknownPage: 'no known company',
  personBound: 'matched',
  personUnknown: 'no known person',
};
const MATCHED: WatchedEntryMatch[] = ['bound', 'claimed', 'personBound'];

/** The list in one line: how many entries bind something now, and how many wait or bind nothing. */
export function matchSummary(counts: MatchCounts): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const matched = MATCHED.reduce((n, m) => n + counts[m], 0);
  const parts = [`${matched} matched a known company or person`];
  if (counts.claimed) parts.push(`${counts.claimed} of them known from their own site only`);
  if (counts.awaitingSite) parts.push(`${counts.awaitingSite} waiting for their site to be read`);
  const none = counts.sharedName + counts.unknownName + counts.unknownPage + counts.personUnknown;
  if (none) parts.push(`${none} match nothing the service knows yet`);
  return `Watching ${total} ${total === 1 ? 'entry' : 'entries'}: ${parts.join(', ')}.`;
}

/** The card of the signal and edit pages: the list counted by match, and the way to the entries. */
export function watchlistCard(signalId: string, counts: MatchCounts): SafeHtml {
  return html`<section class="card" id="watchlist">
    <h2>Watchlist</h2>
    <p data-watchlist="summary">${matchSummary(counts)}</p>
    <p><a class="button secondary" href="/signals/${signalId}/watchlist">See, search and remove watched entries</a></p>
  </section>`;
}

const entryLabel = (entry: ReviewedEntry) => entry.name ?? entry.domain ?? entry.linkedinUrl ?? '';

function entryRow(session: MemberSession, signalId: string, entry: ReviewedEntry, back: string): SafeHtml {
  const identifiers = [entry.domain, entry.linkedinUrl].filter((x) => x && x !== entryLabel(entry));
  return html`<tr data-entry="${entry.id}" data-match="${entry.match}">
    <td data-label="Entry">
      <strong>${entryLabel(entry)}</strong>${identifiers.map((x) => html`<br /><span class="hint">${x}</span>`)}
      ${entry.kind === 'person' ? html`<br /><span class="hint">a person</span>` : ''}
    </td>
    <td data-label="Match">
      <span class="badge ${MATCHED.includes(entry.match) ? 'active' : 'paused'}">${MATCH_LABELS[entry.match]}</span>
      <span class="match-explanation">${entry.explanation}</span>
    </td>
    <td data-label="Added">${dateTime(entry.addedAt)}</td>
    <td>
      <form
        class="inline"
        method="post"
        action="/signals/${signalId}/watchlist/${entry.id}/remove${back}"
        data-confirm="Stop watching ${entryLabel(entry)}?"
      >
        ${csrfField(session.csrfToken)}<button type="submit" class="danger">
          Remove<span class="visually-hidden"> ${entryLabel(entry)}</span>
        </button>
      </form>
    </td>
  </tr>`;
}

const watchlistOf = async (services: Pick<Services, 'signals'>, ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const id = String(ctx.params.signalId);
  if (!isUuid(id)) throw notFound('Signal');
  const signal = await services.signals.get(session.accountId, id);
  if (!signalType(signal.signalTypeId).watchesCompanies) throw notFound('Watchlist');
  return { session, signal };
};

const render = async (
  services: Pick<Services, 'signals' | 'watchlistMatches'>,
  ctx: DashboardContext,
  notice?: Notice,
) => {
  const { session, signal } = await watchlistOf(services, ctx);
  const search = String(ctx.query.q ?? '').trim();
  const pageNo = Math.max(1, Math.min(100_000, Number.parseInt(String(ctx.query.page ?? '1'), 10) || 1));
  const [list, counts] = await Promise.all([
    services.watchlistMatches.page(signal.id, {
      search,
      limit: ENTRIES_PER_PAGE,
      offset: (pageNo - 1) * ENTRIES_PER_PAGE,
    }),
    services.watchlistMatches.counts(signal.id),
  ]);
  const base = `/signals/${signal.id}/watchlist`;
  const query = (n: number) => `?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(n) })}`;
  send(
    ctx,
    page({
      title: `Watchlist of ${signal.name}`,
      section: '/signals',
      session,
      notice,
      body: html`<section class="card">
          <p data-watchlist="summary">${matchSummary(counts)}</p>
          <form method="get" action="${base}" class="actions" role="search">
            <div>
              <label for="q">Search by name, domain or company page</label
              ><input id="q" name="q" type="search" value="${search}" />
            </div>
            <div><button type="submit" class="secondary">Search</button></div>
            ${search ? html`<a href="${base}">Show every entry</a>` : ''}
          </form>
          <table class="responsive" id="watched-entries">
            <thead>
              <tr>
                <th>Entry</th>
                <th>Match</th>
                <th>Added</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${list.items.map((entry) => entryRow(session, signal.id, entry, query(pageNo)))}
            </tbody>
          </table>
          ${list.items.length === 0 ? html`<p>${search ? 'No entry holds this text.' : 'No entry yet.'}</p>` : ''}
          <nav class="pager" aria-label="Watchlist pages">
            ${pageNo > 1 ? html`<a href="${base}${query(pageNo - 1)}">Previous</a>` : ''}<span>${search ? `${list.total} found` : `${list.total} in total`}</span>${list.hasMore ? html`<a href="${base}${query(pageNo + 1)}">Next</a>` : ''}
          </nav>
        </section>
        <p>
          <a href="/signals/${signal.id}/edit">Add companies</a> ·
          <a href="/signals/${signal.id}">Back to the signal</a>
        </p>`,
    }),
  );
};

const watchlistPage = (services: Pick<Services, 'signals' | 'watchlistMatches'>) => (ctx: DashboardContext) =>
  render(services, ctx);

const removeWatchedEntry =
  (services: Pick<Services, 'signals' | 'watchlistMatches' | 'watchlists'>) => async (ctx: DashboardContext) => {
    const { signal } = await watchlistOf(services, ctx);
    const entryId = String(ctx.params.entryId);
    if (!isUuid(entryId)) throw notFound('Watched entry');
    const { removed } = await services.watchlists.remove(signal.id, { ids: [entryId] });
    if (removed === 0) throw notFound('Watched entry');
    await render(services, ctx, { kind: 'ok', text: 'Entry removed: its events no longer reach this watchlist.' });
  };

/**
 * A watchlist's entries (issue 38, item 3): paged, searched by name, domain or page, each with
 * what it binds now or why not yet; an entry is removed with the REST operation's service.
 */
export function watchlistRoutes(
  router: Router<DashboardState>,
  services: Pick<Services, 'signals' | 'watchlistMatches' | 'watchlists'>,
): void {
  router.get('/signals/:signalId/watchlist', watchlistPage(services));
  router.post('/signals/:signalId/watchlist/:entryId/remove', removeWatchedEntry(services));
}
