import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The store signals evaluate (companies, people, intent events from data providers) and the
 * leads they produce. Record ids are the providers' own, so ingestion is idempotent per record.
 */
export class LeadProduction1732240200000 implements MigrationInterface {
  name = 'LeadProduction1732240200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE companies (
        id text PRIMARY KEY,
        name text NOT NULL,
        name_key text NOT NULL,
        domain text,
        linkedin_url text,
        industry text,
        employee_count integer,
        size_band text,
        hq_country_code text,
        hq_city text,
        description text,
        company_type text,
        founded_year integer,
        tech_stack text[] NOT NULL DEFAULT '{}',
        ingested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX companies_domain ON companies (domain)`);
    await q.query(`CREATE INDEX companies_linkedin ON companies (linkedin_url)`);
    await q.query(`CREATE INDEX companies_name_key ON companies (name_key)`);
    await q.query(`
      CREATE TABLE people (
        id text PRIMARY KEY,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        title text NOT NULL DEFAULT '',
        persona text,
        company_id text REFERENCES companies(id),
        linkedin_url text,
        email text,
        phone text,
        location text,
        city text,
        region_code text,
        country_code text,
        started_on text,
        ingested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX people_company_persona ON people (company_id, persona)`);
    await q.query(`CREATE INDEX people_linkedin ON people (linkedin_url)`);
    await q.query(`
      CREATE TABLE events (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        company_id text NOT NULL REFERENCES companies(id),
        person_id text REFERENCES people(id),
        data jsonb NOT NULL DEFAULT '{}',
        ingested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX events_type_time ON events (type, occurred_at)`);
    await q.query(`CREATE INDEX events_company_time ON events (company_id, occurred_at)`);
    await q.query(`
      CREATE TABLE leads (
        id uuid PRIMARY KEY,
        signal_id uuid NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        event_id text NOT NULL REFERENCES events(id),
        subject_key text NOT NULL,
        payload json NOT NULL,
        email_status text NOT NULL DEFAULT 'not_requested',
        handed_off_at timestamptz,
        created_at timestamptz NOT NULL,
        UNIQUE (signal_id, event_id, subject_key)
      )`);
    await q.query(`CREATE INDEX leads_signal_created ON leads (signal_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX leads_signal_subject ON leads (signal_id, subject_key, created_at DESC)`);
    await q.query(`CREATE INDEX leads_not_handed_off ON leads (signal_id) WHERE handed_off_at IS NULL`);
    await q.query(`ALTER TABLE signals ADD COLUMN first_evaluated_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signals DROP COLUMN first_evaluated_at`);
    for (const table of ['leads', 'events', 'people', 'companies']) await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
