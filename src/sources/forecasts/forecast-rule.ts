/**
 * What a forecast rule is (docs/decisions/forecasts.md): set-based SQL over the stored events as
 * of one instant, for a set of companies, and what makes it come true afterwards. The live
 * source and the backtest run the same SQL, so a backtest measures the rule that runs.
 */

export type ForecastEventType =
  'forecasted_funding' | 'forecasted_ipo' | 'forecasted_acquisition' | 'forecasted_growth';

/** One event a forecast rests on, as the forecast shows it. */
export interface ForecastEvidence {
  eventId: string;
  type: string;
  date: string;
  /** The source that stored it (the prefix of its id: `sec-form-d`, `ted`, ...), or `ingested`. */
  source: string;
  url: string | null;
  what: string;
}

/** What a rule concluded of one company. */
export interface ForecastFinding {
  confidence: number;
  /** A sentence a person reads: why, in the rule's words. */
  summary: string;
  evidence: ForecastEvidence[];
  /** The lead `signal` fields the event carries (the demo feed's forecasts carry the same). */
  data: Record<string, string | number>;
}

export interface ForecastRule<Row = Record<string, unknown>> {
  /** The rule's name, stable across versions: `likely-to-raise`. */
  readonly id: string;
  /** Bumped whenever what fires or its confidence changes (docs/decisions/forecasts.md keeps each). */
  readonly version: number;
  readonly eventType: ForecastEventType;
  /** How long after the forecast its outcome is looked for. */
  readonly horizonDays: number;
  /** The event types the rule reads: a company with one of them new or changed is looked at again. */
  readonly inputTypes: readonly string[];
  /** How far back a first run (or a backtest's first day) looks for companies to look at. */
  readonly lookbackDays: number;
  /**
   * Companies whose finding time alone may have changed between `$1` (exclusive) and `$2`
   * (a round reaching its anniversary), as `SELECT company_id ...`; null when none.
   */
  readonly agedSql: string | null;
  /** The companies of `$1::text[]` the rule fires for as of `$2::timestamptz`, with their facts. */
  readonly findingsSql: string;
  /** Values of `$3`, `$4`, ... in findingsSql (title patterns). */
  readonly findingsParams?: readonly unknown[];
  /** From one row of findingsSql: the forecast. */
  finding(row: Row): ForecastFinding;
  /**
   * For forecasts `unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS f(company_id, as_of, i)`
   * and the horizon `$3` days: `(i, event_id, occurred_at)` of the event that made each come true.
   */
  readonly outcomeSql: string;
  /** What counts as coming true, in words (the backtest's answer repeats it). */
  readonly cameTrueWhen: string;
}

/** `e`'s evidence as a JSON object (see ForecastEvidence). */
export const evidenceJson = (e: string) => `jsonb_build_object(
  'eventId', ${e}.id, 'type', ${e}.type,
  'date', to_char(${e}.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
  'source', CASE WHEN strpos(${e}.id, ':') > 1 THEN split_part(${e}.id, ':', 1) ELSE 'ingested' END,
  'url', nullif(coalesce(${e}.data->>'job_offer_url', ${e}.data->>'news_url', ${e}.data->>'post_url', ''), ''),
  'what', left(coalesce(nullif(${e}.data->>'funding_type', ''), nullif(${e}.data->>'job_offer_title', ''),
    nullif(${e}.data->>'news_headline', ''), nullif(${e}.data->>'news_title', ''), nullif(${e}.data->>'new_title', ''),
    nullif(${e}.data->>'watchlist_role', ''), nullif(${e}.data->>'deal_type', ''), ${e}.type), 300))`;

/** At most `n` evidence objects of an aggregate, newest first. */
export const newestEvidence = (e: string, n: number, filter = 'TRUE') =>
  `to_jsonb((array_agg(${evidenceJson(e)} ORDER BY ${e}.occurred_at DESC, ${e}.id) FILTER (WHERE ${filter}))[1:${n}])`;

/** The candidate companies of a findings query: `$1` without repeats. */
export const CANDIDATES = `c AS (SELECT DISTINCT unnest($1::text[]) AS company_id)`;

/** A title a finance leader holds (CFO, VP Finance, Head of Finance, Finance Director, ...). */
export const FINANCE_LEADER_TITLE =
  '\\m(cfo|chief financial officer|chief finance officer|(vp|svp|evp|vice president|head|director)\\W+(of\\W+)?finance|finance director|group financial controller)\\M';

/** The title a decision maker's or job changer's event names: the event's, else the person's. */
export const personTitle = (e: string, p: string) =>
  `coalesce(nullif(${e}.data->>'new_title', ''), nullif(${e}.data->>'watchlist_role', ''), ${p}.title, '')`;

/** An article's text, lower-cased: headline, title and summary. */
export const articleText = (e: string) =>
  `lower(coalesce(${e}.data->>'news_headline', '') || ' ' || coalesce(${e}.data->>'news_title', '') || ' ' || coalesce(${e}.data->>'news_summary', ''))`;

export const asEvidence = (value: unknown): ForecastEvidence[] =>
  Array.isArray(value) ? (value as ForecastEvidence[]) : [];

/** Confidence kept to two decimals within (0, 0.95]. */
export const confidence = (value: number) => Math.round(Math.min(0.95, Math.max(0.05, value)) * 100) / 100;

export const dayOf = (at: Date | string) => (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);
