import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries of leads to their routes and every attempt made. A delivery's id is the stable
 * `X-Webhook-Id` receivers deduplicate on, so it is created once per (lead, route) and reused by
 * every retry; test and replay sends are their own deliveries with new ids (contract §6).
 */
export class Deliveries1732240300000 implements MigrationInterface {
  name = 'Deliveries1732240300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY,
        -- Null for a test send, which carries a sample lead that is never stored.
        lead_id uuid REFERENCES leads(id) ON DELETE CASCADE,
        signal_id uuid NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        route text NOT NULL,
        target text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('lead', 'test', 'replay')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A lead goes to each route once, however often its workflow is retried; replays are extra.
    await q.query(`CREATE UNIQUE INDEX deliveries_lead_route ON deliveries (lead_id, route, kind) WHERE kind = 'lead'`);
    await q.query(`CREATE INDEX deliveries_signal_created ON deliveries (signal_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX deliveries_signal_pending ON deliveries (signal_id) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        status_code integer,
        duration_ms integer NOT NULL,
        error text
      )`);
    await q.query(`CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS delivery_attempts`);
    await q.query(`DROP TABLE IF EXISTS deliveries`);
  }
}
