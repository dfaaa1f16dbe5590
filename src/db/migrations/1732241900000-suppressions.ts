import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's suppression list: emails, domains and company pages that never become leads,
 * account-wide or for one signal. Values are stored normalised, so the evaluation compares
 * them with the store's own normalised columns by equality.
 */
export class Suppressions1732241900000 implements MigrationInterface {
  name = 'Suppressions1732241900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE suppressions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        signal_id uuid REFERENCES signals(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('email', 'domain', 'company_url')),
        value text NOT NULL,
        note text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One entry per value and scope; the all-zero uuid stands for "account-wide" in the key.
    await q.query(`
      CREATE UNIQUE INDEX suppressions_entry ON suppressions
        (account_id, kind, value, coalesce(signal_id, '00000000-0000-0000-0000-000000000000'::uuid))`);
    await q.query(`CREATE INDEX suppressions_listing ON suppressions (account_id, created_at DESC, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE suppressions`);
  }
}
