import { DEFAULT_WATCHLIST_SOURCES, type WatchlistEventKey } from '../catalogue/watchlist-events';
import { TRUSTED_COMPANY } from './kit/evaluation-rules';

/**
 * The read model of watched companies and people: which stored companies (and people) the
 * account watchlists' entries (`watched_companies`) name, and which watchlists count. It is
 * the account-watchlist type's own (./account-watchlist.ts owns the config whose JSON paths are
 * read here); its evaluation and every source that asks "is this company watched" read it,
 * so an entry matches by the same rules everywhere: its page URL, else its domain, else its
 * name (an entry given by name alone).
 */

/** Which signals' entries count. */
export interface Watchers {
  /** Only account watchlists with this event source on (unset in the config: its default). */
  wanting?: WatchlistEventKey;
  /** Only active signals; else every signal not deleted, paused ones too. */
  activeOnly: boolean;
}

/** The ids of the signals whose entries count, as SQL (`SELECT id FROM signals ...`). */
export function watchingSignals(watchers: Watchers): string {
  const where = ['s.deleted_at IS NULL'];
  if (watchers.activeOnly) where.push(`s.status = 'active'`);
  if (watchers.wanting) {
    const fallback = DEFAULT_WATCHLIST_SOURCES[watchers.wanting].enabled ? 'true' : 'false';
    where.push(
      `s.signal_type_id = 'account_watchlist'`,
      `coalesce((s.config->'sources'->'${watchers.wanting}'->>'enabled')::boolean, ${fallback})`,
    );
  }
  return `SELECT s.id FROM signals s WHERE ${where.join(' AND ')}`;
}

/** The company entries (rows of `watched_companies`) of those signals, as SQL. */
function companyEntries(watchers: Watchers): string {
  return `SELECT w.* FROM watched_companies w JOIN (${watchingSignals(watchers)}) g ON g.id = w.signal_id WHERE w.kind = 'company'`;
}

/**
 * The stored companies those signals' entries name, as SQL selecting `id`. `trustedNamesOnly`:
 * a name binds only a trusted company (a claimed one is reached by the domain its claimants
 * named, docs/decisions/claims.md); `only` narrows it to one company (a parameter such as `$1`).
 */
export function watchedCompanyIds(watchers: Watchers, options: { trustedNamesOnly: boolean; only?: string }): string {
  const one = options.only ? `AND c.id = ${options.only}` : '';
  const trusted = options.trustedNamesOnly ? `AND ${TRUSTED_COMPANY}` : '';
  return `
  WITH entries AS (${companyEntries(watchers)})
  SELECT c.id FROM entries w JOIN companies c ON c.linkedin_url = w.linkedin_url ${one}
  UNION SELECT c.id FROM entries w JOIN companies c ON c.domain = w.domain ${one}
  UNION SELECT c.id FROM entries w JOIN companies c
    ON w.linkedin_url IS NULL AND w.domain IS NULL AND c.name_key = w.name_key ${trusted} ${one}`;
}

/** Those signals' entries given by a name alone (no URL, no domain), as SQL of `watched_companies` rows. */
export function nameOnlyEntries(watchers: Watchers): string {
  return `${companyEntries(watchers)} AND w.domain IS NULL AND w.linkedin_url IS NULL`;
}

/**
 * Whether the entry `w` of one account watchlist (its id the parameter `signal`, such as `$1`)
 * names the company `c`, as an SQL condition: by URL, else domain, else a name no other entry
 * of the signal shares, and then only a trusted company (docs/decisions/claims.md). The
 * evaluation and the dashboard's match review (watchlist-matches.ts) both read it.
 */
export function entryBindsCompany(signal: string): string {
  return `(
        w.linkedin_url = c.linkedin_url OR w.domain = c.domain
        OR (w.linkedin_url IS NULL AND w.domain IS NULL AND w.name_key = c.name_key AND ${TRUSTED_COMPANY}
            AND (SELECT count(*) FROM watched_companies n WHERE n.signal_id = ${signal} AND n.name_key = c.name_key) = 1))`;
}

/**
 * Whether one account watchlist (its id the parameter `signal`) watches the company `c` (see
 * {@link entryBindsCompany}) or the person of the event `e` (by page URL), as an SQL condition.
 */
export function watchedBySignal(signal: string): string {
  return `(EXISTS (SELECT 1 FROM watched_companies w WHERE w.signal_id = ${signal} AND w.kind = 'company' AND ${entryBindsCompany(signal)})
      OR EXISTS (SELECT 1 FROM watched_companies w JOIN people ep ON ep.id = e.person_id
        WHERE w.signal_id = ${signal} AND w.kind = 'person' AND w.linkedin_url = ep.linkedin_url))`;
}

/**
 * The domains of the competitors of accounts with an active account watchlist that wants a
 * competitor event (competitor_social_reactions or competitor_connections), as SQL selecting
 * `domain` and `name`: what the social sources read.
 */
export function watchedCompetitors(): string {
  const wanting = [
    watchingSignals({ wanting: 'competitor_social_reactions', activeOnly: true }),
    watchingSignals({ wanting: 'competitor_connections', activeOnly: true }),
  ];
  return `SELECT k.domain, min(k.name) AS name, array_agg(DISTINCT h) FILTER (WHERE h IS NOT NULL) AS handles
    FROM competitors k LEFT JOIN LATERAL unnest(k.bluesky_handles) h ON TRUE
    WHERE EXISTS (SELECT 1 FROM signals ws WHERE ws.account_id = k.account_id
      AND ws.id IN (${wanting[0]} UNION ${wanting[1]}))
    GROUP BY k.domain`;
}

/**
 * Whether the company `c` of a competitor event (`e`) is a competitor of the account of one
 * watchlist (its id the parameter `signal`), by domain, as an SQL condition.
 */
export function competitorOfSignal(signal: string): string {
  return `(e.type IN ('competitor_social_reactions', 'competitor_connections') AND c.domain IS NOT NULL
      AND EXISTS (SELECT 1 FROM competitors k JOIN signals ks ON ks.account_id = k.account_id
        WHERE ks.id = ${signal} AND k.domain = c.domain))`;
}

/**
 * The account watchlists that arrived rows of these companies and people (parameters such as
 * `$3` and `$4`, text arrays of ids) may concern, as SQL selecting `id`: an entry names the
 * company by URL, domain or name, or the person by URL, or the company is a competitor of the
 * watchlist's account. Wider than {@link watchedBySignal} (a name binds here whatever the trust
 * and however many entries share it), as waking may be (docs/decisions/wake-on-arrival.md).
 */
export function signalsWatchingArrivals(companies: string, people: string): string {
  const arrived = `(SELECT * FROM companies WHERE id = ANY(${companies}::text[]))`;
  return `SELECT w.signal_id FROM watched_companies w JOIN ${arrived} c ON c.linkedin_url = w.linkedin_url WHERE w.kind = 'company'
    UNION SELECT w.signal_id FROM watched_companies w JOIN ${arrived} c ON c.domain = w.domain WHERE w.kind = 'company'
    UNION SELECT w.signal_id FROM watched_companies w JOIN ${arrived} c ON c.name_key = w.name_key WHERE w.kind = 'company'
    UNION SELECT w.signal_id FROM watched_companies w JOIN people p ON p.linkedin_url = w.linkedin_url
      WHERE w.kind = 'person' AND p.id = ANY(${people}::text[])
    UNION SELECT ks.id FROM competitors k JOIN signals ks ON ks.account_id = k.account_id
      JOIN ${arrived} c ON c.domain = k.domain`;
}
