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
}

/** The columns every candidate query selects; `c` is the company, `p` the lead's person (may be null). */
export const CANDIDATE_COLUMNS = `
  e.id AS event_id, e.type AS event_type, e.occurred_at, e.data,
  c.id AS company_id, c.name AS company_name, c.domain AS company_domain, c.linkedin_url AS company_linkedin_url,
  c.industry, c.employee_count, c.size_band, c.hq_country_code, c.hq_city, c.description, c.company_type,
  c.founded_year, c.tech_stack, c.homepage_title, c.meta_description,
  p.id AS person_id, p.first_name, p.last_name, p.title, p.persona, p.linkedin_url AS person_linkedin_url, p.sales_navigator_url,
  p.email, p.phone, p.location, p.city, p.country_code,
  CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END AS subject_key`;
