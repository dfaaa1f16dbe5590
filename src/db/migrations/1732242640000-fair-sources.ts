import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair sources (docs/decisions/sources.md): the attempts of a source's items that started and
 * did not finish (an item lost to a worker crash twice is parked), and the company-profiles
 * run's order of turns across the accounts that watch the companies.
 */
export class FairSources1732242640000 implements MigrationInterface {
  name = 'FairSources1732242640000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE source_item_attempts (
        source text NOT NULL,
        item text NOT NULL,
        unfinished int NOT NULL DEFAULT 0,
        started_at timestamptz[] NOT NULL DEFAULT '{}',
        parked_at timestamptz,
        parked_reason text,
        PRIMARY KEY (source, item)
      )`);
    await q.query(`
      CREATE TABLE company_profile_turns (
        position int PRIMARY KEY,
        company_id text NOT NULL UNIQUE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS company_profile_turns`);
    await q.query(`DROP TABLE IF EXISTS source_item_attempts`);
  }
}
