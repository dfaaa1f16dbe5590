import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account score (docs/decisions/account-score.md): each account's own scoring model, and
 * the score in SQL for the `account_score` signal's evaluation. The functions are the SQL twin
 * of `accountScore` and `scoreCrossings` in src/signal-types/kit/account-score.ts
 * (test/scoring/score-sql.test.ts holds them equal). Events at one instant are ordered by id
 * in byte order ("C"), as the TypeScript side orders them.
 */
export class AccountScore1732242750000 implements MigrationInterface {
  name = 'AccountScore1732242750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scoring_models (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        model jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A changed model changes every crossing: the account's score signals read their window again.
    await q.query(`
      CREATE FUNCTION forget_score_evaluations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE signals SET evaluated_xid = NULL
        WHERE account_id = coalesce(NEW.account_id, OLD.account_id) AND signal_type_id = 'account_score'
          AND evaluated_xid IS NOT NULL;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER scoring_models_evaluation_reset AFTER INSERT OR UPDATE OR DELETE ON scoring_models
      FOR EACH ROW EXECUTE FUNCTION forget_score_evaluations()`);
    // The score at p_at from the company's events up to (p_at, p_last_id), inclusive or not.
    await q.query(`
      CREATE FUNCTION account_score_at(p_company text, p_model jsonb, p_at timestamptz, p_last_id text, p_inclusive boolean,
          OUT score double precision, OUT distinct_types integer)
      LANGUAGE sql STABLE AS $$
        WITH scored AS (
          SELECT e.type, (r.rule->>'points')::float8 * power(0.5::float8,
                   extract(epoch FROM p_at - e.occurred_at)::float8 / 86400.0 / (r.rule->>'halfLifeDays')::float8) AS raw,
                 (r.rule->>'ceiling')::float8 AS ceiling
          FROM events e CROSS JOIN LATERAL (SELECT p_model->'eventTypes'->e.type AS rule) r
          WHERE e.company_id = p_company AND r.rule IS NOT NULL AND (r.rule->>'points')::float8 > 0
            AND (e.occurred_at < p_at OR (e.occurred_at = p_at AND (CASE WHEN p_inclusive
              THEN e.id COLLATE "C" <= p_last_id ELSE e.id COLLATE "C" < p_last_id END)))
        ), by_type AS (
          SELECT least(sum(raw), max(ceiling)) AS kept FROM scored GROUP BY type
        )
        SELECT least(100::float8, coalesce(sum(kept), 0)), count(*) FILTER (WHERE kept >= 1)::int FROM by_type
      $$`);
    await q.query(`
      CREATE FUNCTION account_score_crossings(p_company text, p_model jsonb, p_threshold double precision,
          p_min_types integer, p_cooldown_days double precision)
      RETURNS text[] LANGUAGE plpgsql STABLE AS $$
      DECLARE
        ev record;
        after_score record;
        before_score record;
        last_crossing timestamptz := NULL;
        crossings text[] := '{}';
      BEGIN
        FOR ev IN
          SELECT e.id, e.occurred_at FROM events e
          WHERE e.company_id = p_company AND coalesce((p_model->'eventTypes'->e.type->>'points')::float8, 0) > 0
          ORDER BY e.occurred_at, e.id COLLATE "C"
        LOOP
          after_score := account_score_at(p_company, p_model, ev.occurred_at, ev.id, TRUE);
          CONTINUE WHEN after_score.score < p_threshold OR after_score.distinct_types < p_min_types;
          before_score := account_score_at(p_company, p_model, ev.occurred_at, ev.id, FALSE);
          CONTINUE WHEN before_score.score >= p_threshold AND before_score.distinct_types >= p_min_types;
          CONTINUE WHEN last_crossing IS NOT NULL
            AND extract(epoch FROM ev.occurred_at - last_crossing)::float8 < p_cooldown_days * 86400.0;
          crossings := crossings || ev.id;
          last_crossing := ev.occurred_at;
        END LOOP;
        RETURN crossings;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION account_score_crossings(text, jsonb, double precision, integer, double precision)`);
    await q.query(`DROP FUNCTION account_score_at(text, jsonb, timestamptz, text, boolean)`);
    await q.query(`DROP TABLE scoring_models`);
    await q.query(`DROP FUNCTION forget_score_evaluations()`);
  }
}
