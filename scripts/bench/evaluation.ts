/**
 * Evaluation: one job-changes signal evaluated against `rows` people and as many job-change
 * events (bulk-loaded in SQL), timed through the service's own `findCandidates`, the query
 * `produceBatch` runs at the start of every evaluation. The rows are removed at the end, so the
 * next section's signals evaluate against the small store they would otherwise see.
 */
import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { openDatabase } from '../../src/db/data-source';
import { Signal } from '../../src/db/entities/signal';
import { listPersonas } from '../../src/catalogue/personas';
import { COMPANY_SIZE_BANDS } from '../../src/catalogue/company-sizes';
import { candidateQuery, findCandidates } from '../../src/services/leads/evaluation';
import { call, createAccount, expectStatus } from './http';
import type { BenchStack } from './stack';
import { median } from './stats';

const CHUNK = 100_000;
const RUNS = 5;
/** produceBatch's batch: the evaluation asks for at most this many candidates. */
const BATCH = 100;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA'];
const INDUSTRIES = [
  'Software Development',
  'Financial Services',
  'Hospitals and Health Care',
  'Retail',
  'Manufacturing',
  'Education',
];
/** Left out of the generated people, so a signal asking for it matches nothing. */
const ABSENT_PERSONA = 'General Counsel';

export interface EvaluationVariant {
  name: string;
  config: Record<string, unknown>;
  candidates: number;
  medianMs: number;
  maxMs: number;
  runsMs: number[];
  plan: string;
}

export interface EvaluationResult {
  rows: number;
  companies: number;
  loadMs: number;
  variants: EvaluationVariant[];
  /** The slowest variant's median: the number held against the target. */
  worstMedianMs: number;
}

async function load(db: PgClient, rows: number, companies: number, log: (line: string) => void): Promise<number> {
  const personas = listPersonas()
    .map((p) => p.name)
    .filter((name) => name !== ABSENT_PERSONA);
  const started = performance.now();
  // Generated consistent (every event's company and person exist), so the per-row foreign-key
  // checks, which made the load several times slower, are skipped for this session.
  await db.query(`SET session_replication_role = replica`);
  try {
    await insertRows(db, rows, companies, personas, log);
  } finally {
    await db.query(`SET session_replication_role = DEFAULT`);
  }
  await db.query(`VACUUM ANALYZE companies, people, events`);
  return performance.now() - started;
}

async function insertRows(
  db: PgClient,
  rows: number,
  companies: number,
  personas: string[],
  log: (line: string) => void,
): Promise<void> {
  await db.query(
    `INSERT INTO companies (id, name, name_key, domain, linkedin_url, industry, employee_count, size_band, hq_country_code, hq_city,
                            description, company_type, founded_year, tech_stack)
     SELECT 'bench-eval-co-' || g, 'Eval Company ' || g, 'eval company ' || g, 'evalco' || g || '.com',
            'https://www.linkedin.com/company/evalco' || g, ($2::text[])[1 + g % cardinality($2::text[])], 10 + g % 5000,
            ($3::text[])[1 + g % cardinality($3::text[])], ($4::text[])[1 + (g / 3) % cardinality($4::text[])], 'Springfield',
            'A company of the evaluation benchmark.', 'Privately Held', 1990 + g % 30, ARRAY['React', 'PostgreSQL']
     FROM generate_series(0, $1::int - 1) g`,
    [companies, INDUSTRIES, [...COMPANY_SIZE_BANDS], COUNTRIES],
  );
  for (let from = 0; from < rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK) - 1;
    await db.query(
      `INSERT INTO people (id, first_name, last_name, title, persona, company_id, linkedin_url, city, country_code, started_on)
       SELECT 'bench-eval-pe-' || g, 'Ada', 'Eval' || g, ($3::text[])[1 + g % cardinality($3::text[])],
              ($3::text[])[1 + g % cardinality($3::text[])], 'bench-eval-co-' || (g % $4::int),
              'https://www.linkedin.com/in/evalpe' || g, 'Springfield', ($5::text[])[1 + (g / 7) % cardinality($5::text[])], '2026-01'
       FROM generate_series($1::int, $2::int) g`,
      [from, to, personas, companies, COUNTRIES],
    );
    // Spread over the last year: about half inside the default 180-day window.
    await db.query(
      `INSERT INTO events (id, type, occurred_at, company_id, person_id, data)
       SELECT 'bench-eval-ev-' || g, 'job_change', now() - make_interval(days => g % 365, secs => g % 86400),
              'bench-eval-co-' || (g % $3::int), 'bench-eval-pe-' || g,
              '{"previous_title":"VP Engineering","previous_company":"Globex","new_title":"CTO","new_company":"Eval Company",
                "new_job_started_on":"01/2026","new_job_start_month":"2026-01","change_type":"company"}'::jsonb
       FROM generate_series($1::int, $2::int) g`,
      [from, to, companies],
    );
    if ((to + 1) % 200_000 === 0 || to + 1 === rows)
      log(`  ${(to + 1).toLocaleString('en-US')} people and events stored`);
  }
}

