import { CANDIDATES, asEvidence, confidence, evidenceJson, newestEvidence, type ForecastRule } from './forecast-rule';

interface Row {
  company_id: string;
  recent: number;
  earlier: number;
  departments: number;
  new_places: number;
  round_at: Date | null;
  hiring_evidence: unknown;
  place_evidence: unknown;
  round_evidence: unknown;
}

const place = (e: string) => `coalesce(nullif(${e}.job_city, ''), nullif(${e}.job_country_code, ''))`;

/**
 * Expected to scale, v1: postings up sharply across departments: at least 5 in the last 90 days,
 * at least twice the 90 days before, in at least 2 departments. New places (a city or country
 * no posting of the year before named) and a round in the last 180 days raise its confidence.
 * Comes true when, within 180 days, the company posts at least a quarter more than in the 180
 * days before the forecast (at least one more).
 */
export const expectedToScale: ForecastRule<Row> = {
  id: 'expected-to-scale',
  version: 1,
  eventType: 'forecasted_growth',
  horizonDays: 180,
  inputTypes: ['job_offers', 'fundraising'],
  lookbackDays: 90,
  agedSql: null,
  findingsSql: `WITH ${CANDIDATES},
    h AS (
      SELECT c.company_id,
        count(*) FILTER (WHERE e.occurred_at > $2::timestamptz - interval '90 days')::int AS recent,
        count(*) FILTER (WHERE e.occurred_at <= $2::timestamptz - interval '90 days')::int AS earlier,
        count(DISTINCT coalesce(e.job_department, 'Other')) FILTER (WHERE e.occurred_at > $2::timestamptz - interval '90 days')::int AS departments,
        ${newestEvidence('e', 5, `e.occurred_at > $2::timestamptz - interval '90 days'`)} AS evidence
      FROM c JOIN events e ON e.company_id = c.company_id AND e.type = 'job_offers'
        AND e.occurred_at > $2::timestamptz - interval '180 days' AND e.occurred_at <= $2
      GROUP BY c.company_id),
    grown AS (
      SELECT h.* FROM h WHERE h.recent >= 5 AND h.recent >= 2 * h.earlier AND h.departments >= 2),
    places AS (
      SELECT g.company_id, count(DISTINCT ${place('e')})::int AS new_places,
        ${newestEvidence('e', 2)} AS evidence
      FROM grown g JOIN events e ON e.company_id = g.company_id AND e.type = 'job_offers'
        AND e.occurred_at > $2::timestamptz - interval '90 days' AND e.occurred_at <= $2 AND ${place('e')} IS NOT NULL
      WHERE NOT EXISTS (
        SELECT 1 FROM events o WHERE o.company_id = g.company_id AND o.type = 'job_offers'
          AND o.occurred_at > $2::timestamptz - interval '455 days' AND o.occurred_at <= $2::timestamptz - interval '90 days'
          AND ${place('o')} = ${place('e')})
      GROUP BY g.company_id),
    r AS (
      SELECT g.company_id, lr.occurred_at, lr.evidence FROM grown g CROSS JOIN LATERAL (
        SELECT e.occurred_at, jsonb_build_array(${evidenceJson('e')}) AS evidence FROM events e
        WHERE e.company_id = g.company_id AND e.type = 'fundraising'
          AND e.occurred_at > $2::timestamptz - interval '180 days' AND e.occurred_at <= $2
        ORDER BY e.occurred_at DESC, e.id LIMIT 1) lr)
    SELECT g.company_id, g.recent, g.earlier, g.departments, coalesce(places.new_places, 0) AS new_places,
      r.occurred_at AS round_at, g.evidence AS hiring_evidence, places.evidence AS place_evidence, r.evidence AS round_evidence
    FROM grown g LEFT JOIN places USING (company_id) LEFT JOIN r USING (company_id)`,
  finding(row) {
    const reasons = [
      `${row.recent} postings in the last 90 days against ${row.earlier} before, in ${row.departments} departments`,
    ];
    if (row.new_places > 0) reasons.push(`${row.new_places} new place(s)`);
    if (row.round_at) reasons.push(`a round on ${row.round_at.toISOString().slice(0, 10)}`);
    const score =
      0.5 + (row.new_places > 0 ? 0.15 : 0) + (row.round_at ? 0.15 : 0) + (row.recent >= 4 * row.earlier ? 0.05 : 0);
    return {
      confidence: confidence(score),
      summary: `Expected to scale within 180 days: ${reasons.join('; ')}.`,
      evidence: [
        ...asEvidence(row.hiring_evidence),
        ...asEvidence(row.place_evidence),
        ...asEvidence(row.round_evidence),
      ],
      data: {},
    };
  },
  // The threshold-th posting after the forecast: postings of the 180 days before, plus a quarter (at least one more).
  outcomeSql: `SELECT f.i, o.id AS event_id, o.occurred_at
    FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS f(company_id, as_of, i)
    CROSS JOIN LATERAL (
      SELECT greatest(ceil(count(*) * 1.25), count(*) + 1)::int AS wanted FROM events b
      WHERE b.company_id = f.company_id AND b.type = 'job_offers'
        AND b.occurred_at > f.as_of - interval '180 days' AND b.occurred_at <= f.as_of) t
    CROSS JOIN LATERAL (
      SELECT e.id, e.occurred_at FROM events e
      WHERE e.company_id = f.company_id AND e.type = 'job_offers'
        AND e.occurred_at > f.as_of AND e.occurred_at <= f.as_of + $3 * interval '1 day'
      ORDER BY e.occurred_at, e.id OFFSET t.wanted - 1 LIMIT 1) o`,
  cameTrueWhen:
    'at least a quarter more postings (at least one more) in the 180 days after than in the 180 days before',
};
