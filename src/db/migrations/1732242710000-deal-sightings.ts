import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One deal, one event (docs/decisions/deals.md): every `mergers_acquisitions` record ingested,
 * and the event of the deal it belongs to (its own, when it was the deal's first record).
 */
export class DealSightings1732242710000 implements MigrationInterface {
  name = 'DealSightings1732242710000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deal_sightings (
        record_id text PRIMARY KEY,
        event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        company_id text NOT NULL,
        watchlist_role text NOT NULL DEFAULT '',
        deal_type text,
        counterparty_key text,
        counterparty text,
        seen_on date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX deal_sightings_company ON deal_sightings (company_id, watchlist_role, seen_on)`);
    await q.query(`CREATE INDEX deal_sightings_event ON deal_sightings (event_id)`);
    // Deals stored before: each its own first record.
    await q.query(`
      INSERT INTO deal_sightings (record_id, event_id, company_id, watchlist_role, deal_type, seen_on)
      SELECT id, id, company_id, coalesce(data->>'watchlist_role', ''), data->>'deal_type',
             coalesce(CASE WHEN data->>'announcement_date' ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN (data->>'announcement_date')::date END,
                      (occurred_at AT TIME ZONE 'UTC')::date)
      FROM events WHERE type = 'mergers_acquisitions'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deal_sightings`);
  }
}
