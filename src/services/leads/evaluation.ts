import type { EntityManager } from 'typeorm';
import type { Signal } from '../../db/entities/signal';
import { expandIndustryFilters } from '../../catalogue/industries';
import { citiesOf, resolveLocation } from '../../catalogue/locations';
import { WATCHLIST_EVENT_KEYS, enabledWatchlistEvents } from '../../catalogue/watchlist-events';
import type { FundraisingConfig, HiringConfig, JobChangesConfig, StoredWatchlistConfig } from '../signals/config';
import { FUNDRAISING_EVENT_TYPE, HIRING_EVENT_TYPE } from '../../catalogue/market-signals';
import { MIN_JOB_AGE_DAYS } from '../signals/settings-review';
import { CANDIDATE_COLUMNS, type Candidate } from './candidate';

const DAY_MS = 86_400_000;

/** `<X>d` → X; `refuse` → Infinity (never again); `allow` → 0 (always). */
export function duplicateWindowDays(duplicateHandling: string): number {
  if (duplicateHandling === 'allow') return 0;
  if (duplicateHandling === 'refuse') return Number.POSITIVE_INFINITY;
  return Number(duplicateHandling.slice(0, -1));
}

/** Leads the signal may still produce today (UTC day of the service clock); 0 or less once the cap is reached. */
export function leadsLeftToday(
  signal: Pick<Signal, 'dailyLeadLimit' | 'leadsDay' | 'leadsToday'>,
  today: string,
): number {
  return signal.dailyLeadLimit - (signal.leadsDay === today ? signal.leadsToday : 0);
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
  /** FROM and joins that yield the candidate rows. */
  from: string;
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
  /** Bind values of every fragment above; `$1` is the signal id. */
  args: unknown[];
}

/** The SQL condition that keeps a subject only when the signal's duplicate rule allows another lead for it. */
function duplicateClause(signal: Signal, args: unknown[], now: Date, subjectSql: string): string {
  const days = duplicateWindowDays(signal.duplicateHandling);
  if (days === 0) return 'TRUE';
  const since = Number.isFinite(days) ? new Date(now.getTime() - days * DAY_MS) : new Date(0);
  return `NOT EXISTS (SELECT 1 FROM leads d WHERE d.signal_id = $1 AND d.subject_key = ${subjectSql} AND d.created_at > $${args.push(since)})`;
}

const LEAD_FOR_EVENT = `EXISTS (SELECT 1 FROM leads l WHERE l.signal_id = $1 AND l.event_id = e.id)`;

/** The event happened inside [since, now]: the age window of job changes, the lookback of the watchlist. */
function occurredBetween(args: unknown[], since: Date, now: Date): string {
  return `e.occurred_at >= $${args.push(since)} AND e.occurred_at <= $${args.push(now)}`;
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The columns a row's place is read from; search reuses the clauses below over companies too. */
export interface PlaceColumns {
  country: string;
  /** null where no region is stored (company headquarters). */
  region: string | null;
  city: string;
}

const PERSON_PLACE: PlaceColumns = { country: 'p.country_code', region: 'p.region_code', city: 'p.city' };

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

/** Exact names; a category name stands for all its industries. */
export function industryClause(filters: string[], args: unknown[]): string {
  return `c.industry = ANY($${args.push([...expandIndustryFilters(filters)])}::text[])`;
}

/** Personas (exact) or free titles (word-prefix match); a signal with neither matches nobody. */
export function titleClause(config: Pick<JobChangesConfig, 'jobTitles' | 'customTitles'>, args: unknown[]): string {
  const tests: string[] = [];
  if (config.jobTitles?.length) tests.push(`p.persona = ANY($${args.push(config.jobTitles)}::text[])`);
  if (config.customTitles?.length) {
    tests.push(`p.title ~* ANY($${args.push(config.customTitles.map((t) => `\\m${escapeRegex(t)}`))}::text[])`);
  }
  return tests.length ? `(${tests.join(' OR ')})` : 'FALSE';
}

/** Job changes: people who started a job matching titles, company size, industry and location, within the age window. */
function jobChangePlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as JobChangesConfig;
  const args: unknown[] = [signal.id];
  const maxAgeDays = Math.max(config.maxJobAgeDays ?? MIN_JOB_AGE_DAYS, MIN_JOB_AGE_DAYS);
  const eligibleSince = new Date(now.getTime() - maxAgeDays * DAY_MS);
  const subject = `'person:' || p.id`;
  // A filter the signal does not set keeps every row (TRUE), so the funnel's stages have a stable shape.
  const filters: EvaluationFilter[] = [
    { field: 'jobTitles', sql: titleClause(config, args) },
    {
      field: 'companySizeFilters',
      sql: config.companySizeFilters?.length ? companySizeClause(config.companySizeFilters, args) : 'TRUE',
    },
    {
      field: 'industryFilters',
      sql: config.industryFilters?.length ? industryClause(config.industryFilters, args) : 'TRUE',
    },
    { field: 'locations', sql: config.locations?.length ? locationClause(config.locations, args) : 'TRUE' },
    { field: 'maxJobAgeDays', sql: occurredBetween(args, eligibleSince, now) },
  ];
  return {
    from: `events e JOIN people p ON p.id = e.person_id JOIN companies c ON c.id = e.company_id`,
    kind: `e.type = 'job_change'`,
    watched: 'TRUE',
    filters,
    isLead: LEAD_FOR_EVENT,
    subjectAllowed: duplicateClause(signal, args, now, subject),
    subject,
    eligibleSince,
    maxAgeDays,
    args,
  };
}

