/**
 * Score and forecast costs (issue 35, item 6) on the scale-data store (10M events; quick 1M),
 * own stack, nothing else running:
 *
 * 1. The store bulk-loaded as scale-data loads it (scale-data-store.ts), in two stages.
 * 2. At each stage, the forecast run over the whole store: every rule's first pass (its
 *    horizon cleared), each company with events of its kinds in its lookback looked at.
 * 3. Then, for two arrival sizes (a 15-minute interval's share of 100,000 and 400,000 events a
 *    day), arrivals through `POST /admin/v1/ingest` and, timed:
 *    - the scores of the companies whose events changed, by the account's model now
 *      (`account_score_at`, the SQL twin of the score the API answers);
 *    - an `account_score` signal's refresh, the worker's own `produceBatch` until nothing
 *      waits: the changed companies' events back, their crossings, the leads;
 *    - the forecast run's pass: every rule over the companies that changed since its last pass.
 *    Each beside the events and companies that changed, so the figures show whether they follow
 *    the change (two arrival sizes) or the store (two stages).
 */
import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { Clock } from '../../src/clock';
import { openDatabase } from '../../src/db/data-source';
import { Credits } from '../../src/services/credits';
import { Ingestion } from '../../src/services/ingestion/ingestion';
import { LeadProduction } from '../../src/services/leads/production';
import { DEFAULT_SCORING_MODEL, SCORED_EVENT_TYPES } from '../../src/signal-types/kit/account-score';
import { Forecasts } from '../../src/sources/forecasts/forecasts';
import { FORECAST_RULES } from '../../src/sources/forecasts/rules';
import { call, createAccount, expectStatus } from './http';
import { growStore, storeShape, type LoadTimes, type StoreSize } from './scale-data-store';
import { ArrivalStream, putInSteadyState } from './arrival-stream';
import type { BenchStack } from './stack';

const DAY_MS = 86_400_000;
const FIFTEEN_MINUTES_MS = 15 * 60_000;
/** A refresh's produceBatch calls stop here (reported): far more than any interval's arrivals need. */
const MAX_BATCHES = 2_000;

export interface ScoreCostsOptions {
  stages: readonly StoreSize[];
  /** Events a day whose 15-minute share arrives before each measurement. */
  eventsPerDay: readonly number[];
}

/** What one interval's arrivals changed. */
export interface Changed {
  arrivals: number;
  /** Events whose change_xid is at or after the arrivals: the arrivals and nothing else. */
  changedEvents: number;
  /** Companies with a changed event of a scored kind: the scores to refresh. */
  companiesWithScoredEvents: number;
  /** Companies a source updated meanwhile (a new headcount). */
  updatedCompanies: number;
  /** Scored events those companies hold in all: what computing their scores reads. */
  scoredEventsOfThoseCompanies: number;
}

export interface ScoreRefresh extends Changed {
  storeEvents: number;
  /** account_score_at of each company with a changed scored event, now. */
  scoresMs: number;
  /** The account_score signal's produceBatch until nothing waits. */
  signalMs: number;
  batches: number;
  leads: number;
  complete: boolean;
  /** The forecast run after the same arrivals. */
  forecast: ForecastRun;
}

export interface ForecastRun {
  ms: number;
  /** Companies the rules looked at, summed over the rules. */
  looked: number;
  made: number;
  byRule: Record<string, { ms: number; looked: number; made: number }>;
}

export interface ScoreCostsResult {
  stages: { size: StoreSize; load: LoadTimes; wholeStoreForecast: ForecastRun }[];
  refreshes: ScoreRefresh[];
}

