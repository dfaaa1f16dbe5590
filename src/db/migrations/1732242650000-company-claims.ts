import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims are not facts (docs/decisions/claims.md): a company carries its provenance, `trusted`
 * (a provider, registry, filing or the operator's ingest) or `claimed` (known only through
 * watchlist entries), and `company_claims` records which accounts claimed it under which name.
 * Evaluation reads `provenance`, so the change trigger watches it too.
 */

/** The companies columns the evaluation reads, as 1732242500000 listed them, plus `provenance`. */
const WATCHED_BEFORE = [
  'name',
  'name_key',
  'domain',
  'linkedin_url',
  'industry',
  'size_band',
  'hq_country_code',
  'hq_city',
];
const WATCHED_NOW = [...WATCHED_BEFORE, 'provenance'];

const companiesTrigger = (columns: string[]) => `CREATE TRIGGER companies_evaluation_change BEFORE UPDATE ON companies
  FOR EACH ROW WHEN (${columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
  EXECUTE FUNCTION mark_evaluation_change()`;

export class CompanyClaims1732242650000 implements MigrationInterface {
  name = 'CompanyClaims1732242650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies ADD COLUMN provenance text NOT NULL DEFAULT 'trusted'
      CHECK (provenance IN ('trusted', 'claimed'))`);
    await q.query(`CREATE INDEX companies_claimed ON companies (domain) WHERE provenance = 'claimed'`);
    await q.query(`
      CREATE TABLE company_claims (
        company_id text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        claimed_name text,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, account_id)
      )`);
    await q.query(`CREATE INDEX company_claims_account ON company_claims (account_id)`);
    await q.query(`DROP TRIGGER companies_evaluation_change ON companies`);
    await q.query(companiesTrigger(WATCHED_NOW));

    // Existing data: every company the watchlists brought in (`site:<domain>`) was named and
    // described by a claim; it becomes claimed-only under its domain, its claimants recorded,
    // unless a trusted record of the same domain already corroborates it.
    await q.query(`UPDATE companies SET provenance = 'claimed', name = domain, name_key = lower(domain)
      WHERE starts_with(id, 'site:') AND domain IS NOT NULL`);
    // As CompanyClaims corroborates and records them at each company-profiles run (company-claims.ts).
    await q.query(`
      UPDATE companies s SET provenance = 'trusted', name = t.name, name_key = t.name_key
      FROM companies claimed CROSS JOIN LATERAL (
        SELECT name, name_key FROM companies t
        WHERE t.domain = claimed.domain AND t.provenance = 'trusted' ORDER BY t.ingested_at, t.id LIMIT 1) t
      WHERE claimed.provenance = 'claimed' AND s.id = claimed.id`);
    await q.query(`
      INSERT INTO company_claims (company_id, account_id, claimed_name, claimed_at)
      SELECT DISTINCT ON (c.id, g.account_id) c.id, g.account_id, w.name, w.added_at
      FROM companies c
      JOIN watched_companies w ON w.kind = 'company' AND w.domain = c.domain
      JOIN signals g ON g.id = w.signal_id AND g.deleted_at IS NULL
      WHERE c.provenance = 'claimed'
      ORDER BY c.id, g.account_id, w.added_at
      ON CONFLICT (company_id, account_id) DO NOTHING`);
  }

  /** The names claims gave are not restored: a claim was never the company's name. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER companies_evaluation_change ON companies`);
    await q.query(companiesTrigger(WATCHED_BEFORE));
    await q.query(`DROP TABLE company_claims`);
    await q.query(`DROP INDEX companies_claimed`);
    await q.query(`ALTER TABLE companies DROP COLUMN provenance`);
  }
}
