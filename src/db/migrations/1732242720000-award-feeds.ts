import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The UK and US tender sources (find-a-tender, contracts-finder, usaspending;
 * src/sources/kit/award-feed.ts): per source, how far its awards are read through, the window
 * under way with its next page (a run killed mid-way goes on there), and what the pages read so
 * far ingested and dropped (reported once the item returns).
 */
export class AwardFeeds1732242720000 implements MigrationInterface {
  name = 'AwardFeeds1732242720000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sources (name) VALUES ('find-a-tender'), ('contracts-finder'), ('usaspending') ON CONFLICT (name) DO NOTHING`,
    );
    await q.query(`
      CREATE TABLE award_feeds (
        name text PRIMARY KEY,
        read_through timestamptz NOT NULL,
        window_from timestamptz,
        window_to timestamptz,
        next_page text,
        read_at timestamptz,
        last_error text,
        unreported_records integer NOT NULL DEFAULT 0,
        unreported_dropped integer NOT NULL DEFAULT 0
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE award_feeds`);
    await q.query(`DELETE FROM sources WHERE name IN ('find-a-tender', 'contracts-finder', 'usaspending')`);
  }
}
