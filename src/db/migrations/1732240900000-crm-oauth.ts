import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CRMs and Google Sheets connected by OAuth in the dashboard: several connections of one tool
 * per account (the row id is the destination's `integrationId`), each with its vendor API
 * address from the token answer (Salesforce `instance_url`, Pipedrive `api_domain`) and a
 * status that turns `broken` when the vendor refuses our refresh token. The authorizations
 * under way keep their PKCE verifier until the vendor sends the person back.
 */
export class CrmOAuth1732240900000 implements MigrationInterface {
  name = 'CrmOAuth1732240900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE crm_connections DROP CONSTRAINT crm_connections_account_id_provider_key`);
    await q.query(`
      ALTER TABLE crm_connections
        ADD COLUMN label text NOT NULL DEFAULT '',
        ADD COLUMN api_base_url text,
        ADD COLUMN status text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'broken')),
        ADD COLUMN broken_reason text,
        ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX crm_connections_account ON crm_connections (account_id, provider, created_at)`);
    await q.query(`
      ALTER TABLE deliveries ADD COLUMN crm_connection_id uuid REFERENCES crm_connections(id) ON DELETE SET NULL`);
    await q.query(`
      CREATE TABLE crm_authorizations (
        state text PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        provider text NOT NULL,
        code_verifier_encrypted text NOT NULL,
        reconnect_id uuid REFERENCES crm_connections(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Which sheets already have our header row, so that it is written once.
    await q.query(`
      CREATE TABLE sheet_headers (
        crm_connection_id uuid NOT NULL REFERENCES crm_connections(id) ON DELETE CASCADE,
        spreadsheet_id text NOT NULL,
        sheet_name text NOT NULL,
        PRIMARY KEY (crm_connection_id, spreadsheet_id, sheet_name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sheet_headers`);
    await q.query(`DROP TABLE crm_authorizations`);
    await q.query(`ALTER TABLE deliveries DROP COLUMN crm_connection_id`);
    await q.query(`DROP INDEX crm_connections_account`);
    await q.query(`
      ALTER TABLE crm_connections DROP COLUMN label, DROP COLUMN api_base_url, DROP COLUMN status,
        DROP COLUMN broken_reason, DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE crm_connections ADD UNIQUE (account_id, provider)`);
  }
}
