import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The people-data-labs source (docs/sources/people-data-labs.md): which stored person each vendor id is and what
 * the store last knew of their job, each release compared (with what it cost), and the people it
 * listed as changed. Tables are keyed by source, so a second people-data vendor shares them.
 */
export class PeopleDataLabs1732242400000 implements MigrationInterface {
  name = 'PeopleDataLabs1732242400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('people-data-labs') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE people_data_people (
        source text NOT NULL,
        vendor_id text NOT NULL,
        person_id text REFERENCES people (id) ON DELETE SET NULL,
        company_name text,
        title text,
        opted_out_at timestamptz,
        tracked_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source, vendor_id)
      )`);
    await q.query(`CREATE INDEX people_data_people_person ON people_data_people (person_id)`);
    await q.query(`
      CREATE TABLE people_data_releases (
        source text NOT NULL,
        release text NOT NULL,
        origin text NOT NULL,
        listed_at timestamptz,
        change_calls int NOT NULL DEFAULT 0,
        lookups int NOT NULL DEFAULT 0,
        credits int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source, release)
      )`);
    await q.query(`
      CREATE TABLE people_data_changes (
        source text NOT NULL,
        release text NOT NULL,
        vendor_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('updated', 'opted_out')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
        outcome text,
        listed_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz,
        PRIMARY KEY (source, release, vendor_id)
      )`);
    await q.query(
      `CREATE INDEX people_data_changes_pending ON people_data_changes (source, vendor_id) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE people_data_changes`);
    await q.query(`DROP TABLE people_data_releases`);
    await q.query(`DROP TABLE people_data_people`);
    await q.query(`DELETE FROM sources WHERE name = 'people-data-labs'`);
  }
}