/** The funnel stage of company_news events whose article is missing or does not name the company. */
export const NEWS_ARTICLE_STAGE = 'companyNewsArticle';

const newsText = (field: string) => `coalesce(e.data->>'${field}', '')`;
const ARTICLE_TEXT = `lower(${newsText('news_headline')} || ' ' || ${newsText('news_title')} || ' ' || ${newsText('news_summary')})`;
/**
 * A company_news event counts only when its article is there (URL, and headline or title) and
 * names the company: its name in the headline, title or summary; or its domain, or the domain's
 * first label as a word ("acme" of acme.co.uk, at least 3 characters), there or in the URL.
 * Other events pass.
 */
const NEWS_NAMES_COMPANY = `(e.type <> 'company_news' OR (
    ${newsText('news_url')} <> '' AND (${newsText('news_headline')} <> '' OR ${newsText('news_title')} <> '')
    AND (strpos(${ARTICLE_TEXT}, lower(c.name)) > 0
      OR (c.domain IS NOT NULL AND (strpos(lower(${newsText('news_url')}) || ' ' || ${ARTICLE_TEXT}, c.domain) > 0
        OR (length(split_part(c.domain, '.', 1)) >= 3
            AND (lower(${newsText('news_url')}) || ' ' || ${ARTICLE_TEXT}) ~ ('\\m' || split_part(c.domain, '.', 1) || '\\M')))))))`;

/**
 * Account watchlist: events at watched companies (by URL, else domain, else a name no other
 * watched entry shares) or of watched people, of the enabled kinds, inside the window that the
 * first check anchored. With targetPersonas, a company-level event names a person of a
 * matching persona at the company; person-level events need a matching person themselves.
 */
function watchlistPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as StoredWatchlistConfig;
  const args: unknown[] = [signal.id];
  const anchor = signal.firstEvaluatedAt ?? now;
  const lookbackDays = config.firstRunLookbackDays ?? 180;
  const eligibleSince = new Date(anchor.getTime() - lookbackDays * DAY_MS);
  const personas = config.targetPersonas ?? [];
  const targeting = personas.length > 0;
  const personasArg = targeting ? `$${args.push(personas)}::text[]` : '';
  // The lead's person: the event's own, or with targeting a matching person at the company.
  const personJoin = targeting
    ? `LEFT JOIN LATERAL (
         SELECT * FROM people x
         WHERE (e.person_id IS NOT NULL AND x.id = e.person_id)
            OR (e.person_id IS NULL AND x.company_id = c.id AND x.persona = ANY(${personasArg}))
         ORDER BY x.id LIMIT 1) p ON TRUE`
    : `LEFT JOIN people p ON p.id = e.person_id`;
  const subject = `CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END`;
  return {
    from: `events e JOIN companies c ON c.id = e.company_id ${personJoin}`,
    kind: `e.type = ANY($${args.push([...WATCHLIST_EVENT_KEYS])}::text[])`,
    watched: `(EXISTS (SELECT 1 FROM watched_companies w WHERE w.signal_id = $1 AND w.kind = 'company' AND (
        w.linkedin_url = c.linkedin_url OR w.domain = c.domain
        OR (w.linkedin_url IS NULL AND w.domain IS NULL AND w.name_key = c.name_key
            AND (SELECT count(*) FROM watched_companies n WHERE n.signal_id = $1 AND n.name_key = c.name_key) = 1)))
      OR EXISTS (SELECT 1 FROM watched_companies w JOIN people ep ON ep.id = e.person_id
        WHERE w.signal_id = $1 AND w.kind = 'person' AND w.linkedin_url = ep.linkedin_url))`,
    filters: [
      { field: 'sources', sql: `e.type = ANY($${args.push(enabledWatchlistEvents(config.sources))}::text[])` },
      { field: NEWS_ARTICLE_STAGE, sql: NEWS_NAMES_COMPANY },
      { field: 'firstRunLookbackDays', sql: occurredBetween(args, eligibleSince, now) },
      { field: 'targetPersonas', sql: targeting ? `p.id IS NOT NULL AND p.persona = ANY(${personasArg})` : 'TRUE' },
    ],
    isLead: LEAD_FOR_EVENT,
    subjectAllowed: duplicateClause(signal, args, now, subject),
    subject,
    eligibleSince,
    maxAgeDays: null,
    args,
  };
}

