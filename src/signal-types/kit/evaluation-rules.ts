import { expandIndustryFilters } from '../../catalogue/industries';
import type { Facets } from './wake-keys';
import { citiesOf, resolveLocation } from '../../catalogue/locations';
import type { Signal } from '../../db/entities/signal';

/**
 * The parts every signal type's evaluation plan is built from: the plan's shape and the SQL
 * rules several types share. The types' own plans live in `src/signal-types`.
 */

export const DAY_MS = 86_400_000;

/** `<X>d` → X; `refuse` → Infinity (never again); `allow` → 0 (always). */
export function duplicateWindowDays(duplicateHandling: string): number {
  if (duplicateHandling === 'allow') return 0;
  if (duplicateHandling === 'refuse') return Number.POSITIVE_INFINITY;
  return Number(duplicateHandling.slice(0, -1));
}

/** A config filter of the evaluation, as an SQL condition over a candidate row. */
export interface EvaluationFilter {
  /** The config field the filter comes from: the funnel names its stages after it. */
  field: string;
  sql: string;
}

/**
 * A signal's evaluation taken apart: each rule is one SQL condition over a candidate row
 * (`e` the event, `c` its company, `p` the lead's person, which may be null for the
 * watchlist). The candidate query ANDs them; the funnel counts how many rows each one stops.
 * Building both from these parts keeps one definition per rule.
 */
export interface EvaluationPlan {
  /** The joins from the event (`events e`) that yield the candidate rows. */
  joins: string;
  /**
   * Persona targeting: the row's person is the first (by id) of the company's people this SQL
   * condition keeps, over the person alias given. Absent otherwise.
   */
  namedPeople?: (person: string) => string;
  /** Events of the signal type's kinds, before any config filter. */
  kind: string;
  /** Watchlist: the event is at a watched company or of a watched person. `TRUE` for job changes. */
  watched: string;
  /** The config filters, in evaluation order. */
  filters: EvaluationFilter[];
  /** The event already gave this signal a lead: the same event never yields a lead twice. */
  isLead: string;
  /** The duplicate rule allows another lead for this row's subject. */
  subjectAllowed: string;
  /** The lead's subject (`person:<id>` or `company:<id>`), what the duplicate rule is about. */
  subject: string;
  /** No event older than this passes the filters (start of the age or lookback window). */
  eligibleSince: Date;
  /** Days an event stays eligible after it occurred when the age window slides with time (job changes); null when it is anchored (the watchlist's lookback). */
  maxAgeDays: number | null;
  /** Hiring: the comma-separated keywords of the signal that the posting matched, as SQL; absent elsewhere. */
  matchedKeywords?: string;
  /**
   * A candidate depends on the company's other events too (the account score): a changed or
   * arrived event brings back the company's events of the plan's kinds, not itself alone.
   */
  companyWide?: boolean;
  /** SQL of a JSON value the type's `leadValues` reads as the candidate's `lead_data`; absent elsewhere. */
  leadData?: string;
  /** Bind values of every fragment above; `$1` is the signal id. */
  args: unknown[];
}

/**
 * The columns of `companies` and `people` a rule's SQL reads to decide whether a row is a
 * candidate (ids aside). Incremental evaluation re-reads a company or person only when one of
 * its watched columns changes (the change-tracking trigger, docs/decisions/incremental-evaluation.md),
 * so test/evaluation/watched-columns.test.ts fails when the trigger misses one of these.
 */
export interface ReadColumns {
  companies: readonly string[];
  people: readonly string[];
}

/** The SQL condition that keeps a subject only when the signal's duplicate rule allows another lead for it. */
export function duplicateClause(signal: Signal, args: unknown[], now: Date, subjectSql: string): string {
  const days = duplicateWindowDays(signal.duplicateHandling);
  if (days === 0) return 'TRUE';
  const since = Number.isFinite(days) ? new Date(now.getTime() - days * DAY_MS) : new Date(0);
  return `NOT EXISTS (SELECT 1 FROM leads d WHERE d.signal_id = $1 AND d.subject_key = ${subjectSql} AND d.created_at > $${args.push(since)})`;
}

