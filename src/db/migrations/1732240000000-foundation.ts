import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1732240000000 implements MigrationInterface {
  name = 'Foundation1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        credit_balance numeric(14,1) NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL DEFAULT '',
        key_hash text NOT NULL,
        key_prefix text NOT NULL,
        permissions text[] NOT NULL,
        webhook_secret_encrypted text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_account ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE credit_ledger (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        credits numeric(14,1) NOT NULL,
        operation text NOT NULL,
        signal_id uuid,
        lead_id uuid,
        idempotency_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX credit_ledger_idempotency ON credit_ledger (idempotency_key)`);
    await q.query(`CREATE INDEX credit_ledger_account_time ON credit_ledger (account_id, created_at)`);
    await q.query(`
      CREATE TABLE crm_connections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        provider text NOT NULL,
        access_token_encrypted text NOT NULL,
        refresh_token_encrypted text,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, provider)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['crm_connections', 'credit_ledger', 'api_keys', 'accounts']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
