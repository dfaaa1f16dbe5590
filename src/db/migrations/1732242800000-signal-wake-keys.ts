import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wake on arrival (issue 36, docs/decisions/wake-on-arrival.md): each signal's wake keys, written
 * by the signals service from its type and config, and a GIN index so a batch of arrived keys
 * finds the signals it may concern (`wake_keys && $1`). NULL wakes on every arrival, so the
 * existing signals keep NULL until their next config change: over-selecting, never missing.
 */
export class SignalWakeKeys1732242800000 implements MigrationInterface {
  name = 'SignalWakeKeys1732242800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signals ADD COLUMN wake_keys text[]`);
    await q.query(`CREATE INDEX signals_wake_keys ON signals USING gin (wake_keys)`);
    // The signals that wake on everything, found without reading the others.
    await q.query(
      `CREATE INDEX signals_wake_on_everything ON signals (id) WHERE wake_keys IS NULL AND deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX signals_wake_on_everything`);
    await q.query(`DROP INDEX signals_wake_keys`);
    await q.query(`ALTER TABLE signals DROP COLUMN wake_keys`);
  }
}
