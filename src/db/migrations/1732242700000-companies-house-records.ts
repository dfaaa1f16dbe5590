import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The companies-house source's job changes and deals (docs/sources/companies-house.md): the
 * resignations read from the officers stream and officer lists (recorded, never a lead), and
 * the PSC notifications of a new corporate owner waiting for their company to be matched.
 */
export class CompaniesHouseRecords1732242700000 implements MigrationInterface {
  name = 'CompaniesHouseRecords1732242700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE companies_house_resignations (
        appointment_id text PRIMARY KEY,
        company_number text NOT NULL,
        name text NOT NULL,
        officer_role text NOT NULL,
        appointed_on date,
        resigned_on date NOT NULL,
        read_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX companies_house_resignations_company ON companies_house_resignations (company_number)`);
    await q.query(`
      CREATE TABLE companies_house_controls (
        psc_id text PRIMARY KEY,
        company_number text NOT NULL,
        acquirer_number text,
        timepoint bigint NOT NULL,
        notice jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ingested', 'dropped')),
        read_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX companies_house_controls_pending ON companies_house_controls (company_number) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE companies_house_controls`);
    await q.query(`DROP TABLE companies_house_resignations`);
  }
}
