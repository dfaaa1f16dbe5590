import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `news` source (docs/sources/news.md): each company's own feeds, its GDELT search window, the
 * articles already checked per company (kept or dropped, so none is fetched twice), and a
 * dropped count beside every source's records.
 */
export class News1732241600000 implements MigrationInterface {
  name = 'News1732241600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('news') ON CONFLICT (name) DO NOTHING`);
    await q.query(`ALTER TABLE sources ADD COLUMN records_dropped bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE company_feeds (
        company_id text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        url text NOT NULL,
        added_at timestamptz NOT NULL DEFAULT now(),
        last_synced_at timestamptz,
        last_error text,
        PRIMARY KEY (company_id, url)
      )`);
    await q.query(`
      CREATE TABLE news_searches (
        company_id text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        searched_until timestamptz NOT NULL,
        last_error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE news_articles_seen (
        company_id text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        url_key text NOT NULL,
        url text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('kept', 'not_about_company', 'no_kind', 'unreachable', 'disallowed')),
        event_id text,
        checked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, url_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE news_articles_seen`);
    await q.query(`DROP TABLE news_searches`);
    await q.query(`DROP TABLE company_feeds`);
    await q.query(`ALTER TABLE sources DROP COLUMN records_dropped`);
    await q.query(`DELETE FROM sources WHERE name = 'news'`);
  }
}
