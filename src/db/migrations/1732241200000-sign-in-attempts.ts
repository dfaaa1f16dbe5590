import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attempt budgets of the dashboard's sign-in and sign-up: one row per budget (an email, a
 * client address), counted by one upsert so parallel attempts cannot read a stale count.
 */
export class SignInAttempts1732241200000 implements MigrationInterface {
  name = 'SignInAttempts1732241200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_in_attempts (
        budget text PRIMARY KEY,
        attempts integer NOT NULL,
        window_ends_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sign_in_attempts_window ON sign_in_attempts (window_ends_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_in_attempts`);
  }
}
