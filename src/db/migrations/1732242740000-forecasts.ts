import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The forecasts source (docs/sources/forecasts.md, docs/decisions/forecasts.md): each forecast
 * made (its event, rule and version, confidence, horizon and evidence), each rule's horizon of
 * changes read, and the companies a rule's current pass has still to look at.
 */
export class Forecasts1732242740000 implements MigrationInterface {
  name = 'Forecasts1732242740000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO sources (name) VALUES ('forecasts') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE forecasts (
        event_id text PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
        company_id text NOT NULL,
        rule text NOT NULL,
        rule_version integer NOT NULL,
        event_type text NOT NULL,
        confidence numeric(3,2) NOT NULL CHECK (confidence > 0 AND confidence <= 1),
        horizon_days integer NOT NULL,
        as_of timestamptz NOT NULL,
        summary text NOT NULL,
        evidence jsonb NOT NULL,
        made_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One forecast per company per rule per 90 days is asked of this index.
    await q.query(`CREATE INDEX forecasts_company_rule ON forecasts (company_id, rule, as_of DESC)`);
    await q.query(`
      CREATE TABLE forecast_rule_runs (
        rule text PRIMARY KEY,
        horizon_xid xid8,
        as_of timestamptz,
        pass_horizon_xid xid8,
        pass_as_of timestamptz,
        last_made integer NOT NULL DEFAULT 0,
        last_looked_at integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE forecast_pending (
        rule text NOT NULL,
        company_id text NOT NULL,
        PRIMARY KEY (rule, company_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE forecast_pending`);
    await q.query(`DROP TABLE forecast_rule_runs`);
    await q.query(`DROP TABLE forecasts`);
    await q.query(`DELETE FROM sources WHERE name = 'forecasts'`);
  }
}