/**
 * The company is a shared fact (a provider's, registry's or filing's record, or its own site
 * corroborated by one), not only some accounts' claim: what is known of a claimed company
 * reaches only the watchlists that claim its domain (docs/decisions/claims.md).
 */
export const TRUSTED_COMPANY = `c.provenance = 'trusted'`;

export const LEAD_FOR_EVENT = `EXISTS (SELECT 1 FROM leads l WHERE l.signal_id = $1 AND l.event_id = e.id)`;

/** The event happened inside [since, now]: the age window of job changes, the lookback of the watchlist. */
export function occurredBetween(args: unknown[], since: Date, now: Date): string {
  return `e.occurred_at >= $${args.push(since)} AND e.occurred_at <= $${args.push(now)}`;
}

export const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The columns a row's place is read from; search reuses the clauses below over companies too. */
export interface PlaceColumns {
  country: string;
  /** null where no region is stored (company headquarters). */
  region: string | null;
  city: string;
}

export const PERSON_PLACE: PlaceColumns = { country: 'p.country_code', region: 'p.region_code', city: 'p.city' };

/** The countries a location filter's places lie in: a row outside them fails {@link locationClause}. */
export function locationCountries(locations: readonly string[]): string[] {
  return [...new Set(locations.flatMap((input) => resolveLocation(input)?.countryCode ?? []))];
}

export function locationClause(locations: string[], args: unknown[], columns: PlaceColumns = PERSON_PLACE): string {
  const countries: string[] = [];
  const regions: string[] = [];
  const cities: string[] = [];
  for (const input of locations) {
    const place = resolveLocation(input);
    if (!place) continue;
    if (place.kind === 'country') countries.push(place.countryCode);
    else if (place.kind === 'region' && columns.region) regions.push(`${place.countryCode}:${place.regionCode ?? ''}`);
    else if (place.kind === 'region') {
      // Without a stored region, a region is the cities the gazetteer places in it.
      for (const city of citiesOf(place.countryCode)) {
        if (city.regionCode === place.regionCode) cities.push(`${place.countryCode}:${city.name.toLowerCase()}`);
      }
    } else cities.push(`${place.countryCode}:${(place.city ?? place.name).toLowerCase()}`);
  }
  const { country, region, city } = columns;
  return `(${country} = ANY($${args.push(countries)}::text[])
    OR ${country} || ':' || coalesce(${region ?? 'NULL'}, '') = ANY($${args.push(regions)}::text[])
    OR ${country} || ':' || lower(coalesce(${city}, '')) = ANY($${args.push(cities)}::text[]))`;
}

export function companySizeClause(bands: string[], args: unknown[]): string {
  return `c.size_band = ANY($${args.push(bands)}::text[])`;
}

/** The company filters a config sets, as the wake facets (wake-keys.ts) a row must hold to pass them. */
export function companyFacets(config: { industryFilters?: string[]; companySizeFilters?: string[] }): Facets {
  return {
    ...(config.industryFilters?.length ? { industry: [...expandIndustryFilters(config.industryFilters)] } : {}),
    ...(config.companySizeFilters?.length ? { size: config.companySizeFilters } : {}),
  };
}

/** Exact names; a category name stands for all its industries. */
export function industryClause(filters: string[], args: unknown[]): string {
  return `c.industry = ANY($${args.push([...expandIndustryFilters(filters)])}::text[])`;
}

/** Personas (exact) or free titles (word-prefix match); a signal with neither matches nobody. */
export function titleClause(config: { jobTitles?: string[]; customTitles?: string[] }, args: unknown[]): string {
  const tests: string[] = [];
  if (config.jobTitles?.length) tests.push(`p.persona = ANY($${args.push(config.jobTitles)}::text[])`);
  if (config.customTitles?.length) {
    tests.push(`p.title ~* ANY($${args.push(config.customTitles.map((t) => `\\m${escapeRegex(t)}`))}::text[])`);
  }
  return tests.length ? `(${tests.join(' OR ')})` : 'FALSE';
}
