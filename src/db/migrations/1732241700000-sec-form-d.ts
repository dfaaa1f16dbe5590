import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sec-form-d source (docs/sources/sec-form-d.md): the Form D filings it has listed and what became
 * of each, the daily indexes a backfill asked for, and which company each SEC issuer (CIK) is.
 */
export class SecFormD1732241700000 implements MigrationInterface {
  name = 'SecFormD1732241700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('sec-form-d') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE sec_issuers (
        cik text PRIMARY KEY,
        company_id text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        matched_by text NOT NULL,
        state_or_country text,
        city text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sec_issuers_company ON sec_issuers (company_id)`);
    await q.query(`
      CREATE TABLE sec_form_d_filings (
        accession text PRIMARY KEY,
        cik text NOT NULL,
        form text NOT NULL,
        filed_on date NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ingested', 'skipped', 'failed')),
        original_accession text,
        company_id text,
        problem text,
        listed_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz
      )`);
    await q.query(`CREATE INDEX sec_form_d_filings_pending ON sec_form_d_filings (accession) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX sec_form_d_filings_original ON sec_form_d_filings (original_accession)`);
    await q.query(`
      CREATE TABLE sec_form_d_index_days (
        day date PRIMARY KEY,
        requested_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sec_form_d_index_days`);
    await q.query(`DROP TABLE sec_form_d_filings`);
    await q.query(`DROP TABLE sec_issuers`);
    await q.query(`DELETE FROM sources WHERE name = 'sec-form-d'`);
  }
}
