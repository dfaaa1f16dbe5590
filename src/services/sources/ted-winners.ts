import type { DataSource } from 'typeorm';
import { nameKeyOf } from '../../catalogue/identifiers';
import type { CompanyRecordInput } from '../../providers/data/records';
import type { TedWinner } from '../../providers/sources/ted/search';
import { rows } from '../../db/sql';

/** How a TED winner was found to be a company. */
export type WinnerMatch = 'only-company-of-that-name' | 'name-and-country' | 'watched-name';

export type WinnerCompany =
  | { companyId: string; matchedBy: WinnerMatch; record: CompanyRecordInput | null }
  | { dropped: 'no-company-of-that-name' | 'several-companies-of-that-name' };

interface Candidate {
  id: string;
  hq_country_code: string | null;
}

/**
 * Which company a winner of a contract award notice is (docs/decisions/sources.md, "TED
 * winners"): TED names a winner by its organisation name and, at best, its country; it has no
 * domain or network URL to match on.
 *  1. the stored companies of the winner's name key (as ingestion keys names) whose country
 *     does not differ from the winner's: the one, when there is one; when there are several,
 *     the one whose country is the winner's, when exactly one is; else none (never guessed);
 *  2. with no stored company of that name, a company is created only when an active account
 *     watchlist that has public tenders on watches that name (an entry given by name alone):
 *     `ted-<name>[-<country>]`, which that entry then matches;
 *  3. else the winner is dropped (counted as `dropped`).
 */
export class TedWinners {
  constructor(private readonly db: DataSource) {}

  async resolve(winner: TedWinner): Promise<WinnerCompany> {
    const key = nameKeyOf(winner.name);
    const candidates = await rows<Candidate>(
      this.db,
      `SELECT id, hq_country_code FROM companies WHERE name_key = $1 ORDER BY id`,
      [key],
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
    if (candidates.length > 0 || !(await this.watchedByName(key))) return { dropped: 'no-company-of-that-name' };
    const id = `ted-${slug(winner.name)}${winner.country ? `-${winner.country.toLowerCase()}` : ''}`.slice(0, 200);
    return {
      companyId: id,
      matchedBy: 'watched-name',
      record: { kind: 'company', id, name: winner.name, hqCountryCode: winner.country },
    };
  }

  /** Whether an active account watchlist with public tenders on watches a company by this name alone. */
  private async watchedByName(nameKey: string): Promise<boolean> {
    const found = await rows<{ id: string }>(
      this.db,
      `SELECT w.id FROM watched_companies w JOIN signals s ON s.id = w.signal_id
       WHERE w.kind = 'company' AND w.name_key = $1 AND w.domain IS NULL AND w.linkedin_url IS NULL
         AND s.status = 'active' AND s.deleted_at IS NULL AND s.signal_type_id = 'account_watchlist'
         AND coalesce((s.config->'sources'->'public_tenders'->>'enabled')::boolean, true)
       LIMIT 1`,
      [nameKey],
    );
    return found.length > 0;
  }
}

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'company';