const HEADQUARTERS: PlaceColumns = { country: 'c.hq_country_code', region: null, city: 'c.hq_city' };
const JOB_PLACE: PlaceColumns = { country: 'e.job_country_code', region: 'e.job_region_code', city: 'e.job_city' };

type MarketWideConfig = FundraisingConfig | HiringConfig;

/**
 * The parts fundraising and hiring share: events of one type at any company, the company
 * filters, and persona targeting (the lead names a person of a matching persona at the
 * company; without targeting it is company-level).
 */
function marketWidePlan(
  signal: Signal,
  now: Date,
  eventType: string,
  maxAgeDays: number,
  ownFilters: (args: unknown[], age: EvaluationFilter) => EvaluationFilter[],
): EvaluationPlan {
  const config = signal.config as MarketWideConfig;
  const args: unknown[] = [signal.id];
  const eligibleSince = new Date(now.getTime() - maxAgeDays * DAY_MS);
  const personas = config.targetPersonas ?? [];
  const targeting = personas.length > 0;
  const personasArg = targeting ? `$${args.push(personas)}::text[]` : '';
  const personJoin = targeting
    ? `LEFT JOIN LATERAL (SELECT * FROM people x WHERE x.company_id = c.id AND x.persona = ANY(${personasArg}) ORDER BY x.id LIMIT 1) p ON TRUE`
    : `LEFT JOIN people p ON FALSE`;
  const subject = `CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END`;
  const age: EvaluationFilter = { field: '', sql: occurredBetween(args, eligibleSince, now) };
  const filters: EvaluationFilter[] = [
    ...ownFilters(args, age),
    {
      field: 'industryFilters',
      sql: config.industryFilters?.length ? industryClause(config.industryFilters, args) : 'TRUE',
    },
    {
      field: 'companySizeFilters',
      sql: config.companySizeFilters?.length ? companySizeClause(config.companySizeFilters, args) : 'TRUE',
    },
    {
      field: 'locations',
      sql: config.locations?.length ? locationClause(config.locations, args, HEADQUARTERS) : 'TRUE',
    },
    { field: 'targetPersonas', sql: targeting ? 'p.id IS NOT NULL' : 'TRUE' },
  ];
  return {
    from: `events e JOIN companies c ON c.id = e.company_id ${personJoin}`,
    kind: `e.type = $${args.push(eventType)}`,
    watched: 'TRUE',
    filters,
    isLead: LEAD_FOR_EVENT,
    subjectAllowed: duplicateClause(signal, args, now, subject),
    subject,
    eligibleSince,
    maxAgeDays,
    args,
  };
}

/** A number in the event's data, or NULL when absent or not a number. */
const dataNumber = (field: string) =>
  `CASE WHEN jsonb_typeof(e.data->'${field}') = 'number' THEN (e.data->>'${field}')::numeric END`;

export const DEFAULT_ANNOUNCEMENT_AGE_DAYS = 90;
export const DEFAULT_POSTING_AGE_DAYS = 30;

