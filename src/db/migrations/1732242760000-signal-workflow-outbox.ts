import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The signal workflows' outbox (issue 36): a change of a signal's status or deletion marks the
 * row unconfirmed in the same transaction (a trigger, so no writer can forget it), and the
 * lifecycle clears the mark once Temporal took the message. The reconciliation then mends only
 * the marked rows every 30 s instead of listing every workflow and reading every active signal.
 */
export class SignalWorkflowOutbox1732242760000 implements MigrationInterface {
  name = 'SignalWorkflowOutbox1732242760000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE signals
        ADD COLUMN workflow_unconfirmed_since timestamptz,
        ADD COLUMN workflow_change bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE FUNCTION signal_workflow_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          IF NEW.status <> 'draft' THEN
            NEW.workflow_unconfirmed_since := clock_timestamp();
            NEW.workflow_change := 1;
          END IF;
        ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
          NEW.workflow_unconfirmed_since := COALESCE(OLD.workflow_unconfirmed_since, clock_timestamp());
          NEW.workflow_change := OLD.workflow_change + 1;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER signals_workflow_outbox BEFORE INSERT OR UPDATE ON signals
        FOR EACH ROW EXECUTE FUNCTION signal_workflow_outbox()`);
    await q.query(`
      CREATE INDEX signals_workflow_unconfirmed ON signals (workflow_unconfirmed_since)
        WHERE workflow_unconfirmed_since IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER signals_workflow_outbox ON signals`);
    await q.query(`DROP FUNCTION signal_workflow_outbox()`);
    await q.query(`ALTER TABLE signals DROP COLUMN workflow_unconfirmed_since, DROP COLUMN workflow_change`);
  }
}
