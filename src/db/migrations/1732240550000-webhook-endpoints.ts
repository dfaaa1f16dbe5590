import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the service has learnt about each webhook endpoint's capacity (contract §6: a 429
 * "lowers that endpoint's send rate"). One row per URL origin, made at its first 429; every
 * worker reads it, so the slower pace holds across workers and restarts.
 */
export class WebhookEndpoints1732240550000 implements MigrationInterface {
  name = 'WebhookEndpoints1732240550000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        -- scheme://host:port of the webhook URL: paths of one server share its capacity.
        origin text PRIMARY KEY,
        -- Nothing is sent before this (the receiver's Retry-After).
        throttled_until timestamptz,
        -- Least spacing between two sends; doubles on a 429, shrinks on each success.
        min_interval_ms integer NOT NULL DEFAULT 0 CHECK (min_interval_ms >= 0),
        -- The earliest time the next send may start: claimed send by send.
        next_send_at timestamptz,
        throttle_count integer NOT NULL DEFAULT 0,
        last_throttled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
  }
}
