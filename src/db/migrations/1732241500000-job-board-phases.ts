import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each job board's next poll (docs/decisions/sources.md, "spread schedule"): a run polls the
 * boards that are due. Boards known before are due at once and take their phase after that poll.
 */
export class JobBoardPhases1732241500000 implements MigrationInterface {
  name = 'JobBoardPhases1732241500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_job_boards ADD COLUMN next_poll_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX company_job_boards_due ON company_job_boards (next_poll_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX company_job_boards_due`);
    await q.query(`ALTER TABLE company_job_boards DROP COLUMN next_poll_at`);
  }
}
