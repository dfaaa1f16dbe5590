import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets a job-changes evaluation start from the people of the signal's personas instead of
 * walking every job change of the age window in time order until enough of them pass the
 * filters. Over 1,000,000 people and events: a signal with persona, size and country filters
 * went from ~420 ms to ~150 ms per evaluation, and one whose personas nobody has from ~40 ms
 * to ~2 ms (docs/performance.md). `events (person_id)` also serves the foreign key from events
 * to people, which had no index. Built concurrently: the tables may already be large.
 */
export class EvaluationIndexes1732240600000 implements MigrationInterface {
  name = 'EvaluationIndexes1732240600000';
  // CREATE INDEX CONCURRENTLY cannot run inside a transaction.
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS people_persona ON people (persona)`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS events_person ON events (person_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS events_person`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS people_persona`);
  }
}
