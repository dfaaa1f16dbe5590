import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-ups waiting for their mailed link (issue 31): what was submitted, with the password as
 * Argon2id like a member's and the link's token as SHA-256 only, like invites. A sign-up with an
 * email that already has a sign-in is recorded too (no password, no usable link), so both
 * answers do the same work and the operator can see the attempts.
 */
export class SignUpRequests1732242690000 implements MigrationInterface {
  name = 'SignUpRequests1732242690000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_up_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        email_had_sign_in boolean NOT NULL,
        password_hash text,
        account_name text,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        member_id uuid REFERENCES members(id) ON DELETE SET NULL,
        CHECK (email_had_sign_in OR password_hash IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX sign_up_requests_expires ON sign_up_requests (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS sign_up_requests`);
  }
}