/** Fundraising: rounds announced at any company, by stage, amount and age. */
function fundraisingPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as FundraisingConfig;
  const maxAgeDays = config.maxAnnouncementAgeDays ?? DEFAULT_ANNOUNCEMENT_AGE_DAYS;
  return marketWidePlan(signal, now, FUNDRAISING_EVENT_TYPE, maxAgeDays, (args, age) => {
    const amount = dataNumber('funding_amount_usd');
    return [
      {
        field: 'fundingStages',
        sql: config.fundingStages?.length
          ? `lower(${FUNDING_STAGE_SQL}) = ANY($${args.push(config.fundingStages.map((stage) => stage.toLowerCase()))}::text[])`
          : 'TRUE',
      },
      {
        field: 'minAmountUsd',
        sql: config.minAmountUsd !== undefined ? `${amount} >= $${args.push(config.minAmountUsd)}` : 'TRUE',
      },
      {
        field: 'maxAmountUsd',
        sql: config.maxAmountUsd !== undefined ? `${amount} <= $${args.push(config.maxAmountUsd)}` : 'TRUE',
      },
      { ...age, field: 'maxAnnouncementAgeDays' },
    ];
  });
}

/** The round's stage: `funding_stage` when the provider gives it, else its `funding_type`. */
export const FUNDING_STAGE_SQL = `coalesce(nullif(e.data->>'funding_stage', ''), e.data->>'funding_type')`;

const POSTING_TEXT = `coalesce(e.data->>'job_offer_title', '') || ' ' || coalesce(e.data->>'job_offer_description', '')`;

/** Hiring: job postings at any company whose title or description matches a keyword. */
function hiringPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as HiringConfig;
  const maxAgeDays = config.maxPostingAgeDays ?? DEFAULT_POSTING_AGE_DAYS;
  const keywords = config.keywords ?? [];
  let matchedKeywords = `''`;
  const plan = marketWidePlan(signal, now, HIRING_EVENT_TYPE, maxAgeDays, (args, age) => {
    const keywordsArg = `$${args.push(keywords)}::text[]`;
    const patternsArg = `$${args.push(keywords.map((k) => `\\m${escapeRegex(k)}`))}::text[]`;
    const matching = `FROM unnest(${keywordsArg}, ${patternsArg}) AS kw(keyword, pattern) WHERE (${POSTING_TEXT}) ~* kw.pattern`;
    matchedKeywords = `array_to_string(ARRAY(SELECT kw.keyword ${matching}), ', ')`;
    return [
      // Like titles for job changes: a signal without keywords matches no posting.
      { field: 'keywords', sql: `EXISTS (SELECT 1 ${matching})` },
      {
        field: 'departments',
        sql: config.departments?.length ? `e.job_department = ANY($${args.push(config.departments)}::text[])` : 'TRUE',
      },
      {
        field: 'seniorities',
        sql: config.seniorities?.length ? `e.job_seniority = ANY($${args.push(config.seniorities)}::text[])` : 'TRUE',
      },
      {
        field: 'jobLocations',
        sql: config.jobLocations?.length ? locationClause(config.jobLocations, args, JOB_PLACE) : 'TRUE',
      },
      { ...age, field: 'maxPostingAgeDays' },
    ];
  });
  return { ...plan, matchedKeywords };
}

const PLANS: Record<string, (signal: Signal, now: Date) => EvaluationPlan> = {
  job_changes: jobChangePlan,
  account_watchlist: watchlistPlan,
  fundraising: fundraisingPlan,
  hiring: hiringPlan,
};

/** The evaluation of this signal at `now`; each call builds fresh bind values, so callers may append their own. */
export function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const plan = PLANS[signal.signalTypeId];
  if (!plan) throw new Error(`no evaluation for signal type ${signal.signalTypeId}`);
  return plan(signal, now);
}

/** The oldest candidates first, so deferred ones are produced before newer ones on later days. */
export async function findCandidates(
  tx: EntityManager,
  signal: Signal,
  now: Date,
  limit: number,
): Promise<Candidate[]> {
  const plan = evaluationPlan(signal, now);
  const where = [
    plan.kind,
    plan.watched,
    ...plan.filters.map((filter) => filter.sql),
    `NOT ${plan.isLead}`,
    plan.subjectAllowed,
  ];
  const { args } = plan;
  return tx.query(
    `SELECT ${CANDIDATE_COLUMNS}, ${plan.matchedKeywords ?? `''`} AS matched_keywords
      FROM ${plan.from}
      WHERE ${where.map((condition) => `(${condition})`).join('\n AND ')}
      ORDER BY e.occurred_at, e.id LIMIT $${args.push(limit)}`,
    args,
  );
}
