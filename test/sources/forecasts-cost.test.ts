import { startStack, type Stack } from '../setup/stack';
import { Ingestion } from '../../src/services/ingestion/ingestion';
import { Forecasts } from '../../src/sources/forecasts/forecasts';
import { FORECAST_RULES } from '../../src/sources/forecasts/rules';

/**
 * Issue 35, item 6: the forecast run's cost follows what changed. Each rule's statement reads
 * a batch's events about once (not once per company of the batch: acquisition-target's plan
 * aggregated the batch's postings again for each company, 1.4M rows here and ~45 s a batch of
 * 2,000 companies on the bench's store), and a run after new events looks at their
 * companies only. Counts of rows and companies, not times: the plan's own row counts say how
 * much was read.
 */
let stack: Stack;
const COMPANIES = 2_000;
const AS_OF = new Date();

beforeAll(async () => {
  stack = await startStack({ worker: false });
  // A store shaped as the bench's: postings through the last year at each company, news at half, a round at one in ten.
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain, employee_count, founded_year)
     SELECT 'fc-' || g, 'Cost Co ' || g, 'cost co ' || g, 'fc' || g || '.example', 50 + g % 900, 1990 + g % 30
     FROM generate_series(1, $1::int) g`,
    [COMPANIES],
  );
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, data, job_department)
     SELECT 'fc-post-' || g || '-' || k, 'job_offers', now() - ((g * 7 + k * 53) % 360) * interval '1 day', 'fc-' || g,
            jsonb_build_object('job_offer_title', CASE WHEN k % 2 = 0 THEN 'Software Engineer' ELSE 'Account Executive' END,
                               'job_offer_url', 'https://jobs.example.com/' || g || '/' || k),
            CASE WHEN k % 2 = 0 THEN 'Engineering' ELSE 'Sales' END
     FROM generate_series(1, $1::int) g, generate_series(1, 4) k`,
    [COMPANIES],
  );
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, data)
     SELECT 'fc-round-' || g, 'fundraising', now() - (400 + g % 900) * interval '1 day', 'fc-' || g,
            jsonb_build_object('funding_type', 'Series B', 'funding_amount_usd', 20000000)
     FROM generate_series(10, $1::int, 10) g`,
    [COMPANIES],
  );
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, data)
     SELECT 'fc-news-' || g, 'company_news', now() - (g % 170) * interval '1 day', 'fc-' || g,
            jsonb_build_object('news_event_type', CASE WHEN g % 3 = 0 THEN 'restructuring' ELSE 'expansion' END,
                               'news_headline', 'Cost Co ' || g || ' news', 'news_url', 'https://news.example.com/' || g)
     FROM generate_series(1, $1::int, 2) g`,
    [COMPANIES],
  );
  await stack.db.query(`ANALYZE companies, events`);
});
afterAll(() => stack?.stop());

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows every node of the plan produced, over all its loops: what the statement read and carried. */
function rowsCarried(node: PlanNode): number {
  return node['Actual Rows'] * node['Actual Loops'] + (node.Plans ?? []).reduce((sum, p) => sum + rowsCarried(p), 0);
}

test("each rule's statement reads a batch's events about once, not once per company", async () => {
  const companies = Array.from({ length: COMPANIES }, (_, i) => `fc-${i + 1}`);
  const [{ events }] = await stack.db.query(`SELECT count(*)::int AS events FROM events WHERE company_id LIKE 'fc-%'`);
  for (const rule of FORECAST_RULES) {
    const [{ 'QUERY PLAN': plan }] = await stack.db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${rule.findingsSql}`, [
      companies,
      AS_OF,
      ...(rule.findingsParams ?? []),
    ]);
    const carried = rowsCarried(plan[0].Plan);
    // A plan that aggregates the batch's events again for each company carries ~companies × events rows.
    expect({ rule: rule.id, withinBound: carried <= 10 * (events + COMPANIES), carried }).toEqual({
      rule: rule.id,
      withinBound: true,
      carried,
    });
  }
});

test('after the first pass, a run looks only at the companies whose events changed', async () => {
  const forecasts = new Forecasts(stack.db, new Ingestion(stack.db), {
    FORECASTS_BATCH: 500,
    FORECASTS_RUN_BUDGET_MS: 3_600_000,
  });
  const looked = async () =>
    Object.fromEntries(
      (
        (await stack.db.query(`SELECT rule, last_looked_at FROM forecast_rule_runs`)) as {
          rule: string;
          last_looked_at: number;
        }[]
      ).map((r) => [r.rule, Number(r.last_looked_at)]),
    );
  for (const rule of FORECAST_RULES) await forecasts.sync(rule.id);
  // The first pass looks at every company with events of the rule's kinds in its lookback.
  const inLookback = async (rule: (typeof FORECAST_RULES)[number]) =>
    Number(
      (
        await stack.db.query(
          `SELECT count(DISTINCT company_id)::int AS n FROM events
           WHERE type = ANY($1::text[]) AND occurred_at > now() - $2 * interval '1 day'`,
          [rule.inputTypes, rule.lookbackDays],
        )
      )[0].n,
    );
  const firstPass = Object.fromEntries(await Promise.all(FORECAST_RULES.map(async (r) => [r.id, await inLookback(r)])));
  expect(await looked()).toEqual(firstPass);
  expect(firstPass['acquisition-target']).toBe(COMPANIES);

  // Postings at 7 companies and a round at 3 others.
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, data, job_department)
     SELECT 'fc-new-post-' || g, 'job_offers', now(), 'fc-' || g, '{"job_offer_title": "Data Engineer"}', 'Engineering'
     FROM generate_series(11, 17) g`,
  );
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, data)
     SELECT 'fc-new-round-' || g, 'fundraising', now(), 'fc-' || g, '{"funding_type": "Series C"}'
     FROM generate_series(21, 23) g`,
  );
  for (const rule of FORECAST_RULES) await forecasts.sync(rule.id);
  const inputsOf = (id: string) => FORECAST_RULES.find((r) => r.id === id)!.inputTypes;
  const expected = (id: string) =>
    (inputsOf(id).includes('job_offers') ? 7 : 0) + (inputsOf(id).includes('fundraising') ? 3 : 0);
  expect(await looked()).toEqual(Object.fromEntries(FORECAST_RULES.map((r) => [r.id, expected(r.id)])));
});