export async function runScoreCosts(
  stack: BenchStack,
  db: PgClient,
  options: ScoreCostsOptions,
  log: (line: string) => void,
): Promise<ScoreCostsResult> {
  const dataSource = await openDatabase(stack.databaseUrl, 4);
  const shape = storeShape();
  try {
    const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench scores', 10_000_000);
    // The defaults' threshold and types; no cap, so one refresh produces every crossing it finds.
    const signal = await expectStatus<{ id: string }>(
      'create account_score signal',
      201,
      call(`${stack.apiUrl}/api/v1/signals/account-score`, {
        token: account.apiKey,
        body: { name: 'Bench scores', config: {}, status: 'draft', dailyLeadLimit: 999_999 },
      }),
    );
    // Active without a workflow: only this section's produceBatch calls evaluate it, none in the middle of a measurement.
    await db.query(`UPDATE signals SET status = 'active' WHERE id = $1`, [signal.id]);
    const production = new LeadProduction(dataSource, new Credits(dataSource), new Clock());
    // Nothing stops a rule's pass halfway: each pass is timed whole.
    const forecasts = new Forecasts(dataSource, new Ingestion(dataSource), {
      FORECASTS_BATCH: 2000,
      FORECASTS_RUN_BUDGET_MS: 24 * 3_600_000,
    });

    const result: ScoreCostsResult = { stages: [], refreshes: [] };
    let from: StoreSize = { companies: 0, people: 0, events: 0 };
    for (const [stageIndex, size] of options.stages.entries()) {
      log(`  loading to ${size.events.toLocaleString('en-US')} events, ${size.people.toLocaleString('en-US')} people`);
      const load = await growStore(db, shape, from, size, true, log);
      from = size;
      // Every rule from scratch: its first pass looks at the whole store's companies in its lookback.
      await db.query(`DELETE FROM forecast_pending`);
      await db.query(`DELETE FROM forecast_rule_runs`);
      const wholeStoreForecast = await forecastRun(forecasts, db);
      log(
        `  forecast run over the whole store: ${ms(wholeStoreForecast.ms)}, ${wholeStoreForecast.looked.toLocaleString('en-US')} ` +
          `companies looked at, ${wholeStoreForecast.made} forecasts (${byRuleText(wholeStoreForecast)})`,
      );
      result.stages.push({ size, load, wholeStoreForecast });
      // The score signal as its first full read would leave it (the forecasts just made included).
      await putInSteadyState(db, dataSource, [signal.id]);

      const arrivals = new ArrivalStream(stack, db, shape, size, log);
      arrivals.seq.next = (stageIndex + 1) * 1_000_000;
      for (const perDay of options.eventsPerDay) {
        const count = Math.round((perDay * FIFTEEN_MINUTES_MS) / DAY_MS);
        const { rows } = await db.query<{ xid: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid`);
        const xid = rows[0]!.xid;
        await arrivals.send(count);
        const changed = await changedSince(db, xid, count);

        let started = performance.now();
        // The scores summed, so PostgreSQL computes each (a count of the calls would skip them).
        await db.query(
          `SELECT sum(s.score) FROM unnest($1::text[]) c(id), account_score_at(c.id, $2::jsonb, now(), '', FALSE) s`,
          [changed.companyIds, JSON.stringify(DEFAULT_SCORING_MODEL)],
        );
        const scoresMs = performance.now() - started;

        started = performance.now();
        let [batches, leads, complete] = [0, 0, false];
        while (batches < MAX_BATCHES) {
          const batch = await production.produceBatch(signal.id);
          batches++;
          leads += batch.produced;
          if (!batch.more) {
            complete = true;
            break;
          }
        }
        const signalMs = performance.now() - started;

        const forecast = await forecastRun(forecasts, db);
        // The forecasts just made are scored events: the signal reads them now, outside any measurement.
        await putInSteadyState(db, dataSource, [signal.id]);
        const { companyIds: _ids, ...counts } = changed;
        result.refreshes.push({
          storeEvents: size.events,
          ...counts,
          scoresMs,
          signalMs,
          batches,
          leads,
          complete,
          forecast,
        });
        log(
          `  ${size.events.toLocaleString('en-US')} events, ${count} arrivals: ${changed.companiesWithScoredEvents} companies ` +
            `with scored events changed (${changed.scoredEventsOfThoseCompanies} scored events), ${changed.updatedCompanies} updated; ` +
            `their scores ${ms(scoresMs)}; account_score refresh ${ms(signalMs)} (${batches} batches, ${leads} leads${complete ? '' : ', INCOMPLETE'}); ` +
            `forecast pass ${ms(forecast.ms)}, ${forecast.looked} companies looked at, ${forecast.made} made`,
        );
      }
    }
    return result;
  } finally {
    await dataSource.destroy();
  }
}

/** Every rule's pass to its end, each timed, with the companies it looked at and the forecasts it made. */
async function forecastRun(forecasts: Forecasts, db: PgClient): Promise<ForecastRun> {
  const run: ForecastRun = { ms: 0, looked: 0, made: 0, byRule: {} };
  for (const rule of FORECAST_RULES) {
    const started = performance.now();
    const { records } = await forecasts.sync(rule.id);
    const elapsed = performance.now() - started;
    const { rows } = await db.query<{ looked: number }>(
      `SELECT coalesce(last_looked_at, 0)::int AS looked FROM forecast_rule_runs WHERE rule = $1`,
      [rule.id],
    );
    const looked = rows[0]?.looked ?? 0;
    run.byRule[rule.id] = { ms: elapsed, looked, made: records };
    run.ms += elapsed;
    run.looked += looked;
    run.made += records;
  }
  return run;
}

async function changedSince(db: PgClient, xid: string, arrivals: number): Promise<Changed & { companyIds: string[] }> {
  const { rows } = await db.query<{ ids: string[] | null; events: number; updated: number }>(
    `SELECT (SELECT array_agg(DISTINCT company_id) FROM events WHERE change_xid >= $1::xid8 AND type = ANY($2::text[])) AS ids,
            (SELECT count(*)::int FROM events WHERE change_xid >= $1::xid8) AS events,
            (SELECT count(*)::int FROM companies WHERE change_xid >= $1::xid8) AS updated`,
    [xid, SCORED_EVENT_TYPES],
  );
  const companyIds = rows[0]!.ids ?? [];
  const scored = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE company_id = ANY($1::text[]) AND type = ANY($2::text[])`,
    [companyIds, SCORED_EVENT_TYPES],
  );
  return {
    arrivals,
    changedEvents: rows[0]!.events,
    companiesWithScoredEvents: companyIds.length,
    updatedCompanies: rows[0]!.updated,
    scoredEventsOfThoseCompanies: scored.rows[0]!.n,
    companyIds,
  };
}

const ms = (value: number) => `${value.toFixed(value < 100 ? 1 : 0)} ms`;
const byRuleText = (run: ForecastRun) =>
  Object.entries(run.byRule)
    .map(([rule, r]) => `${rule} ${ms(r.ms)} / ${r.looked}`)
    .join(', ');
