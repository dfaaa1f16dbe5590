/**
 * The made-up lead of a test send (`POST /signals/{id}/test-webhook`): sample data only, kept
 * apart from the sending so that each signal type's sample can live with that type.
 */
import type { Candidate } from '../leads/candidate';

/** The event of a test send's made-up lead, one per signal type: realistic values of that type's `signal` fields. */
export const SAMPLE_EVENTS: Record<string, Pick<Candidate, 'event_type' | 'data'> & { matched_keywords?: string }> = {
  job_changes: {
    event_type: 'job_change',
    data: {
      previous_title: 'VP Engineering',
      previous_company: 'Northwind Labs',
      new_title: 'Chief Technology Officer',
      new_company: 'Acme Analytics',
      new_job_started_on: '10/2026',
      new_job_start_month: '2026-10',
      change_type: 'company',
    },
  },
  account_watchlist: {
    event_type: 'new_decision_makers',
    data: { watchlist_role: 'Chief Technology Officer', new_job_started_on: '10/2026', new_job_start_month: '2026-10' },
  },
  fundraising: {
    event_type: 'fundraising',
    data: { funding_stage: 'Series B', funding_amount_usd: 25_000_000, announcement_date: '2026-11-20' },
  },
  hiring: {
    event_type: 'job_offers',
    data: {
      job_offer_url: 'https://careers.acme-analytics.example/jobs/data-engineer',
      job_offer_title: 'Senior Data Engineer',
      job_offer_location: 'Austin, Texas, United States',
      job_offer_description: 'Build our Snowflake and dbt pipelines.',
      job_offer_source: 'company website',
      job_offer_date: '2026-11-20',
      job_offer_published_date: '2026-11-20',
    },
    matched_keywords: 'data engineer, snowflake',
  },
};

/** A realistic made-up lead for test sends: an event of the signal's type at a made-up company. */
export function sampleCandidate(signalTypeId: string): Candidate {
  const sample = SAMPLE_EVENTS[signalTypeId] ?? SAMPLE_EVENTS.job_changes!;
  const occurredAt = new Date(Date.now() - 2 * 86_400_000);
  return {
    event_id: 'sample',
    occurred_at: occurredAt,
    ...sample,
    company_id: 'sample-company',
    company_name: 'Acme Analytics',
    company_domain: 'acme-analytics.example',
    company_linkedin_url: 'https://www.linkedin.com/company/acme-analytics-example',
    industry: 'Software Development',
    employee_count: 120,
    size_band: '51-200',
    hq_country_code: 'US',
    hq_city: 'Austin',
    description: 'Analytics software for mid-size retailers.',
    company_type: 'Privately Held',
    founded_year: 2015,
    tech_stack: ['Snowflake', 'React'],
    person_id: 'sample-person',
    first_name: 'Ada',
    last_name: 'Example',
    title: 'Chief Technology Officer',
    persona: 'Chief Technology Officer',
    person_linkedin_url: 'https://www.linkedin.com/in/ada-example',
    email: null,
    phone: '+1 512 555 0100',
    location: 'Austin, Texas, United States',
    city: 'Austin',
    country_code: 'US',
    subject_key: 'person:sample-person',
  };
}
