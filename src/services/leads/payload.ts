import { countryName } from '../../catalogue/locations';
import { signalType } from '../../signal-types/registry';
import type { CompanyColumns, ContactColumns } from '../../providers/enrichment/enrichment-provider';
import type { Candidate } from '../../signal-types/kit/candidate';

export interface LeadSignalInfo {
  id: string;
  name: string;
  signalTypeId: string;
  getPhones: boolean;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Every field of the type's block is present: the event's value when it has one, else the empty string. */
function signalBlock(signal: LeadSignalInfo, candidate: Candidate) {
  const type = signalType(signal.signalTypeId);
  const block: Record<string, unknown> = {
    id: signal.id,
    name: signal.name,
    type: signal.signalTypeId,
    last_signal: type.lastSignalLabel(candidate),
    last_signal_date: candidate.occurred_at.toISOString().slice(0, 10),
  };
  const values = { ...candidate.data, ...type.leadValues?.(candidate) };
  for (const field of type.leadFields) {
    const value = values[field];
    block[field] = value === undefined || value === null ? '' : value;
  }
  return block;
}

function contactBlock(leadId: string, createdAt: Date, signal: LeadSignalInfo, c: Candidate) {
  if (!c.person_id) return '';
  return {
    lead_id: leadId,
    created_at: createdAt.toISOString(),
    // Emails are a paid extra: filled by the lead workflow when getEmails is on and one is found.
    ...contactFields(c, { email: '', phone: signal.getPhones ? text(c.phone) : '' }),
  };
}

// The columns the contact and company blocks read are what an enrichment provider answers too:
// defined once, with that provider's interface.
export type { CompanyColumns, ContactColumns };

/**
 * The contact block without the lead's own id and time, shared with enrichment answers and
 * people search. Email and phone are paid extras, so each caller decides what they hold.
 */
export function contactFields(c: ContactColumns, paid: { email: string; phone: string }) {
  const country = c.country_code ?? '';
  return {
    first_name: text(c.first_name),
    last_name: text(c.last_name),
    email: paid.email,
    phone: paid.phone,
    title: text(c.title),
    location: c.location || [c.city, countryName(country) ?? country].filter(Boolean).join(', '),
    city: text(c.city),
    country_code: country,
    linkedin_profile_url: text(c.person_linkedin_url),
    sales_navigator_profile_url: text(c.sales_navigator_url),
    matched_persona: text(c.persona),
  };
}

export function companyBlock(c: CompanyColumns) {
  const country = c.hq_country_code ?? '';
  return {
    name: c.company_name,
    website: c.company_domain ? `https://${c.company_domain}` : '',
    linkedin_url: text(c.company_linkedin_url),
    hq_country_code: country,
    hq_city: text(c.hq_city),
    tech_stack: c.tech_stack?.length ? c.tech_stack : '',
    // "Only with enrichment": what the provider's record of the company carries.
    homepage_title: text(c.homepage_title),
    meta_description: text(c.meta_description),
    description: text(c.description),
    industry: text(c.industry),
    location: [c.hq_city, countryName(country) ?? country].filter(Boolean).join(', '),
    employee_count: c.employee_count ?? '',
    employee_range: text(c.size_band),
    headquarters: c.hq_city && country ? `${c.hq_city}, ${country}` : text(c.hq_city || country),
    company_type: text(c.company_type),
    founded_year: c.founded_year ?? '',
  };
}

/** The lead exactly as the specification's Lead resource; stored once and served identically by every route. */
export function buildLeadPayload(leadId: string, createdAt: Date, signal: LeadSignalInfo, candidate: Candidate) {
  return {
    signal: signalBlock(signal, candidate),
    contact: contactBlock(leadId, createdAt, signal, candidate),
    company: companyBlock(candidate),
  };
}
