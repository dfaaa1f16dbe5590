import type { DataSource } from 'typeorm';
import { nameKeyOf } from '../../catalogue/identifiers';
import { changed, execute, rows } from '../../db/sql';
import type { Ingestion } from '../../services/ingestion/ingestion';

/**
 * Claims are not facts (docs/decisions/claims.md). A watchlist entry naming a domain is its
 * account's claim: a domain no stored company has enters the store as a `claimed` company,
 * named by its domain (never by the claim), and `company_claims` records who claimed it under
 * which name. A trusted record of the same domain (a provider, registry or filing, the
 * operator's ingest) corroborates it: it becomes `trusted` under that record's name.
 */

/** A claimed company's id: the site the company-profiles source reads. */
export const claimedCompanyId = (domain: string) => `site:${domain}`;

/**
 * Every account whose live watchlist names a claimed company's domain is one of its claimants
 * (the earliest entry's name); the migration of existing data runs the same statement.
 */
const RECORD_CLAIMS = `
  INSERT INTO company_claims (company_id, account_id, claimed_name, claimed_at)
  SELECT DISTINCT ON (c.id, g.account_id) c.id, g.account_id, w.name, w.added_at
  FROM companies c
  JOIN watched_companies w ON w.kind = 'company' AND w.domain = c.domain
  JOIN signals g ON g.id = w.signal_id AND g.deleted_at IS NULL
  WHERE c.provenance = 'claimed'
  ORDER BY c.id, g.account_id, w.added_at
  ON CONFLICT (company_id, account_id) DO NOTHING`;

/** A claimed company whose domain a trusted company has is that company's site: trusted, under the trusted record's name. */
const CORROBORATE = `
  UPDATE companies s SET provenance = 'trusted', name = t.name, name_key = t.name_key
  FROM companies claimed CROSS JOIN LATERAL (
    SELECT name, name_key FROM companies t
    WHERE t.domain = claimed.domain AND t.provenance = 'trusted' ORDER BY t.ingested_at, t.id LIMIT 1) t
  WHERE claimed.provenance = 'claimed' AND s.id = claimed.id`;

export interface CompanyClaim {
  accountId: string;
  claimedName: string | null;
  claimedAt: string;
}

export class CompanyClaims {
  constructor(
    private readonly db: DataSource,
    /** Hears the companies a corroboration made trusted: market-wide signals may now want their events. */
    private readonly ingestion?: Pick<Ingestion, 'announce'>,
  ) {}

  /**
   * Watched domains no stored company has enter the store as claimed companies named by their
   * domain; then what a trusted record corroborates becomes trusted and the claimants of the
   * others are recorded. Answers the companies added.
   */
  async adoptWatchedDomains(limit: number): Promise<number> {
    const watched = await rows<{ domain: string }>(
      this.db,
      `SELECT DISTINCT w.domain
       FROM watched_companies w JOIN signals g ON g.id = w.signal_id AND g.deleted_at IS NULL
       WHERE w.kind = 'company' AND w.domain IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.domain = w.domain)
       ORDER BY w.domain LIMIT $1`,
      [limit],
    );
    let added = 0;
    if (watched.length) {
      const inserted = await rows<{ id: string }>(
        this.db,
        `INSERT INTO companies (id, name, name_key, domain, provenance)
         SELECT r.id, r.domain, r.name_key, r.domain, 'claimed'
         FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, domain, name_key)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [
          watched.map((w) => claimedCompanyId(w.domain)),
          watched.map((w) => w.domain),
          watched.map((w) => nameKeyOf(w.domain)),
        ],
      );
      added = inserted.length;
    }
    const corroborated = await changed(this.db, CORROBORATE);
    if (corroborated.count > 0) this.ingestion?.announce([{ table: 'companies', inserted: false }]);
    await execute(this.db, RECORD_CLAIMS);
    return added;
  }

  /** The company's provenance and its claims, for the operator's view of its site. */
  async provenanceOf(companyId: string): Promise<{ provenance: 'trusted' | 'claimed'; claims: CompanyClaim[] }> {
    const company = await rows<{ provenance: 'trusted' | 'claimed' }>(
      this.db,
      `SELECT provenance FROM companies WHERE id = $1`,
      [companyId],
    );
    return { provenance: company[0]?.provenance ?? 'trusted', claims: await this.claimsOf(companyId) };
  }

  /** Who claimed a company (empty for a trusted one), earliest first. */
  async claimsOf(companyId: string): Promise<CompanyClaim[]> {
    const found = await rows<{ account_id: string; claimed_name: string | null; claimed_at: Date }>(
      this.db,
      `SELECT account_id, claimed_name, claimed_at FROM company_claims WHERE company_id = $1
       ORDER BY claimed_at, account_id`,
      [companyId],
    );
    return found.map((row) => ({
      accountId: row.account_id,
      claimedName: row.claimed_name,
      claimedAt: row.claimed_at.toISOString(),
    }));
  }
}
