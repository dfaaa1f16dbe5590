import type { EntityManager } from 'typeorm';
import type { Signal } from '../../db/entities/signal';
import { expandIndustryFilters } from '../../catalogue/industries';
import { resolveLocation } from '../../catalogue/locations';
import { enabledWatchlistEvents } from '../../catalogue/watchlist-events';
import type { JobChangesConfig, StoredWatchlistConfig } from '../signals/config';
import { MIN_JOB_AGE_DAYS } from '../signals/settings-review';
import { CANDIDATE_COLUMNS, type Candidate } from './candidate';

const DAY_MS = 86_400_000;

/** `<X>d` → X; `refuse` → Infinity (never again); `allow` → 0 (always). */
export function duplicateWindowDays(duplicateHandling: string): number {
  if (duplicateHandling === 'allow') return 0;
  if (duplicateHandling === 'refuse') return Number.POSITIVE_INFINITY;
  return Number(duplicateHandling.slice(0, -1));
}

/** The SQL condition that keeps a subject only when the signal's duplicate rule allows another lead for it. */
function duplicateClause(signal: Signal, args: unknown[], now: Date, subjectSql: string): string {
  const days = duplicateWindowDays(signal.duplicateHandling);
  if (days === 0) return 'TRUE';
  const since = Number.isFinite(days) ? new Date(now.getTime() - days * DAY_MS) : new Date(0);
  return `NOT EXISTS (SELECT 1 FROM leads d WHERE d.signal_id = $1 AND d.subject_key = ${subjectSql} AND d.created_at > $${args.push(since)})`;
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function locationClause(locations: string[], args: unknown[]): string {
  const countries: string[] = [];
  const regions: string[] = [];
  const cities: string[] = [];
  for (const input of locations) {
    const place = resolveLocation(input);
    if (!place) continue;
    if (place.kind === 'country') countries.push(place.countryCode);
    else if (place.kind === 'region') regions.push(`${place.countryCode}:${place.regionCode ?? ''}`);
    else cities.push(`${place.countryCode}:${(place.city ?? place.name).toLowerCase()}`);
  }
  return `(p.country_code = ANY($${args.push(countries)}::text[])
    OR p.country_code || ':' || coalesce(p.region_code, '') = ANY($${args.push(regions)}::text[])
    OR p.country_code || ':' || lower(coalesce(p.city, '')) = ANY($${args.push(cities)}::text[]))`;
}

/** Job changes: people who started a job matching titles, company size, industry and location, within the age window. */
function jobChangeQuery(signal: Signal, now: Date, limit: number): { sql: string; args: unknown[] } {
  const config = signal.config as JobChangesConfig;
  const args: unknown[] = [signal.id];
  const maxAgeDays = Math.max(config.maxJobAgeDays ?? MIN_JOB_AGE_DAYS, MIN_JOB_AGE_DAYS);
  const where = [
    `e.type = 'job_change'`,
    `e.occurred_at >= $${args.push(new Date(now.getTime() - maxAgeDays * DAY_MS))}`,
    `e.occurred_at <= $${args.push(now)}`,
  ];
  const titleTests: string[] = [];
  if (config.jobTitles?.length) titleTests.push(`p.persona = ANY($${args.push(config.jobTitles)}::text[])`);
  if (config.customTitles?.length) {
    titleTests.push(`p.title ~* ANY($${args.push(config.customTitles.map((t) => `\\m${escapeRegex(t)}`))}::text[])`);
  }
  where.push(titleTests.length ? `(${titleTests.join(' OR ')})` : 'FALSE');
  if (config.companySizeFilters?.length) where.push(`c.size_band = ANY($${args.push(config.companySizeFilters)}::text[])`);
  if (config.industryFilters?.length) {
    where.push(`c.industry = ANY($${args.push([...expandIndustryFilters(config.industryFilters)])}::text[])`);
  }
  if (config.locations?.length) where.push(locationClause(config.locations, args));
  where.push(`NOT EXISTS (SELECT 1 FROM leads l WHERE l.signal_id = $1 AND l.event_id = e.id)`);
  where.push(duplicateClause(signal, args, now, `'person:' || p.id`));
  return {
    sql: `SELECT ${CANDIDATE_COLUMNS}
      FROM events e JOIN people p ON p.id = e.person_id JOIN companies c ON c.id = e.company_id
      WHERE ${where.join('\n AND ')}
      ORDER BY e.occurred_at, e.id LIMIT $${args.push(limit)}`,
    args,
  };
}

/**
 * Account watchlist: events at watched companies (by URL, else domain, else a name no other
 * watched entry shares) or of watched people, of the enabled kinds, inside the window that the
 * first check anchored. With targetPersonas, a company-level event names a person of a
 * matching persona at the company; person-level events need a matching person themselves.
 */
function watchlistQuery(signal: Signal, now: Date, limit: number): { sql: string; args: unknown[] } {
  const config = signal.config as StoredWatchlistConfig;
  const args: unknown[] = [signal.id];
  const anchor = signal.firstEvaluatedAt ?? now;
  const lookbackDays = config.firstRunLookbackDays ?? 180;
  const personas = config.targetPersonas ?? [];
  const targeting = personas.length > 0;
  const personasArg = targeting ? `$${args.push(personas)}::text[]` : '';
  const where = [
    `e.type = ANY($${args.push(enabledWatchlistEvents(config.sources))}::text[])`,
    `e.occurred_at >= $${args.push(new Date(anchor.getTime() - lookbackDays * DAY_MS))}`,
    `e.occurred_at <= $${args.push(now)}`,
    `(EXISTS (SELECT 1 FROM watched_companies w WHERE w.signal_id = $1 AND w.kind = 'company' AND (
        w.linkedin_url = c.linkedin_url OR w.domain = c.domain
        OR (w.linkedin_url IS NULL AND w.domain IS NULL AND w.name_key = c.name_key
            AND (SELECT count(*) FROM watched_companies n WHERE n.signal_id = $1 AND n.name_key = c.name_key) = 1)))
      OR EXISTS (SELECT 1 FROM watched_companies w JOIN people ep ON ep.id = e.person_id
        WHERE w.signal_id = $1 AND w.kind = 'person' AND w.linkedin_url = ep.linkedin_url))`,
    `NOT EXISTS (SELECT 1 FROM leads l WHERE l.signal_id = $1 AND l.event_id = e.id)`,
  ];
  if (targeting) where.push(`p.id IS NOT NULL AND p.persona = ANY(${personasArg})`);
  const subject = `CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END`;
  where.push(duplicateClause(signal, args, now, subject));
  // The lead's person: the event's own, or with targeting a matching person at the company.
  const personJoin = targeting
    ? `LEFT JOIN LATERAL (
         SELECT * FROM people x
         WHERE (e.person_id IS NOT NULL AND x.id = e.person_id)
            OR (e.person_id IS NULL AND x.company_id = c.id AND x.persona = ANY(${personasArg}))
         ORDER BY x.id LIMIT 1) p ON TRUE`
    : `LEFT JOIN people p ON p.id = e.person_id`;
  return {
    sql: `SELECT ${CANDIDATE_COLUMNS}
      FROM events e JOIN companies c ON c.id = e.company_id ${personJoin}
      WHERE ${where.join('\n AND ')}
      ORDER BY e.occurred_at, e.id LIMIT $${args.push(limit)}`,
    args,
  };
}

/** The oldest candidates first, so deferred ones are produced before newer ones on later days. */
export async function findCandidates(tx: EntityManager, signal: Signal, now: Date, limit: number): Promise<Candidate[]> {
  const query = signal.signalTypeId === 'job_changes' ? jobChangeQuery(signal, now, limit) : watchlistQuery(signal, now, limit);
  return tx.query(query.sql, query.args);
}
