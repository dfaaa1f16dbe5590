import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Intent sources (docs/sources.md): each source's state and cursor, the job boards known per
 * company, the postings seen on them (the diff), each host's next allowed request (politeness
 * shared by every worker) and the validators of conditional requests.
 */
export class Sources1732241300000 implements MigrationInterface {
  name = 'Sources1732241300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sources (
        name text PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT true,
        state jsonb NOT NULL DEFAULT '{}',
        last_run_started_at timestamptz,
        last_run_finished_at timestamptz,
        last_error text,
        last_error_at timestamptz,
        records_ingested bigint NOT NULL DEFAULT 0,
        errors_count bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO sources (name) VALUES ('job-boards')`);
    await q.query(`
      CREATE TABLE company_job_boards (
        ats text NOT NULL,
        token text NOT NULL,
        company_id text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        last_error text,
        last_synced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (ats, token)
      )`);
    await q.query(`CREATE INDEX company_job_boards_company ON company_job_boards (company_id)`);
    await q.query(`
      CREATE TABLE job_postings_seen (
        ats text NOT NULL,
        token text NOT NULL,
        job_id text NOT NULL,
        event_id text NOT NULL,
        published_on date,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        PRIMARY KEY (ats, token, job_id)
      )`);
    await q.query(`
      CREATE TABLE source_hosts (
        host text PRIMARY KEY,
        next_allowed_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE source_http_validators (
        url text PRIMARY KEY,
        etag text,
        last_modified text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE source_http_validators`);
    await q.query(`DROP TABLE source_hosts`);
    await q.query(`DROP TABLE job_postings_seen`);
    await q.query(`DROP TABLE company_job_boards`);
    await q.query(`DROP TABLE sources`);
  }
}
