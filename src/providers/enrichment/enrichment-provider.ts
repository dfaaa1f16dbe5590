/**
 * Where enrichment answers come from. The built-in provider answers from the service's own
 * store of companies and people; a data vendor plugs in behind the same interface. Queries
 * arrive normalised (canonical professional-network URLs, registrable domains, lower-case
 * emails), so an adapter only fetches and maps; pricing, credits and the per-key concurrency
 * cap stay in the enrichment service.
 */
import type { CompanyColumns, ContactColumns } from '../../services/leads/payload';

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
