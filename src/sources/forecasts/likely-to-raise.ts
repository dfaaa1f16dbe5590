import {
  CANDIDATES,
  FINANCE_LEADER_TITLE,
  asEvidence,
  confidence,
  dayOf,
  evidenceJson,
  newestEvidence,
  personTitle,
  type ForecastRule,
} from './forecast-rule';

interface Row {
  company_id: string;
  round_at: Date | null;
  round_type: string | null;
  in_window: boolean;
  hiring_grows: boolean;
  recent_postings: number;
  earlier_postings: number;
  leader_at: Date | null;
  round_evidence: unknown;
  hiring_evidence: unknown;
  leader_evidence: unknown;
}

const ROUND_WINDOW = `r.occurred_at > $2::timestamptz - interval '30 months' AND r.occurred_at <= $2::timestamptz - interval '12 months'`;
const HIRING_GROWS = `coalesce(h.recent, 0) >= 3 AND coalesce(h.recent, 0) > coalesce(h.earlier, 0)`;

/** The stage a company raises after its last one; blank when the last one names none we know. */
const NEXT_STAGE: Readonly<Record<string, string>> = {
  'pre-seed': 'Seed',
  seed: 'Series A',
  'series a': 'Series B',
  'series b': 'Series C',
  'series c': 'Series D',
  'series d': 'Series E',
  'series e': 'Series F',
};

/**
 * Likely to raise, v1: the last round 12–30 months ago and hiring growing (at least 3 postings
 * in the last 90 days, more than in the 90 before) or a new finance leader (a CFO, VP or head
 * of finance starting in the last 120 days); or a new finance leader alone, no round in the last
 * 6 months. Comes true with a round (a `fundraising` event, or funding news) within 365 days.
 */
export const likelyToRaise: ForecastRule<Row> = {
  id: 'likely-to-raise',
  version: 1,
  eventType: 'forecasted_funding',
  horizonDays: 365,
  inputTypes: ['fundraising', 'job_offers', 'new_decision_makers', 'job_change'],
  lookbackDays: 915,
  // A round reaching its first anniversary opens the window without any new event.
  agedSql: `SELECT DISTINCT company_id FROM events WHERE type = 'fundraising'
    AND occurred_at > $1::timestamptz - interval '12 months' AND occurred_at <= $2::timestamptz - interval '12 months'`,
  findingsParams: [FINANCE_LEADER_TITLE],
  findingsSql: `WITH ${CANDIDATES},
    r AS (
      SELECT c.company_id, lr.* FROM c CROSS JOIN LATERAL (
        SELECT e.id, e.occurred_at, coalesce(nullif(e.data->>'funding_stage', ''), e.data->>'funding_type') AS round_type,
          jsonb_build_array(${evidenceJson('e')}) AS evidence
        FROM events e WHERE e.company_id = c.company_id AND e.type = 'fundraising' AND e.occurred_at <= $2
        ORDER BY e.occurred_at DESC, e.id LIMIT 1) lr),
    h AS (
      SELECT c.company_id,
        count(*) FILTER (WHERE e.occurred_at > $2::timestamptz - interval '90 days')::int AS recent,
        count(*) FILTER (WHERE e.occurred_at <= $2::timestamptz - interval '90 days')::int AS earlier,
        ${newestEvidence('e', 5, `e.occurred_at > $2::timestamptz - interval '90 days'`)} AS evidence
      FROM c JOIN events e ON e.company_id = c.company_id AND e.type = 'job_offers'
        AND e.occurred_at > $2::timestamptz - interval '180 days' AND e.occurred_at <= $2
      GROUP BY c.company_id),
    f AS (
      SELECT c.company_id, fl.* FROM c CROSS JOIN LATERAL (
        SELECT e.occurred_at, jsonb_build_array(${evidenceJson('e')}) AS evidence
        FROM events e LEFT JOIN people p ON p.id = e.person_id
        WHERE e.company_id = c.company_id AND e.type IN ('new_decision_makers', 'job_change')
          AND e.occurred_at > $2::timestamptz - interval '120 days' AND e.occurred_at <= $2
          AND ${personTitle('e', 'p')} ~* $3
        ORDER BY e.occurred_at DESC, e.id LIMIT 1) fl)
    SELECT c.company_id, r.occurred_at AS round_at, r.round_type,
      coalesce(${ROUND_WINDOW}, false) AS in_window, (${HIRING_GROWS}) AS hiring_grows,
      coalesce(h.recent, 0) AS recent_postings, coalesce(h.earlier, 0) AS earlier_postings,
      f.occurred_at AS leader_at, r.evidence AS round_evidence, h.evidence AS hiring_evidence, f.evidence AS leader_evidence
    FROM c LEFT JOIN r USING (company_id) LEFT JOIN h USING (company_id) LEFT JOIN f USING (company_id)
    WHERE (${ROUND_WINDOW} AND ((${HIRING_GROWS}) OR f.occurred_at IS NOT NULL))
       OR (f.occurred_at IS NOT NULL AND (r.occurred_at IS NULL OR r.occurred_at <= $2::timestamptz - interval '6 months'))`,
  finding(row) {
    const roundAt = row.round_at ? dayOf(row.round_at) : null;
    const inWindow = row.in_window;
    const hiring = row.hiring_grows;
    const reasons: string[] = [];
    if (roundAt) reasons.push(`last round${row.round_type ? ` (${row.round_type})` : ''} on ${roundAt}`);
    if (inWindow && hiring)
      reasons.push(`${row.recent_postings} postings in the last 90 days against ${row.earlier_postings} before`);
    if (row.leader_at) reasons.push(`a new finance leader since ${dayOf(row.leader_at)}`);
    const score = inWindow ? 0.5 + (hiring ? 0.15 : 0) + (row.leader_at ? 0.15 : 0) : 0.4;
    const next = NEXT_STAGE[(row.round_type ?? '').trim().toLowerCase()];
    return {
      confidence: confidence(score),
      summary: `Likely to raise within 365 days: ${reasons.join('; ')}.`,
      evidence: [
        ...asEvidence(row.round_evidence),
        ...asEvidence(row.leader_evidence),
        ...(inWindow && hiring ? asEvidence(row.hiring_evidence) : []),
      ],
      data: next ? { funding_type: next } : ({} as Record<string, string>),
    };
  },
  outcomeSql: `SELECT f.i, o.id AS event_id, o.occurred_at
    FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS f(company_id, as_of, i)
    CROSS JOIN LATERAL (
      SELECT e.id, e.occurred_at FROM events e
      WHERE e.company_id = f.company_id AND e.type IN ('fundraising', 'company_news')
        AND e.occurred_at > f.as_of AND e.occurred_at <= f.as_of + $3 * interval '1 day'
        AND (e.type = 'fundraising' OR e.data->>'news_event_type' = 'funding')
      ORDER BY e.occurred_at, e.id LIMIT 1) o`,
  cameTrueWhen: 'a round (a fundraising event, or funding news) within 365 days',
};
