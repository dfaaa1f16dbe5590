import type { DataSource } from 'typeorm';
import type { EventRecordInput } from '../../providers/data/records';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import { execute, firstRow, rows } from '../../db/sql';
import type { IntentSource } from '../kit/intent-source';
import type { ForecastRule } from './forecast-rule';
import { dayOf } from './forecast-rule';
import { readForecasts, type ForecastMade } from './forecast-reading';
import { FORECAST_RULES, FORECAST_SPACING_DAYS, forecastRule } from './rules';
import type { ForecastsConfig } from './settings';

interface RuleRunRow {
  horizon_xid: string | null;
  as_of: Date | null;
  pass_as_of: Date | null;
  now_horizon: string;
}

/**
 * The `forecasts` source (docs/sources/forecasts.md): each rule of ./rules.ts is one item. A
 * rule's run is a pass over the companies whose events of its kinds changed since its last pass
 * (the `change_xid` horizon, docs/decisions/incremental-evaluation.md), and those time alone
 * moved (a round's anniversary); the first pass looks at the companies with such events in the
 * rule's lookback. A pass longer than FORECASTS_RUN_BUDGET_MS goes on at the next run.
 * Each forecast is a `forecasted_*` event ingested as any source's (id
 * `forecast:<rule>:<day>:<company>`) and a `forecasts` row with its rule, version, confidence,
 * horizon and evidence; a company gets one forecast per rule per 90 days.
 */
