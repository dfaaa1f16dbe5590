import type { DataSource } from 'typeorm';
import { nameKeyOf, registrableDomain } from '../../catalogue/identifiers';
import type { CompanyRecordInput } from '../../providers/data/records';
import { nameOnlyEntries, watchingSignals } from '../../signal-types/watched-companies';
import { rows } from '../../db/sql';
import { slug } from './record-names';

/**
 * A company a contract award names as its winner (supplier), as the notice gives it: a name,
 * at best a country (ISO 3166 alpha-2), a company register number and a website.
 */
export interface AwardWinner {
  name: string;
  country: string | null;
  /** A UK Companies House number (OCDS identifier scheme `GB-COH`), 8 characters. */
  companyNumber?: string | null;
  /** The winner's registrable domain, from the website the notice gives. */
  domain?: string | null;
}

/** How a winner was found to be a company. */
export type WinnerMatch =
  'company-number' | 'domain' | 'only-company-of-that-name' | 'name-and-country' | 'watched-domain' | 'watched-name';

export type WinnerCompany =
  | { companyId: string; matchedBy: WinnerMatch; record: CompanyRecordInput | null }
  | { dropped: 'no-company-of-that-name' | 'several-companies-of-that-name' };

interface Candidate {
  id: string;
  hq_country_code: string | null;
}

/** Legal endings one register writes and another leaves out ("ACME ROBOTICS LIMITED", "Acme Robotics"). */
const LEGAL_ENDINGS = [
  'limited',
  'ltd',
  'ltd.',
  'plc',
  'llp',
  'inc',
  'inc.',
  'llc',
  'l.l.c.',
  'corp',
  'corp.',
  'corporation',
  'co',
  'co.',
  'company',
  'gmbh',
  'ag',
];

/**
 * The name keys (as ingestion keys names) that mean the same company: the name as given, and
 * its base with and without each legal ending, with or without a comma before it.
 */
export function winnerNameKeys(name: string): string[] {
  const key = nameKeyOf(name);
  let base = key;
  for (const end of LEGAL_ENDINGS) {
    const match = new RegExp(`,?\\s${end.replace(/\./g, '\\.')}$`).exec(key);
    if (match && key.length - match[0].length >= 2) {
      base = key.slice(0, match.index).trim();
      break;
    }
  }
  return [...new Set([key, base, ...LEGAL_ENDINGS.flatMap((end) => [`${base} ${end}`, `${base}, ${end}`])])];
}

/** A name as a notice gives it, as shown: control characters out, spaces collapsed, at most 300 characters. */
export function cleanName(name: string | null | undefined): string | null {
  if (!name) return null;
  const clean = name
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean ? clean.slice(0, 300) : null;
}

