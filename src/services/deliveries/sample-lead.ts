/**
 * The made-up lead of a test send (`POST /signals/{id}/test-webhook`): sample data only, kept
 * apart from the sending; each signal type's own event lives with that type (src/signal-types).
 */
import type { Candidate } from '../../signal-types/kit/candidate';
import { signalType } from '../../signal-types/registry';

/** A realistic made-up lead for test sends: an event of the signal's type at a made-up company. */
export function sampleCandidate(signalTypeId: string): Candidate {
  // Each type module holds its sample event: realistic values of that type's `signal` fields.
  const sample = signalType(signalTypeId).testSendSample;
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
