import {
  CANDIDATES,
  articleText,
  asEvidence,
  confidence,
  newestEvidence,
  personTitle,
  type ForecastRule,
} from './forecast-rule';

interface Row {
  company_id: string;
  late_stage: boolean;
  stage_reason: string | null;
  readiness_postings: number;
  directors: number;
  registrations: number;
  stage_evidence: unknown;
  posting_evidence: unknown;
  director_evidence: unknown;
  registration_evidence: unknown;
}

/** Postings a company hires before it reports to public markets. */
const READINESS_ROLE =
  '(investor relations|\\mir (manager|director|lead)\\M|sec reporting|external reporting|financial reporting|sox\\M|sarbanes|internal audit|technical accounting|chief accounting officer|corporate controller|\\mipo\\M)';
/** Board seats a company fills before listing. */
const INDEPENDENT_DIRECTOR =
  '(independent|non-executive|nonexecutive)\\W+(board\\W+)?(director|member)|audit committee';
/** A registration statement filed or submitted (S-1, F-1, a draft registration statement). */
const REGISTRATION =
  '(registration statement|form [sf]-1|\\m[sf]-1\\M.{0,40}\\m(filed|files|filing|submit)|confidential(ly)?\\W+(submit|submission|fil))';
/** A round only a late-stage company raises. */
const LATE_ROUND = '(series\\s+[c-z]\\M|growth|private equity|pre-ipo|mezzanine)';

/**
 * Path to IPO, v1: a late-stage company (a Series C or later, growth or private-equity round, at
 * least $100M raised in all, or at least 500 employees) hiring investor-relations, SEC-reporting
 * or internal-audit roles, or adding independent directors, in the last 180 days; or any company
 * with news of a registration statement (S-1, F-1, a confidential draft) in that time. Comes
 * true with IPO news or an IPO round within 540 days.
 */
export const pathToIpo: ForecastRule<Row> = {
  id: 'path-to-ipo',
  version: 1,
  eventType: 'forecasted_ipo',
  horizonDays: 540,
  inputTypes: ['fundraising', 'job_offers', 'new_decision_makers', 'job_change', 'company_news'],
  lookbackDays: 180,
  agedSql: null,
  findingsParams: [READINESS_ROLE, INDEPENDENT_DIRECTOR, REGISTRATION, LATE_ROUND],
  findingsSql: `WITH ${CANDIDATES},
    r AS (
      SELECT c.company_id,
        sum(CASE WHEN jsonb_typeof(e.data->'funding_amount_usd') = 'number' THEN (e.data->>'funding_amount_usd')::numeric END) AS raised,
        (array_agg(coalesce(nullif(e.data->>'funding_stage', ''), e.data->>'funding_type', '') ORDER BY e.occurred_at DESC, e.id))[1] AS last_round,
        ${newestEvidence('e', 1, `coalesce(nullif(e.data->>'funding_stage', ''), e.data->>'funding_type', '') ~* $6`)} AS late_evidence
      FROM c JOIN events e ON e.company_id = c.company_id AND e.type = 'fundraising' AND e.occurred_at <= $2
      GROUP BY c.company_id),
    s AS (
      SELECT c.company_id,
        count(*) FILTER (WHERE e.type = 'job_offers' AND coalesce(e.data->>'job_offer_title', '') ~* $3)::int AS postings,
        count(*) FILTER (WHERE e.type IN ('new_decision_makers', 'job_change') AND ${personTitle('e', 'p')} ~* $4)::int AS directors,
        count(*) FILTER (WHERE e.type = 'company_news' AND ${articleText('e')} ~* $5)::int AS registrations,
        ${newestEvidence('e', 3, `e.type = 'job_offers' AND coalesce(e.data->>'job_offer_title', '') ~* $3`)} AS posting_evidence,
        ${newestEvidence('e', 3, `e.type IN ('new_decision_makers', 'job_change') AND ${personTitle('e', 'p')} ~* $4`)} AS director_evidence,
        ${newestEvidence('e', 2, `e.type = 'company_news' AND ${articleText('e')} ~* $5`)} AS registration_evidence
      FROM c JOIN events e ON e.company_id = c.company_id
        AND e.type IN ('job_offers', 'new_decision_makers', 'job_change', 'company_news')
        AND e.occurred_at > $2::timestamptz - interval '180 days' AND e.occurred_at <= $2
      LEFT JOIN people p ON p.id = e.person_id
      GROUP BY c.company_id),
    staged AS (
      SELECT c.company_id, co.employee_count, r.raised, r.last_round, r.late_evidence,
        CASE WHEN coalesce(r.last_round, '') ~* $6 THEN 'a ' || r.last_round || ' round'
             WHEN coalesce(r.raised, 0) >= 100000000 THEN 'about $' || round(r.raised / 1000000) || 'M raised'
             WHEN coalesce(co.employee_count, 0) >= 500 THEN co.employee_count || ' employees' END AS stage_reason
      FROM c JOIN companies co ON co.id = c.company_id LEFT JOIN r USING (company_id))
    SELECT staged.company_id, staged.stage_reason IS NOT NULL AS late_stage, staged.stage_reason,
      s.postings AS readiness_postings, s.directors, s.registrations,
      CASE WHEN coalesce(staged.last_round, '') ~* $6 THEN staged.late_evidence END AS stage_evidence,
      s.posting_evidence, s.director_evidence, s.registration_evidence
    FROM staged JOIN s USING (company_id)
    WHERE (staged.stage_reason IS NOT NULL AND (s.postings > 0 OR s.directors > 0)) OR s.registrations > 0`,
  finding(row) {
    const reasons: string[] = [];
    if (row.stage_reason) reasons.push(`late stage (${row.stage_reason})`);
    if (row.readiness_postings > 0)
      reasons.push(`${row.readiness_postings} investor-relations, reporting or audit posting(s) in 180 days`);
    if (row.directors > 0) reasons.push(`${row.directors} independent director(s) added in 180 days`);
    if (row.registrations > 0) reasons.push('news of a registration statement');
    const kinds = [row.readiness_postings > 0, row.directors > 0].filter(Boolean).length;
    const score = row.registrations > 0 ? 0.8 : 0.4 + 0.15 * kinds + (row.late_stage ? 0.05 : 0);
    return {
      confidence: confidence(score),
      summary: `On a path to IPO within 540 days: ${reasons.join('; ')}.`,
      evidence: [
        ...asEvidence(row.stage_evidence),
        ...asEvidence(row.registration_evidence),
        ...asEvidence(row.director_evidence),
        ...asEvidence(row.posting_evidence),
      ],
      data: {},
    };
  },
  outcomeSql: `SELECT f.i, o.id AS event_id, o.occurred_at
    FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS f(company_id, as_of, i)
    CROSS JOIN LATERAL (
      SELECT e.id, e.occurred_at FROM events e
      WHERE e.company_id = f.company_id AND e.type IN ('fundraising', 'company_news')
        AND e.occurred_at > f.as_of AND e.occurred_at <= f.as_of + $3 * interval '1 day'
        AND CASE WHEN e.type = 'fundraising'
          THEN coalesce(e.data->>'funding_stage', '') || ' ' || coalesce(e.data->>'funding_type', '') ~* '(\\mipo\\M|initial public offering|public offering)'
          ELSE ${articleText('e')} ~* '(\\mipo\\M|initial public offering|go(es|ing)? public|registration statement|form [sf]-1|direct listing|began trading|starts? trading|listed on)' END
      ORDER BY e.occurred_at, e.id LIMIT 1) o`,
  cameTrueWhen: 'IPO news (an IPO, a registration statement, a listing) or an IPO round within 540 days',
};
