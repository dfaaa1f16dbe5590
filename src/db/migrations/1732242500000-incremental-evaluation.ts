import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incremental evaluation (docs/decisions/incremental-evaluation.md): every event, company and
 * person carries the id of the transaction that last changed what an evaluation reads of it
 * (`change_xid`); a signal keeps the snapshot horizon it has read changes up to, how far its
 * full read has come, and a backlog of candidates not yet produced.
 */

/** The columns of each table an evaluation plan, the suppression list or the CRM exclusions read. */
const WATCHED_COLUMNS = {
  companies: ['name', 'name_key', 'domain', 'linkedin_url', 'industry', 'size_band', 'hq_country_code', 'hq_city'],
  people: ['persona', 'title', 'company_id', 'linkedin_url', 'email', 'city', 'region_code', 'country_code'],
};

export class IncrementalEvaluation1732242500000 implements MigrationInterface {
  name = 'IncrementalEvaluation1732242500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION mark_evaluation_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.change_xid := pg_current_xact_id();
        RETURN NEW;
      END $$`);
    // A person leaving a company (moved, deleted, another persona) may change which of its people that company's events name.
    await q.query(`
      CREATE FUNCTION mark_person_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          NEW.change_xid := pg_current_xact_id();
        END IF;
        IF OLD.company_id IS NOT NULL AND (TG_OP = 'DELETE' OR OLD.company_id IS DISTINCT FROM NEW.company_id
            OR OLD.persona IS DISTINCT FROM NEW.persona) THEN
          UPDATE companies SET change_xid = pg_current_xact_id() WHERE id = OLD.company_id;
        END IF;
        RETURN coalesce(NEW, OLD);
      END $$`);
    for (const table of ['events', 'companies', 'people']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()`);
      await q.query(`CREATE INDEX ${table}_change_xid ON ${table} (change_xid)`);
    }
    // An event is read again on any change; a company or person only when a column read changes.
    await q.query(`CREATE TRIGGER events_evaluation_change BEFORE UPDATE ON events
      FOR EACH ROW EXECUTE FUNCTION mark_evaluation_change()`);
    for (const [table, columns] of Object.entries(WATCHED_COLUMNS)) {
      const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
      const marks = table === 'people' ? 'mark_person_change' : 'mark_evaluation_change';
      await q.query(`CREATE TRIGGER ${table}_evaluation_change BEFORE UPDATE ON ${table}
        FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${marks}()`);
    }
    await q.query(`CREATE TRIGGER people_evaluation_removal AFTER DELETE ON people
      FOR EACH ROW EXECUTE FUNCTION mark_person_change()`);
    // Changed companies' events are read by kind: a company's other kinds are not read at all.
    await q.query(`CREATE INDEX events_company_type_time ON events (company_id, type, occurred_at)`);
    await q.query(`ALTER TABLE signals
      ADD COLUMN evaluated_xid xid8,
      ADD COLUMN evaluated_at timestamptz,
      ADD COLUMN evaluation_basis text,
      ADD COLUMN full_read_at timestamptz,
      ADD COLUMN full_read_event_id text`);
    // What no change of a row announces starts the signals it concerns over (a full read):
    // their watchlist edited, a suppression entry gone, CRM records gone or no longer excluding.
    await q.query(`
      CREATE FUNCTION forget_signal_evaluations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'watched_companies' THEN
          UPDATE signals SET evaluated_xid = NULL WHERE id = coalesce(NEW.signal_id, OLD.signal_id);
        ELSIF TG_TABLE_NAME = 'suppressions' THEN
          UPDATE signals SET evaluated_xid = NULL WHERE account_id = OLD.account_id AND evaluated_xid IS NOT NULL;
        ELSIF TG_TABLE_NAME = 'crm_records' THEN
          UPDATE signals SET evaluated_xid = NULL
          WHERE crm_exclusions->>'connectionId' = OLD.connection_id::text AND evaluated_xid IS NOT NULL;
        ELSIF TG_TABLE_NAME = 'crm_connections' THEN
          UPDATE signals SET evaluated_xid = NULL
          WHERE crm_exclusions->>'connectionId' = OLD.id::text AND evaluated_xid IS NOT NULL;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER watched_companies_evaluation_reset AFTER INSERT OR UPDATE OR DELETE ON watched_companies
      FOR EACH ROW EXECUTE FUNCTION forget_signal_evaluations()`);
    await q.query(`CREATE TRIGGER suppressions_evaluation_reset AFTER UPDATE OR DELETE ON suppressions
      FOR EACH ROW EXECUTE FUNCTION forget_signal_evaluations()`);
    await q.query(`CREATE TRIGGER crm_records_evaluation_reset AFTER UPDATE OR DELETE ON crm_records
      FOR EACH ROW EXECUTE FUNCTION forget_signal_evaluations()`);
    await q.query(`CREATE TRIGGER crm_connections_evaluation_reset AFTER UPDATE OF status ON crm_connections
      FOR EACH ROW WHEN (OLD.status = 'connected' AND NEW.status <> 'connected') EXECUTE FUNCTION forget_signal_evaluations()`);
    await q.query(`
      CREATE TABLE signal_backlog (
        signal_id uuid NOT NULL REFERENCES signals (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        PRIMARY KEY (signal_id, event_id)
      )`);
    await q.query(`CREATE INDEX signal_backlog_order ON signal_backlog (signal_id, occurred_at, event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signal_backlog`);
    for (const table of ['watched_companies', 'suppressions', 'crm_records', 'crm_connections']) {
      await q.query(`DROP TRIGGER ${table}_evaluation_reset ON ${table}`);
    }
    await q.query(`DROP FUNCTION forget_signal_evaluations()`);
    await q.query(`DROP INDEX events_company_type_time`);
    await q.query(`ALTER TABLE signals DROP COLUMN evaluated_xid, DROP COLUMN evaluated_at, DROP COLUMN evaluation_basis,
      DROP COLUMN full_read_at, DROP COLUMN full_read_event_id`);
    for (const table of ['events', 'companies', 'people']) {
      await q.query(`DROP TRIGGER ${table}_evaluation_change ON ${table}`);
      if (table === 'people') await q.query(`DROP TRIGGER people_evaluation_removal ON people`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN change_xid`);
    }
    await q.query(`DROP FUNCTION mark_evaluation_change()`);
    await q.query(`DROP FUNCTION mark_person_change()`);
  }
}
