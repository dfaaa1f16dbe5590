import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import { entryBindsCompany } from '../../signal-types/watched-companies';

/**
 * Whether a watched entry binds something the service knows, by the evaluation's own rule
 * (`entryBindsCompany`), and if not what happens next (docs/decisions/claims.md):
 * - `bound`: a trusted company (a provider's, a registry's or a corroborated one);
 * - `claimed`: the company the entry's domain made, known from its own site only;
 * - `awaitingSite`: a domain no company has yet; the company-profiles source adds it at its next run;
 * - `sharedName`: a name another entry of the list also gives, which binds nothing;
 * - `unknownName`: a name no trusted company has (names never bind a claimed one);
 * - `unknownPage`: a company page no company carries yet;
 * - `personBound` / `personUnknown`: a watched person's profile, known or not.
 */
export type WatchedEntryMatch =
  'bound' | 'claimed' | 'awaitingSite' | 'sharedName' | 'unknownName' | 'unknownPage' | 'personBound' | 'personUnknown';

export interface BoundCompany {
  id: string;
  name: string;
  domain: string | null;
  provenance: 'trusted' | 'claimed';
}

export interface ReviewedEntry {
  id: string;
  kind: 'company' | 'person';
  name: string | null;
  domain: string | null;
  linkedinUrl: string | null;
  addedAt: string;
  match: WatchedEntryMatch;
  /** The companies the entry binds now (a name may bind several trusted companies of that name). */
  companies: BoundCompany[];
  /** A watched person as the store knows them. */
  person: { name: string; title: string; companyName: string | null } | null;
  /** The match in a sentence a person reads: what it bound, or why not yet and what happens next. */
  explanation: string;
}

/** Entries counted by match, over the whole list (not the page). */
export type MatchCounts = Record<WatchedEntryMatch, number>;

/** At most this many bound companies are named per entry (a common name binds every company of it). */
const COMPANIES_SHOWN = 3;

/** The binding of each entry, written against `w` (the entry): the companies it binds and its person. */
const BINDING = `
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS n,
           coalesce(json_agg(json_build_object('id', b.id, 'name', b.name, 'domain', b.domain, 'provenance', b.provenance)
                    ORDER BY b.trusted DESC, b.id) FILTER (WHERE b.rank <= ${COMPANIES_SHOWN}), '[]') AS shown,
           bool_or(b.trusted) AS any_trusted
    FROM (SELECT c.id, c.name, c.domain, c.provenance, c.provenance = 'trusted' AS trusted,
                 row_number() OVER (ORDER BY c.provenance = 'trusted' DESC, c.id) AS rank
          FROM companies c WHERE w.kind = 'company' AND ${entryBindsCompany('w.signal_id')}) b
  ) bound ON TRUE
  LEFT JOIN LATERAL (
    SELECT p.first_name, p.last_name, p.title, pc.name AS company_name
    FROM people p LEFT JOIN companies pc ON pc.id = p.company_id
    WHERE w.kind = 'person' AND p.linkedin_url = w.linkedin_url ORDER BY p.id LIMIT 1
  ) person ON TRUE`;

/** The match of an entry from its binding, the same CASE for a page and for the counts. */
const MATCH = `CASE
    WHEN w.kind = 'person' THEN CASE WHEN person.first_name IS NOT NULL THEN 'personBound' ELSE 'personUnknown' END
    WHEN bound.any_trusted THEN 'bound'
    WHEN bound.n > 0 THEN 'claimed'
    WHEN w.domain IS NOT NULL THEN 'awaitingSite'
    WHEN w.linkedin_url IS NOT NULL THEN 'unknownPage'
    WHEN (SELECT count(*) FROM watched_companies n WHERE n.signal_id = w.signal_id AND n.name_key = w.name_key) > 1
      THEN 'sharedName'
    ELSE 'unknownName' END`;

/** An entry whose name, domain or page holds the searched text (case-insensitively). */
const SEARCHED = `($2::text IS NULL OR strpos(lower(concat_ws(' ', w.name, w.domain, w.linkedin_url)), lower($2)) > 0)`;

