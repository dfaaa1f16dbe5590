import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The people who sign in to the dashboard ("members" of an account: `people` already holds the
 * data records of job changers), their server-side sessions and the invite links owners hand
 * out. Session and invite tokens are stored as SHA-256 digests only, like API keys. API keys
 * gain the time of their last use, shown in the dashboard.
 */
export class MembersAndSessions1732240700000 implements MigrationInterface {
  name = 'MembersAndSessions1732240700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE members (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email text NOT NULL,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        password_changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One person per email across the service: sign-in names no account.
    await q.query(`CREATE UNIQUE INDEX members_email ON members (lower(email))`);
    await q.query(`CREATE INDEX members_account ON members (account_id)`);
    await q.query(`
      CREATE TABLE member_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX member_sessions_member ON member_sessions (member_id)`);
    await q.query(`
      CREATE TABLE member_invites (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        role text NOT NULL CHECK (role IN ('owner', 'member')),
        created_by uuid REFERENCES members(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES members(id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX member_invites_account ON member_invites (account_id)`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN IF EXISTS last_used_at`);
    for (const table of ['member_invites', 'member_sessions', 'members'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
