import { MigrationInterface, QueryRunner } from 'typeorm';

export class Signals1732240100000 implements MigrationInterface {
  name = 'Signals1732240100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
        name text NOT NULL,
        signal_type_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'active', 'paused')),
        webhook_url text,
        config jsonb NOT NULL,
        destinations jsonb NOT NULL DEFAULT '{}',
        daily_lead_limit integer NOT NULL CHECK (daily_lead_limit BETWEEN 1 AND 999999),
        duplicate_handling text NOT NULL,
        leads_today integer NOT NULL DEFAULT 0,
        leads_day date,
        leads_total integer NOT NULL DEFAULT 0,
        last_lead_at timestamptz,
        credits_exhausted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX signals_account_created ON signals (account_id, created_at DESC) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX signals_active ON signals (status) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE watched_companies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        signal_id uuid NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
        kind text NOT NULL DEFAULT 'company' CHECK (kind IN ('company', 'person')),
        name text,
        domain text,
        linkedin_url text,
        name_key text,
        identity text NOT NULL,
        added_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (signal_id, identity)
      )`);
    await q.query(`CREATE INDEX watched_companies_domain ON watched_companies (domain) WHERE domain IS NOT NULL`);
    await q.query(
      `CREATE INDEX watched_companies_url ON watched_companies (linkedin_url) WHERE linkedin_url IS NOT NULL`,
    );
    await q.query(`CREATE INDEX watched_companies_name ON watched_companies (name_key) WHERE name_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS watched_companies`);
    await q.query(`DROP TABLE IF EXISTS signals`);
  }
}
