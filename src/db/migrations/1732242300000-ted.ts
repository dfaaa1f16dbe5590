import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ted source (docs/sources/ted.md): the publication days of TED it reads, each with the next
 * page of its award notices to read (a run killed mid-way goes on from there), what the pages
 * read so far ingested and dropped (reported once the day's item returns) and when it was read
 * to the end.
 */
export class Ted1732242300000 implements MigrationInterface {
  name = 'Ted1732242300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('ted') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE ted_days (
        day date PRIMARY KEY,
        next_page integer NOT NULL DEFAULT 1,
        read_at timestamptz,
        last_error text,
        unreported_records integer NOT NULL DEFAULT 0,
        unreported_dropped integer NOT NULL DEFAULT 0,
        requested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ted_days_pending ON ted_days (day) WHERE read_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ted_days`);
    await q.query(`DELETE FROM sources WHERE name = 'ted'`);
  }
}
