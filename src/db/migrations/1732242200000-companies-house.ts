import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The companies-house source (docs/sources/companies-house.md): where its officers stream stopped (timepoint),
 * the appointments read from it waiting for their company to be matched, and which stored
 * company each Companies House company number is (or that it is none the store knows), and
 * when each watched company was last searched for by name.
 */
export class CompaniesHouse1732242200000 implements MigrationInterface {
  name = 'CompaniesHouse1732242200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('companies-house') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE companies_house_streams (
        stream text PRIMARY KEY,
        timepoint bigint,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE companies_house_companies (
        company_number text PRIMARY KEY,
        company_id text REFERENCES companies (id) ON DELETE CASCADE,
        registered_name text,
        matched_by text NOT NULL,
        checked_at timestamptz NOT NULL DEFAULT now(),
        filings_read_at timestamptz
      )`);
    await q.query(`CREATE INDEX companies_house_companies_company ON companies_house_companies (company_id)`);
    await q.query(`
      CREATE TABLE companies_house_searches (
        company_id text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        company_number text,
        searched_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE companies_house_appointments (
        appointment_id text PRIMARY KEY,
        company_number text NOT NULL,
        timepoint bigint NOT NULL,
        appointment jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ingested', 'dropped')),
        read_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX companies_house_appointments_pending ON companies_house_appointments (company_number) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE companies_house_appointments`);
    await q.query(`DROP TABLE companies_house_searches`);
    await q.query(`DROP TABLE companies_house_companies`);
    await q.query(`DROP TABLE companies_house_streams`);
    await q.query(`DELETE FROM sources WHERE name = 'companies-house'`);
  }
}
