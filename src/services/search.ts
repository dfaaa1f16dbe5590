import type { DataSource } from 'typeorm';
import { rows } from '../db/sql';
import { isCompanySizeBand, COMPANY_SIZE_BANDS } from '../catalogue/company-sizes';
import { validateLocations } from '../catalogue/locations';
import { isKnownPersona } from '../catalogue/personas';
import { AppError, invalidRequest, type FieldProblem } from '../errors';
import { COMPANY_COLUMNS, PERSON_COLUMNS } from '../providers/enrichment/store-provider';
import type { Caller } from './api-keys';
import {
  companySizeClause,
  industryClause,
  locationClause,
  titleClause,
  TRUSTED_COMPANY,
  type PlaceColumns,
} from '../signal-types/kit/evaluation-rules';
import { companyBlock, contactFields, type CompanyColumns, type ContactColumns } from './leads/payload';

/** The filters of the signal configs, named as there; every one is optional and they AND together. */
export interface CompanySearchQuery {
  /** Free text: part of the company's name or domain. */
  q?: string;
  /** Exact names from GET /api/v1/signals/industries; a category covers its industries. */
  industryFilters?: string[];
  /** Size bands such as `51-200`. */
  companySizeFilters?: string[];
  /** Country, region or city names: the company's headquarters for companies, where the person is for people. */
  locations?: string[];
  limit?: number;
  offset?: number;
}

export interface PeopleSearchQuery extends CompanySearchQuery {
  /** Persona names from GET /api/v1/personas. */
  jobTitles?: string[];
  /** Free titles, matched at word starts in the person's title (either list may match). */
  customTitles?: string[];
}

export interface SearchPage<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export type CompanyItem = ReturnType<typeof companyBlock>;
export interface PersonItem {
  contact: ReturnType<typeof contactFields>;
  company: CompanyItem;
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** Companies have no stored region: a region filter matches their headquarters city. */
const HEADQUARTERS: PlaceColumns = { country: 'c.hq_country_code', region: null, city: 'c.hq_city' };

const INVALID_LOCATION_HINT = 'Check names first with GET /api/v1/enrichment/validate-location';

/**
 * Free search of the store of companies and people, with the same filters signals use and the
 * same SQL (the evaluation's predicate builders), so a search previews what a signal with that
 * config would consider. Free of charge: people come without email and phone, which are the
 * paid lookups.
 */
export class Search {
  constructor(private readonly db: DataSource) {}

  async companies(_caller: Caller, query: CompanySearchQuery): Promise<SearchPage<CompanyItem>> {
    const { limit, offset } = pageOf(query);
    const args: unknown[] = [];
    // A claimed company is some accounts' claim, not the store's (docs/decisions/claims.md).
    const where = [TRUSTED_COMPANY, ...companyFilters(query, args, HEADQUARTERS)];
    if (query.q?.trim()) {
      const pattern = `$${args.push(containsPattern(query.q))}`;
      where.push(`(c.name ILIKE ${pattern} OR c.domain ILIKE ${pattern})`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await rows<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM companies c ${clause}`,
      args,
    );
    const companies = await rows<CompanyColumns>(
      this.db,
      `SELECT ${COMPANY_COLUMNS} FROM companies c ${clause}
       ORDER BY c.name_key, c.id LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, limit, offset],
    );
    return page(companies.map(companyBlock), total, limit, offset);
  }

  async people(_caller: Caller, query: PeopleSearchQuery): Promise<SearchPage<PersonItem>> {
    const { limit, offset } = pageOf(query);
    const args: unknown[] = [];
    const where = [TRUSTED_COMPANY, ...companyFilters(query, args)];
    for (const name of query.jobTitles ?? []) {
      if (!isKnownPersona(name))
        throw invalidRequest(`jobTitles: "${name}" is not a persona name from GET /api/v1/personas`);
    }
    if (query.jobTitles?.length || query.customTitles?.length) {
      where.push(titleClause({ jobTitles: query.jobTitles, customTitles: query.customTitles }, args));
    }
    if (query.q?.trim()) {
      const pattern = `$${args.push(containsPattern(query.q))}`;
      where.push(
        `((p.first_name || ' ' || p.last_name) ILIKE ${pattern} OR p.title ILIKE ${pattern} OR c.name ILIKE ${pattern})`,
      );
    }
    const from = `people p JOIN companies c ON c.id = p.company_id`;
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await rows<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM ${from} ${clause}`,
      args,
    );
    const people = await rows<ContactColumns & CompanyColumns>(
      this.db,
      `SELECT ${PERSON_COLUMNS}, ${COMPANY_COLUMNS} FROM ${from} ${clause}
       ORDER BY lower(p.last_name), lower(p.first_name), p.id LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, limit, offset],
    );
    const items = people.map((row) => ({
      contact: contactFields(row, { email: '', phone: '' }),
      company: companyBlock(row),
    }));
    return page(items, total, limit, offset);
  }
}

/** Industry, size and location conditions over `c` (and `p` for people's locations). */
function companyFilters(query: CompanySearchQuery, args: unknown[], place?: PlaceColumns): string[] {
  const where: string[] = [];
  if (query.industryFilters?.length) where.push(industryClause(query.industryFilters, args));
  if (query.companySizeFilters?.length) {
    const problems: FieldProblem[] = query.companySizeFilters
      .filter((band) => !isCompanySizeBand(band))
      .map((band) => ({
        field: 'companySizeFilters',
        message: `"${band}" is not a size band (${COMPANY_SIZE_BANDS.join(', ')})`,
      }));
    if (problems.length)
      throw invalidRequest(problems.map((p) => `${p.field}: ${p.message}`).join('; '), { details: problems });
    where.push(companySizeClause(query.companySizeFilters, args));
  }
  if (query.locations?.length) {
    const { invalid } = validateLocations(query.locations);
    if (invalid.length > 0) {
      throw new AppError(
        400,
        'INVALID_LOCATION',
        `Unrecognised locations: ${invalid.map((i) => i.input).join(', ')}. ${INVALID_LOCATION_HINT}`,
        {
          invalid_locations: invalid.map((i) => i.input),
          suggestions: Object.fromEntries(invalid.map((i) => [i.input, i.suggestions])),
        },
      );
    }
    where.push(locationClause(query.locations, args, place));
  }
  return where;
}

function pageOf(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalidRequest(`limit: must be an integer from 1 to ${MAX_LIMIT}`);
  if (!Number.isInteger(offset) || offset < 0) throw invalidRequest('offset: must be a non-negative integer');
  return { limit, offset };
}

function page<T>(items: T[], total: number, limit: number, offset: number): SearchPage<T> {
  return { items, total, limit, offset, hasMore: offset + items.length < total };
}

/** `q` as an ILIKE pattern that matches it anywhere, its own `%`, `_` and `\` taken literally. */
function containsPattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
