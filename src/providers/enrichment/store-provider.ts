import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import { nameKeyOf } from '../../catalogue/identifiers';
import type {
  CompanyColumns,
  CompanyQuery,
  ContactMatch,
  ContactQuery,
  EmailQuery,
  EnrichmentProvider,
  FoundContact,
  LookupOptions,
} from './enrichment-provider';

/** The store's columns under the names the lead's company and contact blocks read (search selects them too). */
export const COMPANY_COLUMNS = `
  c.name AS company_name, c.domain AS company_domain, c.linkedin_url AS company_linkedin_url, c.industry,
  c.employee_count, c.size_band, c.hq_country_code, c.hq_city, c.description, c.company_type, c.founded_year, c.tech_stack,
  c.homepage_title, c.meta_description`;

export const PERSON_COLUMNS = `
  p.first_name, p.last_name, p.title, p.persona, p.linkedin_url AS person_linkedin_url, p.sales_navigator_url, p.email, p.phone,
  p.location, p.city, p.country_code`;

type PersonRow = FoundContact & Partial<CompanyColumns> & { company_id: string | null };

/** A WHERE condition over `p` (person) and `c` (company) and whether it names one record by itself. */
interface Match {
  sql: string;
  args: unknown[];
  /** Identifiers (URL, email, domain) take the first record; a name must be unique to count. */
  unique: boolean;
}

/**
 * The built-in provider: answers from the companies and people that ingestion stored. Live
 * lookups stand in for asking a vendor now: they take ENRICHMENT_LIVE_LATENCY_MS, cut short
 * when the caller gives up, so a slot is never held for a client that has gone.
 */
export class StoreEnrichmentProvider implements EnrichmentProvider {
  readonly name = 'store';

  constructor(
    private readonly db: DataSource,
    private readonly settings: { liveLatencyMs: number },
  ) {}

  async lookupContact(query: ContactQuery, options: LookupOptions): Promise<ContactMatch | null> {
    if (options.live) await this.waitLive(options.signal);
    const row = await this.person(query);
    if (!row) return null;
    const { company_id, ...columns } = row;
    const contact: FoundContact = {
      first_name: columns.first_name,
      last_name: columns.last_name,
      title: columns.title,
      persona: columns.persona,
      person_linkedin_url: columns.person_linkedin_url,
      email: columns.email,
      phone: columns.phone,
      location: columns.location,
      city: columns.city,
      country_code: columns.country_code,
    };
    return { contact, company: company_id ? (columns as CompanyColumns) : null };
  }

  async lookupCompany(query: CompanyQuery, options: LookupOptions): Promise<CompanyColumns | null> {
    if (options.live) await this.waitLive(options.signal);
    const match: Match | undefined = query.linkedinUrl
      ? { sql: 'c.linkedin_url = $1', args: [query.linkedinUrl], unique: false }
      : query.domain
        ? { sql: 'c.domain = $1', args: [query.domain], unique: false }
        : query.name
          ? { sql: `c.name_key = $1`, args: [nameKeyOf(query.name)], unique: true }
          : undefined;
    if (!match) return null;
    const companies = await rows<CompanyColumns>(
      this.db,
      // A claimed company is some accounts' claim, not a record to answer anyone with (docs/decisions/claims.md).
      `SELECT ${COMPANY_COLUMNS} FROM companies c WHERE ${match.sql} AND c.provenance = 'trusted'
       ORDER BY c.ingested_at, c.id LIMIT 2`,
      match.args,
    );
    return pick(companies, match.unique);
  }

  async findEmail(query: EmailQuery): Promise<string | null> {
    const row = await this.person({
      firstName: query.firstName,
      lastName: query.lastName,
      companyDomain: query.domain,
    });
    return row?.email ?? null;
  }

  async lookupPhone(ref: ContactQuery): Promise<string | null> {
    const row = await this.person(ref);
    return row?.phone ?? null;
  }

  /** URL, else email, else name at the company's domain: the strongest identifier given decides. */
  private async person(query: ContactQuery): Promise<PersonRow | null> {
    const match: Match | undefined = query.linkedinUrl
      ? { sql: 'p.linkedin_url = $1', args: [query.linkedinUrl], unique: false }
      : query.email
        ? { sql: 'lower(p.email) = $1', args: [query.email.toLowerCase()], unique: false }
        : query.firstName && query.lastName && query.companyDomain
          ? {
              sql: 'lower(p.first_name) = lower($1) AND lower(p.last_name) = lower($2) AND c.domain = $3',
              args: [query.firstName, query.lastName, query.companyDomain],
              unique: true,
            }
          : undefined;
    if (!match) return null;
    const people = await rows<PersonRow>(
      this.db,
      `SELECT p.company_id, ${PERSON_COLUMNS}, ${COMPANY_COLUMNS}
       FROM people p LEFT JOIN companies c ON c.id = p.company_id AND c.provenance = 'trusted'
       WHERE ${match.sql} ORDER BY p.ingested_at, p.id LIMIT 2`,
      match.args,
    );
    return pick(people, match.unique);
  }

  private async waitLive(signal?: AbortSignal): Promise<void> {
    if (this.settings.liveLatencyMs > 0) await delay(this.settings.liveLatencyMs, undefined, { signal });
    else signal?.throwIfAborted();
  }
}

/** Two people of the same name at one company cannot be told apart: neither is answered. */
function pick<T>(rows: T[], unique: boolean): T | null {
  if (rows.length === 0 || (unique && rows.length > 1)) return null;
  return rows[0];
}