export class Forecasts implements IntentSource {
  readonly name = 'forecasts';

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly config: Pick<ForecastsConfig, 'FORECASTS_BATCH' | 'FORECASTS_RUN_BUDGET_MS'>,
  ) {}

  items(_after: SourceCursor): Promise<SourceItemsPage> {
    return Promise.resolve({ items: FORECAST_RULES.map((rule) => rule.id), next: null });
  }

  async sync(item: string, progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    const rule = forecastRule(item);
    if (!rule) return { records: 0 };
    const started = Date.now();
    const asOf = await this.startPass(rule);
    let made = 0;
    let looked = 0;
    for (;;) {
      const batch = await rows<{ company_id: string }>(
        this.db,
        `SELECT company_id FROM forecast_pending WHERE rule = $1 ORDER BY company_id LIMIT $2`,
        [rule.id, this.config.FORECASTS_BATCH],
      );
      if (batch.length === 0) break;
      const companies = batch.map((row) => row.company_id);
      made += await this.forecast(rule, companies, asOf);
      // Done only once its forecasts are stored: a run killed before looks at the batch again (no forecast twice).
      await execute(this.db, `DELETE FROM forecast_pending WHERE rule = $1 AND company_id = ANY($2::text[])`, [
        rule.id,
        companies,
      ]);
      looked += companies.length;
      progress?.({ rule: rule.id, looked, made });
      if (Date.now() - started > this.config.FORECASTS_RUN_BUDGET_MS) {
        await this.count(rule, looked, made);
        return { records: made };
      }
    }
    await execute(
      this.db,
      `UPDATE forecast_rule_runs SET horizon_xid = pass_horizon_xid, as_of = pass_as_of,
         pass_horizon_xid = NULL, pass_as_of = NULL WHERE rule = $1`,
      [rule.id],
    );
    await this.count(rule, looked, made);
    return { records: made };
  }

  async detail(): Promise<string | null> {
    const state = await firstRow<{ made: string; looked: string; pending: string; forecasts: string }>(
      this.db,
      `SELECT (SELECT coalesce(sum(last_made), 0) FROM forecast_rule_runs) AS made,
         (SELECT coalesce(sum(last_looked_at), 0) FROM forecast_rule_runs) AS looked,
         (SELECT count(*) FROM forecast_pending) AS pending,
         (SELECT count(*) FROM forecasts) AS forecasts`,
    );
    const rules = FORECAST_RULES.map((rule) => `${rule.id} v${rule.version}`).join(', ');
    return (
      `${FORECAST_RULES.length} rules (${rules}); ${state?.forecasts ?? 0} forecasts stored; ` +
      `the last runs looked at ${state?.looked ?? 0} companies and made ${state?.made ?? 0}` +
      (Number(state?.pending ?? 0) > 0 ? `; ${state?.pending} companies wait for the next run` : '')
    );
  }

  /**
   * The forecasts `rule` makes of `companies` as of `asOf` and stores: those without one of the
   * rule in the 90 days before. Answers how many are new.
   */
  async forecast(rule: ForecastRule<any>, companies: readonly string[], asOf: Date): Promise<number> {
    const open = await rows<{ company_id: string }>(
      this.db,
      `SELECT c.company_id FROM unnest($1::text[]) AS c(company_id)
       WHERE NOT EXISTS (SELECT 1 FROM forecasts f WHERE f.company_id = c.company_id AND f.rule = $2
         AND f.as_of > $3::timestamptz - $4 * interval '1 day' AND f.as_of <= $3::timestamptz + $4 * interval '1 day')`,
      [companies, rule.id, asOf, FORECAST_SPACING_DAYS],
    );
    const made = await readForecasts(
      this.db,
      rule,
      open.map((row) => row.company_id),
      asOf,
    );
    if (made.length === 0) return 0;
    const events = made.map((forecast) => forecastEvent(rule, forecast));
    const stored = await this.ingestion.ingest(events);
    if (stored.rejected > 0) throw new Error(`forecast events refused: ${stored.errors[0]?.message ?? 'unknown'}`);
    const added = await rows<{ event_id: string }>(
      this.db,
      `INSERT INTO forecasts (event_id, company_id, rule, rule_version, event_type, confidence, horizon_days, as_of, summary, evidence)
       SELECT f.event_id, f.company_id, $3::text, $4::int, $5::text, f.confidence, $6::int, $7::timestamptz, f.summary, f.evidence
       FROM unnest($1::text[], $2::text[], $8::numeric[], $9::text[], $10::jsonb[])
         AS f(event_id, company_id, confidence, summary, evidence)
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [
        events.map((event) => event.id),
        made.map((forecast) => forecast.companyId),
        rule.id,
        rule.version,
        rule.eventType,
        rule.horizonDays,
        asOf,
        made.map((forecast) => forecast.confidence),
        made.map((forecast) => forecast.summary),
        made.map((forecast) => JSON.stringify(forecast.evidence)),
      ],
    );
    return added.length;
  }

  /**
   * The rule's pass under way, or a new one: its instant, and the companies to look at put in
   * `forecast_pending` (changed since the last pass's horizon, or, the first time, within the lookback).
   */
  private async startPass(rule: ForecastRule<any>): Promise<Date> {
    return this.db.transaction(async (tx) => {
      await execute(tx, `INSERT INTO forecast_rule_runs (rule) VALUES ($1) ON CONFLICT (rule) DO NOTHING`, [rule.id]);
      // The horizon is taken before anything is read: what later transactions write is read next pass.
      const run = await firstRow<RuleRunRow>(
        tx,
        `SELECT horizon_xid::text, as_of, pass_as_of, pg_snapshot_xmin(pg_current_snapshot())::text AS now_horizon
         FROM forecast_rule_runs WHERE rule = $1 FOR UPDATE`,
        [rule.id],
      );
      if (run?.pass_as_of) return run.pass_as_of;
      const asOf = new Date();
      if (!run?.horizon_xid || !run.as_of) {
        await execute(
          tx,
          `INSERT INTO forecast_pending (rule, company_id)
           SELECT DISTINCT $1::text, company_id FROM events
           WHERE type = ANY($2::text[]) AND occurred_at > $3::timestamptz - $4 * interval '1 day' AND occurred_at <= $3
           ON CONFLICT DO NOTHING`,
          [rule.id, rule.inputTypes, asOf, rule.lookbackDays],
        );
      } else {
        await execute(
          tx,
          `INSERT INTO forecast_pending (rule, company_id)
           SELECT $3::text, moved.company_id FROM (
             SELECT DISTINCT company_id FROM events WHERE change_xid >= $4::xid8 AND type = ANY($5::text[])
             UNION ${rule.agedSql ?? `SELECT NULL::text WHERE $1::timestamptz > $2::timestamptz`}) moved
           WHERE moved.company_id IS NOT NULL
           ON CONFLICT DO NOTHING`,
          // agedSql reads $1 and $2 as the last pass's instant and this one's.
          [run.as_of, asOf, rule.id, run.horizon_xid, rule.inputTypes],
        );
      }
      await execute(tx, `UPDATE forecast_rule_runs SET pass_horizon_xid = $2::xid8, pass_as_of = $3 WHERE rule = $1`, [
        rule.id,
        run?.now_horizon,
        asOf,
      ]);
      return asOf;
    });
  }

  private async count(rule: ForecastRule<any>, looked: number, made: number): Promise<void> {
    await execute(this.db, `UPDATE forecast_rule_runs SET last_looked_at = $2, last_made = $3 WHERE rule = $1`, [
      rule.id,
      looked,
      made,
    ]);
  }
}

/**
 * The forecast as an event of its kind: the lead `signal` fields the demo feed's forecasts carry
 * and `news_summary`, the rule's reason in a sentence (rule, version and confidence included).
 */
export function forecastEvent(rule: ForecastRule<any>, forecast: ForecastMade): EventRecordInput & { id: string } {
  return {
    kind: 'event',
    id: `forecast:${rule.id}:${dayOf(forecast.asOf)}:${forecast.companyId}`.slice(0, 200),
    type: rule.eventType,
    occurredAt: forecast.asOf.toISOString(),
    companyId: forecast.companyId,
    data: {
      ...forecast.data,
      news_summary:
        `${forecast.summary} (rule ${rule.id} v${rule.version}, confidence ${forecast.confidence.toFixed(2)})`.slice(
          0,
          20_000,
        ),
    },
  };
}
