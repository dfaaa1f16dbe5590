import type { DataSource } from 'typeorm';
import { nameKeyOf } from '../../catalogue/identifiers';
import type { CompanyProfile, SearchedCompany } from './records';
import type { CompanyRecordInput } from '../../providers/data/records';
import { execute, firstRow, rows } from '../../db/sql';
import { titleCase } from '../kit/record-names';
import { nameOnlyEntries } from '../../signal-types/watched-companies';

/** How a company number was found to be a stored company (`companies_house_companies.matched_by`). */
export type NumberMatch = 'number' | 'name' | 'watched-name' | 'search' | 'none';

export interface NumberCompany {
  companyId: string | null;
  matchedBy: NumberMatch;
  /** The company to ingest for a watched name no stored company has. */
  record: CompanyRecordInput | null;
}

/** Legal endings a register name carries and a watchlist entry or another source often leaves out. */
const LEGAL_ENDINGS = ['limited', 'ltd', 'ltd.', 'plc', 'p.l.c.', 'llp', 'l.l.p.', 'cyfyngedig', 'cyf'];

/** The name keys that mean the same registered name: with and without its legal ending. */
export function registeredNameKeys(name: string): string[] {
  const key = nameKeyOf(name);
  const ending = LEGAL_ENDINGS.find((end) => key.endsWith(` ${end}`));
  const base = ending ? key.slice(0, -(ending.length + 1)).trim() : key;
  return [...new Set([base, ...LEGAL_ENDINGS.map((end) => `${base} ${end}`), key])];
}

/**
 * Which stored company a Companies House company number is (docs/decisions/sources.md,
 * "Companies House companies"):
 *  1. the company the number was linked to before;
 *  2. else the one stored company whose name is the registered name, with or without its legal
 *     ending ("Acme Robotics" for "ACME ROBOTICS LIMITED"), based in GB or nowhere stated, and
 *     linked to no other number;
 *  3. else, when no stored company has that name, a watched name-only watchlist entry of that
 *     name: a new company `ch-<number>` under the entry's own name, so the watchlist finds it;
 *  4. else none: the store does not know it (two stored companies of that name are never guessed between).
 */
export class CompaniesHouseCompanies {
  constructor(private readonly db: DataSource) {}

  async linked(number: string): Promise<{ companyId: string | null; checkedAt: Date } | null> {
    const row = await firstRow<{ company_id: string | null; checked_at: Date }>(
      this.db,
      `SELECT company_id, checked_at FROM companies_house_companies WHERE company_number = $1`,
      [number],
    );
    return row ? { companyId: row.company_id, checkedAt: row.checked_at } : null;
  }

  async resolve(profile: CompanyProfile): Promise<NumberCompany> {
    const known = await this.linked(profile.number);
    if (known?.companyId) return { companyId: known.companyId, matchedBy: 'number', record: null };
    const keys = registeredNameKeys(profile.name);
    const stored = await rows<{ id: string }>(
      this.db,
      `SELECT c.id FROM companies c
       WHERE c.name_key = ANY($1::text[]) AND (c.hq_country_code IS NULL OR c.hq_country_code = 'GB')
         AND NOT EXISTS (SELECT 1 FROM companies_house_companies h WHERE h.company_id = c.id AND h.company_number <> $2)
       ORDER BY c.id`,
      [keys, profile.number],
    );
    if (stored.length === 1) return { companyId: stored[0]!.id, matchedBy: 'name', record: null };
    if (stored.length > 1) return { companyId: null, matchedBy: 'none', record: null };
    const watched = await firstRow<{ name: string }>(
      this.db,
      `SELECT w.name FROM (${nameOnlyEntries({ activeOnly: false })}) w
       WHERE w.name IS NOT NULL AND w.name_key = ANY($1::text[])
       ORDER BY w.added_at LIMIT 1`,
      [keys],
    );
    if (!watched) return { companyId: null, matchedBy: 'none', record: null };
    const id = `ch-${profile.number}`;
    return {
      companyId: id,
      matchedBy: 'watched-name',
      record: {
        kind: 'company',
        id,
        name: watched.name,
        hqCountryCode: 'GB',
        hqCity: profile.locality ? titleCase(profile.locality) : null,
        companyType: profile.type,
        foundedYear: profile.createdOn ? Number(profile.createdOn.slice(0, 4)) : null,
      },
    };
  }

  /** Remembers what the number is (a company, or none for now) once that company is stored. */
  async link(profile: CompanyProfile, match: NumberCompany): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO companies_house_companies (company_number, company_id, registered_name, matched_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (company_number) DO UPDATE SET company_id = COALESCE(companies_house_companies.company_id, $2),
         registered_name = $3, matched_by = CASE WHEN companies_house_companies.company_id IS NULL THEN $4
           ELSE companies_house_companies.matched_by END, checked_at = now()`,
      [profile.number, match.companyId, profile.name, match.matchedBy],
    );
  }

  /**
   * A watched company found by searching the register for its name: the one result not
   * dissolved whose registered name is the company's, with or without its legal ending, and
   * whose number no other company has. Two such results are never guessed between.
   */
  async found(companyId: string, name: string, results: SearchedCompany[]): Promise<string | null> {
    const key = nameKeyOf(name);
    const same = results.filter((r) => r.status !== 'dissolved' && registeredNameKeys(r.title).includes(key));
    const numbers = [...new Set(same.map((r) => r.number))];
    const only = numbers.length === 1 ? same.find((r) => r.number === numbers[0])! : null;
    const taken = only ? await this.linked(only.number) : null;
    const number = only && (!taken?.companyId || taken.companyId === companyId) ? only.number : null;
    if (only && number) {
      const profile = {
        number,
        name: only.title,
        status: only.status,
        type: null,
        createdOn: null,
        locality: null,
        sicCodes: [],
      };
      await this.link(profile, { companyId, matchedBy: 'search', record: null });
    }
    await execute(
      this.db,
      `INSERT INTO companies_house_searches (company_id, company_number) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET company_number = $2, searched_at = now()`,
      [companyId, number],
    );
    return number;
  }

  /** A number Companies House does not know (404): none, checked now. */
  async unknown(number: string): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO companies_house_companies (company_number, matched_by) VALUES ($1, 'none')
       ON CONFLICT (company_number) DO UPDATE SET checked_at = now()`,
      [number],
    );
  }
}
