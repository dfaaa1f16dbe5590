/**
 * The account-watchlist event vocabulary (the 14 `sources` keys, their
 * defaults and `last_signal` labels) and the field names of the lead `signal`
 * blocks of both signal types. Kept in one place so that the config schema, the
 * evaluator, the webhook body and the OpenAPI document cannot drift apart.
 */

/** Spec order; the OpenAPI document and `configParameters` list them in this order. */
export const WATCHLIST_EVENT_KEYS = [
  'fundraising',
  'mergers_acquisitions',
  'forecasted_funding',
  'forecasted_ipo',
  'forecasted_acquisition',
  'forecasted_growth',
  'public_tenders',
  'job_offers',
  'recruitment_campaign',
  'new_decision_makers',
  'company_post_reactions',
  'competitor_social_reactions',
  'competitor_connections',
  'company_news',
] as const;

export type WatchlistEventKey = (typeof WATCHLIST_EVENT_KEYS)[number];

const EVENT_KEY_SET: ReadonlySet<string> = new Set(WATCHLIST_EVENT_KEYS);

export function isWatchlistEventKey(value: unknown): value is WatchlistEventKey {
  return typeof value === 'string' && EVENT_KEY_SET.has(value);
}

export interface WatchlistSourceSetting {
  enabled: boolean;
}

export type WatchlistSources = Record<WatchlistEventKey, WatchlistSourceSetting>;

/** Everything is on except `company_news`, which the spec makes opt-in. */
export const DEFAULT_WATCHLIST_SOURCES: Readonly<Record<WatchlistEventKey, Readonly<WatchlistSourceSetting>>> =
  Object.freeze(
    Object.fromEntries(
      WATCHLIST_EVENT_KEYS.map((key) => [key, Object.freeze({ enabled: key !== 'company_news' })]),
    ) as Record<WatchlistEventKey, Readonly<WatchlistSourceSetting>>,
  );

/**
 * A stored `sources` object holds only what the client sent; this fills the
 * rest from the defaults. Keys that are not event keys are ignored here (the
 * config schema is where they are refused).
 */
export function resolveWatchlistSources(
  sources?: Partial<Record<string, { enabled?: boolean } | null | undefined>> | null,
): WatchlistSources {
  const resolved = {} as WatchlistSources;
  for (const key of WATCHLIST_EVENT_KEYS) {
    const given = sources?.[key]?.enabled;
    resolved[key] = { enabled: typeof given === 'boolean' ? given : DEFAULT_WATCHLIST_SOURCES[key].enabled };
  }
  return resolved;
}

export function enabledWatchlistEvents(
  sources?: Partial<Record<string, { enabled?: boolean } | null | undefined>> | null,
): WatchlistEventKey[] {
  const resolved = resolveWatchlistSources(sources);
  return WATCHLIST_EVENT_KEYS.filter((key) => resolved[key].enabled);
}

/** `signal.last_signal` of a watchlist lead: what receivers switch on, so these strings are part of the interface. */
export const WATCHLIST_LAST_SIGNAL_LABELS: Readonly<Record<WatchlistEventKey, string>> = Object.freeze({
  fundraising: 'Watched Company Raised',
  mergers_acquisitions: 'Watched Company Deal',
  forecasted_funding: 'Watched Company Likely to Raise',
  forecasted_ipo: 'Watched Company on a Path to IPO',
  forecasted_acquisition: 'Watched Company Likely Acquisition Target',
  forecasted_growth: 'Watched Company Expected to Scale',
  public_tenders: 'Public Tenders Watchlist',
  job_offers: 'Job Offer',
  recruitment_campaign: 'Recruitment Campaign',
  new_decision_makers: 'New Decision Maker Watchlist',
  company_post_reactions: 'Company Post Reactions',
  competitor_social_reactions: 'Competitor Social Reactions',
  competitor_connections: 'Competitor Relationship Monitoring',
  // Not in the spec's list; fixed by contract section 3.
  company_news: 'Company News',
});

export function lastSignalLabel(key: WatchlistEventKey): string {
  return WATCHLIST_LAST_SIGNAL_LABELS[key];
}

/**
 * The spec names no `last_signal` for job changes; this label is this
 * project's choice, kept next to the watchlist labels so both stay consistent.
 */
export const JOB_CHANGE_LAST_SIGNAL_LABEL = 'Job Change';

