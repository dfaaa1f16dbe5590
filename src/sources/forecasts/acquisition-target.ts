import {
  CANDIDATES,
  articleText,
  asEvidence,
  confidence,
  evidenceJson,
  newestEvidence,
  type ForecastRule,
} from './forecast-rule';

interface Row {
  company_id: string;
  last_round_at: Date | null;
  founded_year: number | null;
  hiring_stopped: boolean;
  earlier_postings: number;
  departures: number;
  restructurings: number;
  round_evidence: unknown;
  hiring_evidence: unknown;
  departure_evidence: unknown;
  restructuring_evidence: unknown;
}

/** A leader leaving, as news words it. */
const DEPARTURE = '(steps? down|stepping down|resign|depart|leaves|leaving|to leave|exits?\\M|retire|ousted|replaced)';
/** Restructuring, as news words it (the news source's `restructuring` kind, or these words in any article). */
const RESTRUCTURING =
  '(restructur|layoffs?|laid off|job cuts|cuts? .{0,20}jobs|workforce reduction|redundanc|wind(s|ing)? down|strategic alternatives)';

/**
 * Likely acquisition target, v1: no round in the last 3 years (a round older than that is
 * stored, or the company was founded at least 3 years ago) and, in the last 180 days, at least
 * one of: hiring stopped (no posting in 90 days after 3 or more in the 9 months before), a
 * leader leaving (leadership news of a departure), restructuring news. Comes true with a deal
 * that is not the company acquiring (a `mergers_acquisitions` event), or news of its sale or
 * merger, within 365 days.
 */
export const acquisitionTarget: ForecastRule<Row> = {
  id: 'acquisition-target',
  version: 1,
  eventType: 'forecasted_acquisition',
  horizonDays: 365,
  inputTypes: ['fundraising', 'job_offers', 'company_news'],
  lookbackDays: 365,
  // A round turning 3 years old, or a company's last posting turning 90 days old, changes the finding alone.
  agedSql: `SELECT DISTINCT company_id FROM events
    WHERE (type = 'fundraising' AND occurred_at > $1::timestamptz - interval '36 months' AND occurred_at <= $2::timestamptz - interval '36 months')
       OR (type = 'job_offers' AND occurred_at > $1::timestamptz - interval '90 days' AND occurred_at <= $2::timestamptz - interval '90 days')`,
  findingsParams: [DEPARTURE, RESTRUCTURING],
  findingsSql: `WITH ${CANDIDATES},
    r AS MATERIALIZED (
      SELECT c.company_id, lr.occurred_at, lr.evidence FROM c CROSS JOIN LATERAL (
        SELECT e.occurred_at, jsonb_build_array(${evidenceJson('e')}) AS evidence FROM events e
        WHERE e.company_id = c.company_id AND e.type = 'fundraising' AND e.occurred_at <= $2
        ORDER BY e.occurred_at DESC, e.id LIMIT 1) lr),
    h AS MATERIALIZED (
      SELECT c.company_id,
        count(*) FILTER (WHERE e.occurred_at > $2::timestamptz - interval '90 days')::int AS recent,
        count(*) FILTER (WHERE e.occurred_at <= $2::timestamptz - interval '90 days')::int AS earlier,
        ${newestEvidence('e', 3)} AS evidence
      FROM c JOIN events e ON e.company_id = c.company_id AND e.type = 'job_offers'
        AND e.occurred_at > $2::timestamptz - interval '365 days' AND e.occurred_at <= $2
      GROUP BY c.company_id),
    n AS MATERIALIZED (
      SELECT c.company_id,
        count(*) FILTER (WHERE e.data->>'news_event_type' = 'leadership_change' AND ${articleText('e')} ~* $3)::int AS departures,
        count(*) FILTER (WHERE e.data->>'news_event_type' = 'restructuring' OR ${articleText('e')} ~* $4)::int AS restructurings,
        ${newestEvidence('e', 2, `e.data->>'news_event_type' = 'leadership_change' AND ${articleText('e')} ~* $3`)} AS departure_evidence,
        ${newestEvidence('e', 2, `e.data->>'news_event_type' = 'restructuring' OR ${articleText('e')} ~* $4`)} AS restructuring_evidence
      FROM c JOIN events e ON e.company_id = c.company_id AND e.type = 'company_news'
        AND e.occurred_at > $2::timestamptz - interval '180 days' AND e.occurred_at <= $2
      GROUP BY c.company_id),
    q AS (
      SELECT c.company_id, co.founded_year, r.occurred_at AS last_round_at, r.evidence AS round_evidence,
        coalesce(h.recent, 0) = 0 AND coalesce(h.earlier, 0) >= 3 AS hiring_stopped, coalesce(h.earlier, 0) AS earlier_postings,
        h.evidence AS hiring_evidence, coalesce(n.departures, 0) AS departures, coalesce(n.restructurings, 0) AS restructurings,
        n.departure_evidence, n.restructuring_evidence
      FROM c JOIN companies co ON co.id = c.company_id
        LEFT JOIN r USING (company_id) LEFT JOIN h USING (company_id) LEFT JOIN n USING (company_id))
    SELECT * FROM q
    WHERE (q.last_round_at <= $2::timestamptz - interval '36 months'
        OR (q.last_round_at IS NULL AND q.founded_year <= extract(year FROM $2::timestamptz) - 3))
      AND (q.hiring_stopped OR q.departures > 0 OR q.restructurings > 0)`,
  finding(row) {
    const reasons = [
      row.last_round_at
        ? `no round since ${row.last_round_at.toISOString().slice(0, 10)}`
        : `no round known, founded in ${row.founded_year}`,
    ];
    if (row.hiring_stopped) reasons.push(`no posting in 90 days after ${row.earlier_postings} in the 9 months before`);
    if (row.departures > 0) reasons.push(`${row.departures} leader departure(s) in the news`);
    if (row.restructurings > 0) reasons.push(`${row.restructurings} restructuring article(s)`);
    const signs = [row.hiring_stopped, row.departures > 0, row.restructurings > 0].filter(Boolean).length;
    return {
      confidence: confidence(0.35 + 0.15 * signs),
      summary: `Likely acquisition target within 365 days: ${reasons.join('; ')}.`,
      evidence: [
        ...asEvidence(row.round_evidence),
        ...(row.hiring_stopped ? asEvidence(row.hiring_evidence) : []),
        ...asEvidence(row.departure_evidence),
        ...asEvidence(row.restructuring_evidence),
      ],
      data: { deal_type: 'Acquisition', watchlist_role: 'acquiree' },
    };
  },
  outcomeSql: `SELECT f.i, o.id AS event_id, o.occurred_at
    FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS f(company_id, as_of, i)
    CROSS JOIN LATERAL (
      SELECT e.id, e.occurred_at FROM events e
      WHERE e.company_id = f.company_id AND e.type IN ('mergers_acquisitions', 'company_news')
        AND e.occurred_at > f.as_of AND e.occurred_at <= f.as_of + $3 * interval '1 day'
        AND CASE WHEN e.type = 'mergers_acquisitions' THEN coalesce(e.data->>'watchlist_role', '') <> 'acquirer'
          ELSE e.data->>'news_event_type' = 'mergers_acquisitions'
            AND ${articleText('e')} ~* '(acquired by|to be acquired|agrees? to be acquired|sold to|sells? itself|merger with|merges with|to merge)' END
      ORDER BY e.occurred_at, e.id LIMIT 1) o`,
  cameTrueWhen: 'a deal where the company is not the acquirer, or news of its sale or merger, within 365 days',
};