/** A website or domain text as a registrable domain, or null. */
export function winnerDomainOf(website: string | null | undefined): string | null {
  if (!website) return null;
  const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(website.trim())
    ? (() => {
        try {
          return new URL(website.trim()).hostname;
        } catch {
          return '';
        }
      })()
    : website.trim().split(/[/?#]/)[0]!;
  return registrableDomain(host) ?? null;
}

/**
 * Which company the winner of a contract award is (docs/decisions/award-winners.md), the same
 * rules for every tender source (ted, find-a-tender, contracts-finder, usaspending):
 *  1. by its Companies House number, when the notice carries one and the store has linked that
 *     number to a company (the companies-house source's `companies_house_companies`);
 *  2. by its domain, when the notice gives a website and exactly one stored company has it;
 *  3. by name: the stored companies of one of the winner's name keys (with or without its legal
 *     ending) whose country does not differ from the winner's: the one, when there is one; when
 *     there are several, the one whose country is the winner's, when exactly one is; else none
 *     (never guessed);
 *  4. with no stored company of that domain or name, a company is created only when an active
 *     account watchlist that has public tenders on watches that domain, or that name (an entry
 *     given by name alone): `<prefix>-<name>[-<country>]`, which that entry then matches;
 *  5. else the winner is dropped (counted as `dropped`).
 */
export class AwardWinners {
  constructor(
    private readonly db: DataSource,
    /** The created companies' id prefix: the source's (`ted`, `fts`, ...). */
    private readonly idPrefix: string,
  ) {}

  async resolve(winner: AwardWinner): Promise<WinnerCompany> {
    if (winner.companyNumber) {
      const linked = await rows<{ company_id: string }>(
        this.db,
        `SELECT company_id FROM companies_house_companies WHERE company_number = $1 AND company_id IS NOT NULL`,
        [winner.companyNumber],
      );
      if (linked.length === 1) return { companyId: linked[0]!.company_id, matchedBy: 'company-number', record: null };
    }
    if (winner.domain) {
      const byDomain = await rows<{ id: string }>(this.db, `SELECT id FROM companies WHERE domain = $1 LIMIT 2`, [
        winner.domain,
      ]);
      if (byDomain.length === 1) return { companyId: byDomain[0]!.id, matchedBy: 'domain', record: null };
    }
    const keys = winnerNameKeys(winner.name);
    const candidates = await rows<Candidate>(
      this.db,
      `SELECT id, hq_country_code FROM companies WHERE name_key = ANY($1::text[]) ORDER BY id`,
      [keys],
    );
    const agreeing = candidates.filter(
      (c) => !c.hq_country_code || !winner.country || c.hq_country_code === winner.country,
    );
    if (agreeing.length === 1) {
      const only = agreeing[0]!;
      const sameCountry = winner.country !== null && only.hq_country_code === winner.country;
      return {
        companyId: only.id,
        matchedBy: sameCountry ? 'name-and-country' : 'only-company-of-that-name',
        record: null,
      };
    }
    if (agreeing.length > 1) {
      const sameCountry = agreeing.filter((c) => winner.country !== null && c.hq_country_code === winner.country);
      if (sameCountry.length === 1)
        return { companyId: sameCountry[0]!.id, matchedBy: 'name-and-country', record: null };
      return { dropped: 'several-companies-of-that-name' };
    }
    if (candidates.length > 0) return { dropped: 'no-company-of-that-name' };
    if (winner.domain && (await this.watchedDomain(winner.domain))) {
      const id = `${this.idPrefix}-${slug(winner.domain)}`.slice(0, 200);
      return {
        companyId: id,
        matchedBy: 'watched-domain',
        record: { kind: 'company', id, name: winner.name, domain: winner.domain, hqCountryCode: winner.country },
      };
    }
    const watchedName = await this.watchedName(keys);
    if (watchedName === null) return { dropped: 'no-company-of-that-name' };
    const id =
      `${this.idPrefix}-${slug(winner.name) || 'company'}${winner.country ? `-${winner.country.toLowerCase()}` : ''}`.slice(
        0,
        200,
      );
    return {
      companyId: id,
      matchedBy: 'watched-name',
      // The entry's own spelling: registers write names in capitals and with legal endings the entry left out.
      record: { kind: 'company', id, name: watchedName, hqCountryCode: winner.country },
    };
  }

  /** The name an active account watchlist with public tenders on watches by one of these keys alone, if any. */
  private async watchedName(nameKeys: string[]): Promise<string | null> {
    const found = await rows<{ name: string }>(
      this.db,
      `SELECT w.name FROM (${nameOnlyEntries({ wanting: 'public_tenders', activeOnly: true })}) w
       WHERE w.name IS NOT NULL AND w.name_key = ANY($1::text[]) ORDER BY w.added_at LIMIT 1`,
      [nameKeys],
    );
    return found[0]?.name ?? null;
  }

  /** Whether an active account watchlist with public tenders on watches a company by this domain. */
  private async watchedDomain(domain: string): Promise<boolean> {
    const found = await rows<{ id: string }>(
      this.db,
      `SELECT w.id FROM watched_companies w JOIN (${watchingSignals({ wanting: 'public_tenders', activeOnly: true })}) g
         ON g.id = w.signal_id
       WHERE w.kind = 'company' AND w.domain = $1 LIMIT 1`,
      [domain],
    );
    return found.length > 0;
  }
}
