import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exclusions from the customer's CRM: the contact emails and company domains each CRM
 * connection holds, synced incrementally into `crm_records` (normalised like suppressions, so
 * the evaluation compares by equality), the sync's state per connection in `crm_syncs`, and a
 * signal's choice of connection and what to exclude in `signals.crm_exclusions`.
 */
export class CrmExclusions1732242100000 implements MigrationInterface {
  name = 'CrmExclusions1732242100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE crm_records (
        connection_id uuid NOT NULL REFERENCES crm_connections(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('email', 'domain')),
        value text NOT NULL,
        vendor_id text NOT NULL,
        modified_at timestamptz,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, kind, vendor_id, value)
      )`);
    await q.query(`CREATE INDEX crm_records_value ON crm_records (connection_id, kind, value)`);
    await q.query(`
      CREATE TABLE crm_syncs (
        connection_id uuid PRIMARY KEY REFERENCES crm_connections(id) ON DELETE CASCADE,
        cursors jsonb NOT NULL DEFAULT '{}',
        full_sync_started_at timestamptz,
        last_full_sync_at timestamptz,
        last_run_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE signals ADD COLUMN crm_exclusions jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signals DROP COLUMN crm_exclusions`);
    await q.query(`DROP TABLE crm_syncs`);
    await q.query(`DROP TABLE crm_records`);
  }
}
