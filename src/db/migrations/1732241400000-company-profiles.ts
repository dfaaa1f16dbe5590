import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company-profiles source (docs/sources/company-profiles.md): what each company's site showed at its last
 * read, robots.txt per site origin, and who set each job board (the operator's is never
 * replaced by one the source discovers).
 */
export class CompanyProfiles1732241400000 implements MigrationInterface {
  name = 'CompanyProfiles1732241400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('company-profiles') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE company_sites (
        company_id text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        home_url text,
        careers_url text,
        fetched_at timestamptz NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('profiled', 'problem', 'disallowed')),
        profiled_at timestamptz,
        homepage_title text,
        meta_description text,
        description text,
        tech_stack text[] NOT NULL DEFAULT '{}',
        feed_urls text[] NOT NULL DEFAULT '{}',
        ats text,
        board_token text,
        pages jsonb NOT NULL DEFAULT '{}',
        last_problem text
      )`);
    await q.query(`CREATE INDEX company_sites_fetched ON company_sites (fetched_at)`);
    await q.query(`
      CREATE TABLE site_robots (
        origin text PRIMARY KEY,
        body text NOT NULL,
        fetched_at timestamptz NOT NULL
      )`);
    await q.query(
      `ALTER TABLE company_job_boards ADD COLUMN found_by text NOT NULL DEFAULT 'operator'
         CHECK (found_by IN ('operator', 'company-profiles'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_job_boards DROP COLUMN found_by`);
    await q.query(`DROP TABLE site_robots`);
    await q.query(`DROP TABLE company_sites`);
    await q.query(`DELETE FROM sources WHERE name = 'company-profiles'`);
  }
}
