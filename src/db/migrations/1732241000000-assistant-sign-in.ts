import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Assistants signing in to /mcp with OAuth: the authorization server's records (clients,
 * codes, tokens, sessions, interactions, grants; oidc-provider's models, stored as it hands
 * them over) and the grants a person gave an assistant, as the dashboard lists them.
 */
export class AssistantSignIn1732241000000 implements MigrationInterface {
  name = 'AssistantSignIn1732241000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_records (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        PRIMARY KEY (model, id)
      )`);
    await q.query(`CREATE INDEX oauth_records_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL`);
    await q.query(`CREATE INDEX oauth_records_uid ON oauth_records (model, uid) WHERE uid IS NOT NULL`);
    await q.query(`CREATE INDEX oauth_records_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL`);

    // One row per assistant a person let in; its id is the caller id for rate limits and
    // enrichment slots, as a key's id is.
    await q.query(`
      CREATE TABLE assistant_grants (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        oauth_grant_id text NOT NULL UNIQUE,
        client_id text NOT NULL,
        client_name text NOT NULL,
        permissions text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX assistant_grants_account ON assistant_grants (account_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE assistant_grants`);
    await q.query(`DROP TABLE oauth_records`);
  }
}