function explanationOf(entry: Omit<ReviewedEntry, 'explanation'>): string {
  const names = entry.companies.map((c) => (c.domain && c.domain !== c.name ? `${c.name} (${c.domain})` : c.name));
  switch (entry.match) {
    case 'bound':
      return `Bound to ${names.join(', ')}${entry.companies.length === COMPANIES_SHOWN ? ' and maybe more' : ''}: its events reach this watchlist.`;
    case 'claimed':
      return (
        `Bound to ${entry.domain ?? names[0]} as read from its own site (known only from watchlists): ` +
        'its site, feeds and job board reach this watchlist; it becomes a known company when a provider or registry names this domain.'
      );
    case 'awaitingSite':
      return `Not known yet: the company-profiles source adds ${entry.domain} at its next run and reads its site, feeds and job board.`;
    case 'sharedName':
      return 'Not bound: another entry gives the same name. Give each its domain or company page to tell them apart.';
    case 'unknownName':
      return 'No known company has this name (a name binds only companies from a provider or registry). Add its domain so the company-profiles source reads its site.';
    case 'unknownPage':
      return 'No known company has this company page yet; it binds when a provider or registry record carries it. Add the domain so the company-profiles source reads its site.';
    case 'personBound': {
      const p = entry.person!;
      return `Watching ${[p.name, p.title].filter(Boolean).join(', ')}${p.companyName ? ` at ${p.companyName}` : ''}.`;
    }
    case 'personUnknown':
      return 'No record of this person yet: their events reach this watchlist once a provider reports them.';
  }
}

/**
 * The dashboard's view of a watchlist (issue 38, item 3): each entry with what it binds now, paged
 * and searched, and the list counted by match. Reads only; the evaluation decides by the same rule.
 */
export class WatchlistMatches {
  constructor(private readonly db: DataSource) {}

  async page(
    signalId: string,
    query: { search?: string; limit: number; offset: number },
  ): Promise<{ items: ReviewedEntry[]; total: number; hasMore: boolean }> {
    const search = query.search?.trim() || null;
    const found = await rows<{
      id: string;
      kind: 'company' | 'person';
      name: string | null;
      domain: string | null;
      linkedin_url: string | null;
      added_at: Date;
      match: WatchedEntryMatch;
      shown: BoundCompany[];
      first_name: string | null;
      last_name: string | null;
      title: string | null;
      company_name: string | null;
      total: number;
    }>(
      this.db,
      `SELECT w.id, w.kind, w.name, w.domain, w.linkedin_url, w.added_at, bound.shown,
              person.first_name, person.last_name, person.title, person.company_name,
              ${MATCH} AS match, count(*) OVER ()::int AS total
       FROM watched_companies w ${BINDING}
       WHERE w.signal_id = $1 AND ${SEARCHED}
       ORDER BY w.added_at, w.id LIMIT $3 OFFSET $4`,
      [signalId, search, query.limit, query.offset],
    );
    const total = found[0]?.total ?? (query.offset > 0 ? await this.countSearched(signalId, search) : 0);
    const items = found.map((row) => {
      const entry = {
        id: row.id,
        kind: row.kind,
        name: row.name,
        domain: row.domain,
        linkedinUrl: row.linkedin_url,
        addedAt: row.added_at.toISOString(),
        match: row.match,
        companies: row.shown,
        person:
          row.first_name !== null
            ? {
                name: `${row.first_name} ${row.last_name ?? ''}`.trim(),
                title: row.title ?? '',
                companyName: row.company_name,
              }
            : null,
      };
      return { ...entry, explanation: explanationOf(entry) };
    });
    return { items, total, hasMore: query.offset + items.length < total };
  }

  /** Every entry of the list counted by its match. */
  async counts(signalId: string): Promise<MatchCounts> {
    const counted = await rows<{ match: WatchedEntryMatch; n: number }>(
      this.db,
      `SELECT match, count(*)::int AS n FROM (
         SELECT ${MATCH} AS match FROM watched_companies w ${BINDING} WHERE w.signal_id = $1
       ) m GROUP BY match`,
      [signalId],
    );
    const counts: MatchCounts = {
      bound: 0,
      claimed: 0,
      awaitingSite: 0,
      sharedName: 0,
      unknownName: 0,
      unknownPage: 0,
      personBound: 0,
      personUnknown: 0,
    };
    for (const row of counted) counts[row.match] = row.n;
    return counts;
  }

  private async countSearched(signalId: string, search: string | null): Promise<number> {
    const [{ n }] = await rows<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM watched_companies w WHERE w.signal_id = $1 AND ${SEARCHED}`,
      [signalId, search],
    );
    return n;
  }
}
