/**
 * Where enrichment answers come from. The built-in provider answers from the service's own
 * store of companies and people; a data vendor plugs in behind the same interface. Queries
 * arrive normalised (canonical professional-network URLs, registrable domains, lower-case
 * emails), so an adapter only fetches and maps; pricing, credits and the per-key concurrency
 * cap stay in the enrichment service.
 */

/**
 * A person's columns under the names the lead's contact block reads: a lead's candidate row has
 * them, and so does an enrichment match.
 */
export interface ContactColumns {
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  persona: string | null;
  person_linkedin_url: string | null;
  sales_navigator_url?: string | null;
  phone: string | null;
  location: string | null;
  city: string | null;
  country_code: string | null;
}

/** A company's columns under the names the lead's company block reads. */
export interface CompanyColumns {
  company_name: string;
  company_domain: string | null;
  company_linkedin_url: string | null;
  industry: string | null;
  employee_count: number | null;
  size_band: string | null;
  hq_country_code: string | null;
  hq_city: string | null;
  description: string | null;
  company_type: string | null;
  founded_year: number | null;
  tech_stack: string[];
  homepage_title?: string | null;
  meta_description?: string | null;
}

/** A contact reference: a profile URL, or an email, or a first + last name at a company domain. */
export interface ContactQuery {
  linkedinUrl?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  companyDomain?: string;
}

export interface CompanyQuery {
  domain?: string;
  linkedinUrl?: string;
  name?: string;
}

export interface EmailQuery {
  firstName: string;
  lastName: string;
  domain: string;
}

export interface LookupOptions {
  /** Ask the source now instead of answering from what is already known (slow). */
  live: boolean;
  /** Aborted when the caller gives up or the lookup outlives its slot. */
  signal?: AbortSignal;
}

/** The person columns of the lead's contact block, plus the email a contact lookup sells. */
export type FoundContact = ContactColumns & { email: string | null };

export interface ContactMatch {
  contact: FoundContact;
  /** The person's current company, when known. */
  company: CompanyColumns | null;
}

export interface EnrichmentProvider {
  readonly name: string;
  /** null when nobody (or more than one person, for a name) matches. */
  lookupContact(query: ContactQuery, options: LookupOptions): Promise<ContactMatch | null>;
  lookupCompany(query: CompanyQuery, options: LookupOptions): Promise<CompanyColumns | null>;
  /** The person's known email; never a guessed pattern such as first.last@domain. */
  findEmail(query: EmailQuery): Promise<string | null>;
  lookupPhone(ref: ContactQuery): Promise<string | null>;
}
