import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Enrichment: the per-key slots of slow lookups, bulk contact jobs and phone lookups, plus the
 * indexes that let the built-in provider answer a contact by email or by name at a company.
 */
export class Enrichment1732240500000 implements MigrationInterface {
  name = 'Enrichment1732240500000';

  async up(q: QueryRunner): Promise<void> {
    // One row per slow lookup in flight, shared by every API process. Unlogged: a slot lives a
    // few seconds, so losing them all in a database crash only frees the keys' caps early,
    // and skipping the WAL keeps the hot insert/delete pair cheap. No foreign key to api_keys:
    // a revoked key's slots simply expire.
    await q.query(`
      CREATE UNLOGGED TABLE lookup_slots (
        slot_id uuid PRIMARY KEY,
        key_id uuid NOT NULL,
        acquired_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX lookup_slots_key ON lookup_slots (key_id, expires_at)`);

    // A bulk job keeps its input and its results keyed by input index ("0", "1", ...), so a
    // retried slice overwrites its own entries and `done` is recounted rather than added to.
    await q.query(`
      CREATE TABLE enrichment_jobs (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
        total integer NOT NULL,
        done integer NOT NULL DEFAULT 0,
        contacts jsonb NOT NULL,
        results jsonb NOT NULL DEFAULT '{}',
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX enrichment_jobs_account ON enrichment_jobs (account_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE phone_lookups (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_id uuid NOT NULL,
        contact jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
        phone text,
        error_code text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX phone_lookups_account ON phone_lookups (account_id, created_at DESC)`);

    // Contact lookups by email and by first + last name at a company domain.
    await q.query(`CREATE INDEX people_email_lower ON people (lower(email)) WHERE email IS NOT NULL`);
    await q.query(`CREATE INDEX people_company_name ON people (company_id, lower(first_name), lower(last_name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS people_company_name`);
    await q.query(`DROP INDEX IF EXISTS people_email_lower`);
    for (const table of ['phone_lookups', 'enrichment_jobs', 'lookup_slots'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
