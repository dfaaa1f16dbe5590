import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sec-filings source (docs/sources/sec-filings.md): the filings it has listed (Forms 3,
 * 8-K, tender offers and business combinations) and what became of each, and the daily indexes
 * a backfill asked for.
 */
export class SecFilings1732242711000 implements MigrationInterface {
  name = 'SecFilings1732242711000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('sec-filings') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE sec_filings (
        accession text PRIMARY KEY,
        cik text NOT NULL,
        form text NOT NULL,
        filed_on date NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ingested', 'skipped', 'failed')),
        items text[],
        events text[],
        problem text,
        listed_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz
      )`);
    await q.query(`CREATE INDEX sec_filings_pending ON sec_filings (accession) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE sec_filings_index_days (
        day date PRIMARY KEY,
        requested_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sec_filings_index_days`);
    await q.query(`DROP TABLE sec_filings`);
    await q.query(`DELETE FROM sources WHERE name = 'sec-filings'`);
  }
}
