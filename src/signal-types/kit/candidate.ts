import type { CompanyColumns, ContactColumns } from '../../providers/enrichment/enrichment-provider';

/** One row the evaluation queries return: an event with its company and, when person-level, its person. */
export interface Candidate extends CompanyColumns, ContactColumns {
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  company_id: string;
  person_id: string | null;
  email: string | null;
  subject_key: string;
  /** Hiring: the signal's keywords the posting matched, comma-separated; empty for other types. */
  matched_keywords?: string;
  /** What the plan's `leadData` selected (the account score: the company's events and the model); absent elsewhere. */
  lead_data?: unknown;
}

/**
 * The company's name in the lead: a claimed company (docs/decisions/claims.md) reaches only
 * the watchlists that claim it, and each sees it under the name its own entry gave it.
 * `$1` is the signal id in every evaluation plan.
 */
const COMPANY_NAME = `CASE WHEN c.provenance = 'claimed' THEN coalesce((SELECT w.name FROM watched_companies w
    WHERE w.signal_id = $1 AND w.kind = 'company' AND w.domain = c.domain AND w.name IS NOT NULL
    ORDER BY w.added_at LIMIT 1), c.name) ELSE c.name END`;

/** The columns every candidate query selects; `c` is the company, `p` the lead's person (may be null). */
export const CANDIDATE_COLUMNS = `
  e.id AS event_id, e.type AS event_type, e.occurred_at, e.data,
  c.id AS company_id, ${COMPANY_NAME} AS company_name, c.domain AS company_domain, c.linkedin_url AS company_linkedin_url,
  c.industry, c.employee_count, c.size_band, c.hq_country_code, c.hq_city, c.description, c.company_type,
  c.founded_year, c.tech_stack, c.homepage_title, c.meta_description,
  p.id AS person_id, p.first_name, p.last_name, p.title, p.persona, p.linkedin_url AS person_linkedin_url, p.sales_navigator_url,
  p.email, p.phone, p.location, p.city, p.country_code,
  CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END AS subject_key`;
