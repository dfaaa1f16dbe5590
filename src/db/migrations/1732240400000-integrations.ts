import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email-sequencing tools connected with the customer's own API key. An account may connect
 * several accounts of one tool (an agency runs one lemlist per client), so the row id is the
 * `integrationId` destinations name. The key is sealed (AES-256-GCM); its fingerprint sits
 * beside it so that connecting the same key again updates the label instead of adding a row,
 * without ever opening the stored keys to compare.
 */
export class Integrations1732240400000 implements MigrationInterface {
  name = 'Integrations1732240400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integrations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('lemlist', 'instantly', 'smartlead')),
        label text NOT NULL,
        api_key_encrypted text NOT NULL,
        -- HMAC-SHA256 of the key (hex), keyed from SECRETS_KEY: equal keys have equal fingerprints.
        api_key_sha256 text NOT NULL,
        connected_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, provider, api_key_sha256)
      )`);
    await q.query(`CREATE INDEX integrations_account_provider ON integrations (account_id, provider, connected_at)`);
    // Which connected account a sequencer delivery pushes through, fixed when the delivery is
    // created so that connecting a second account later never moves a lead already on its way.
    await q.query(
      `ALTER TABLE deliveries ADD COLUMN integration_id uuid REFERENCES integrations(id) ON DELETE SET NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE deliveries DROP COLUMN IF EXISTS integration_id`);
    await q.query(`DROP TABLE IF EXISTS integrations`);
  }
}