export async function runEvaluation(
  stack: BenchStack,
  db: PgClient,
  options: { rows: number; companies: number },
  log: (line: string) => void,
): Promise<EvaluationResult> {
  const loadMs = await load(db, options.rows, options.companies, log);
  log(`  ${options.rows.toLocaleString('en-US')} people and job changes loaded in ${(loadMs / 1000).toFixed(1)} s`);
  const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench evaluation', 10);
  const variants: Array<{ name: string; config: Record<string, unknown> }> = [
    {
      name: 'typical filters (persona, size, country)',
      config: {
        jobTitles: ['Chief Technology Officer'],
        companySizeFilters: ['51-200', '201-500'],
        locations: ['United States'],
      },
    },
    { name: 'one persona', config: { jobTitles: ['Chief Technology Officer'] } },
    { name: 'nothing matches (whole window read)', config: { jobTitles: [ABSENT_PERSONA] } },
  ];
  // The service's own query code on its own kind of connection (TypeORM, pool as the worker's).
  const dataSource = await openDatabase(stack.databaseUrl, 2);
  const results: EvaluationVariant[] = [];
  try {
    for (const variant of variants) {
      // Drafts: created through the API like any signal, but no workflow evaluates them meanwhile.
      const created = await expectStatus<{ id: string }>(
        'create signal',
        201,
        call(`${stack.apiUrl}/api/v1/signals/job-changes`, {
          token: account.apiKey,
          body: {
            name: `Bench evaluation: ${variant.name}`,
            config: variant.config,
            status: 'draft',
            dailyLeadLimit: 999_999,
          },
        }),
      );
      const signal = (await dataSource.getRepository(Signal).findOneBy({ id: created.id })) as Signal;
      let candidates = 0;
      const runsMs: number[] = [];
      // The first run warms the caches; the next RUNS are timed.
      for (let run = 0; run <= RUNS; run++) {
        const started = performance.now();
        const found = await findCandidates(dataSource.manager, signal, new Date(), BATCH);
        const elapsed = performance.now() - started;
        candidates = found.length;
        if (run > 0) runsMs.push(elapsed);
      }
      const query = candidateQuery(signal, new Date(), BATCH);
      const explained = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.args);
      const plan = explained.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      results.push({ ...variant, candidates, medianMs: median(runsMs), maxMs: Math.max(...runsMs), runsMs, plan });
      log(`  ${variant.name}: ${candidates} candidates, median ${median(runsMs).toFixed(0)} ms`);
    }
  } finally {
    await dataSource.destroy();
  }
  await unload(db, log);
  return {
    rows: options.rows,
    companies: options.companies,
    loadMs,
    variants: results,
    worstMedianMs: Math.max(...results.map((r) => r.medianMs)),
  };
}

/** Removes the section's rows. Nothing references them (the signals are drafts), so foreign-key checks are skipped. */
async function unload(db: PgClient, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  await db.query(`SET session_replication_role = replica`);
  try {
    await db.query(`DELETE FROM events WHERE id LIKE 'bench-eval-ev-%'`);
    await db.query(`DELETE FROM people WHERE id LIKE 'bench-eval-pe-%'`);
    await db.query(`DELETE FROM companies WHERE id LIKE 'bench-eval-co-%'`);
  } finally {
    await db.query(`SET session_replication_role = DEFAULT`);
  }
  await db.query(`VACUUM ANALYZE companies, people, events`);
  log(`  evaluation rows removed (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