/**
 * What a social event's `engagement_type` says. The bluesky source (docs/sources.md) maps
 * likes and reposts of a watched company's posts to `company_post_reactions`, of a
 * competitor's posts to `competitor_social_reactions`, and a competitor's new followers to
 * `competitor_connections`; the account watchlist reads competitor events at the competitors
 * of its account (src/signal-types/watched-companies.ts, `competitorOfSignal`).
 */
export const SOCIAL_ENGAGEMENT_TYPES = ['like', 'repost', 'follow'] as const;

/**
 * Events that are about a person by nature, so their lead carries a contact
 * even without persona targeting. The others are company events: their
 * `contact` is the empty string unless `targetPersonas` is set.
 */
export const PERSON_LEVEL_WATCHLIST_EVENTS: readonly WatchlistEventKey[] = Object.freeze([
  'new_decision_makers',
  'company_post_reactions',
  'competitor_social_reactions',
  'competitor_connections',
]);

const PERSON_LEVEL_SET: ReadonlySet<WatchlistEventKey> = new Set(PERSON_LEVEL_WATCHLIST_EVENTS);

export function isPersonLevelEvent(key: WatchlistEventKey): boolean {
  return PERSON_LEVEL_SET.has(key);
}

/** Values of `news_event_type` on `company_news` leads. */
export const NEWS_EVENT_TYPES = [
  'funding',
  'mergers_acquisitions',
  'expansion',
  'leadership_change',
  'product_launch',
  'contract_partnership',
  'restructuring',
  'event_participation',
] as const;

export type NewsEventType = (typeof NEWS_EVENT_TYPES)[number];

/** `news_event_label` of each `news_event_type` (the demo feed and the news source say the same). */
export const NEWS_EVENT_LABELS: Readonly<Record<NewsEventType, string>> = {
  funding: 'Funding',
  mergers_acquisitions: 'Mergers & Acquisitions',
  expansion: 'Expansion',
  leadership_change: 'Leadership Change',
  product_launch: 'Product Launch',
  contract_partnership: 'Contract & Partnership',
  restructuring: 'Restructuring',
  event_participation: 'Event Participation',
};

/** Fields every lead `signal` block carries, whatever the type. */
export const COMMON_SIGNAL_FIELDS = ['id', 'name', 'type', 'last_signal', 'last_signal_date'] as const;

/** The account-watchlist `signal` block beyond the common fields, in the spec table's order. */
export const WATCHLIST_SIGNAL_FIELDS = [
  'job_offer_url',
  'job_offer_title',
  'job_offer_location',
  'job_offer_description',
  'job_offer_source',
  'job_offer_date',
  'job_offer_published_date',
  'matched_keywords',
  'funding_type',
  'funding_amount_usd',
  'announcement_date',
  'deal_type',
  'watchlist_role',
  'new_job_started_on',
  'new_job_start_month',
  'news_event_type',
  'news_event_label',
  'news_event_date',
  'news_headline',
  'news_url',
  'news_title',
  'news_summary',
  'news_event_name',
  'news_event_location',
  'post_url',
  'post_date',
  'engagement_type',
] as const;

export type WatchlistSignalField = (typeof WATCHLIST_SIGNAL_FIELDS)[number];

/** `funding_amount_usd` is the only field that may hold a number; the spec gives every field an empty-string default. */
export type WatchlistSignalFields = Record<Exclude<WatchlistSignalField, 'funding_amount_usd'>, string> & {
  funding_amount_usd: number | '';
};

/** A fresh object each call: callers fill it in place. */
export function emptyWatchlistSignalFields(): WatchlistSignalFields {
  return Object.fromEntries(WATCHLIST_SIGNAL_FIELDS.map((field) => [field, ''])) as WatchlistSignalFields;
}

/** The job-changes `signal` block beyond the common fields. */
export const JOB_CHANGE_SIGNAL_FIELDS = [
  'previous_title',
  'previous_company',
  'new_title',
  'new_company',
  'new_job_started_on',
  'new_job_start_month',
  'change_type',
] as const;

export type JobChangeSignalField = (typeof JOB_CHANGE_SIGNAL_FIELDS)[number];

export function emptyJobChangeSignalFields(): Record<JobChangeSignalField, string> {
  return Object.fromEntries(JOB_CHANGE_SIGNAL_FIELDS.map((field) => [field, ''])) as Record<
    JobChangeSignalField,
    string
  >;
}
