import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { note } from './lead-flow';

/**
 * A storm of cost previews (issue 31, finding 4) over a store of 100,000 job changes: 40 at
 * once from one key, then 40 from 20 keys, while another account lists its signals again and
 * again. What is asserted is that every request is answered (previews with their result, a
 * 429 of the per-key cap or a 503 when no analysis connection came free in time); how long the other account's list took is written to the log, for
 * docs/performance.md, and is no pass/fail condition.
 */
const FILE = 'preview-storm';
const EVENTS = 100_000;
const PEOPLE = 50_000;
const PARALLEL = 40;

let stack: Stack;
let other: TestAccount;

const body = { signalTypeId: 'job_changes', config: { jobTitles: ['Chief Technology Officer'] } };
const preview = (account: TestAccount) => call(`${stack.url}/api/v1/signals/preview`, { token: account.apiKey, body });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Lists the other account's signals one request after another until `until` settles: each answer's status and time. */
async function otherAccountListsWhile(until: Promise<unknown>): Promise<{ statuses: number[]; ms: number[] }> {
  let settled = false;
  void until.finally(() => (settled = true));
  const statuses: number[] = [];
  const ms: number[] = [];
  do {
    const started = performance.now();
    statuses.push((await call(`${stack.url}/api/v1/signals`, { token: other.apiKey })).status);
    ms.push(performance.now() - started);
  } while (!settled);
  return { statuses, ms };
}

const summary = (ms: number[]) =>
  `n=${ms.length} median ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`;

beforeAll(async () => {
  stack = await startStack({
    worker: false,
    env: { RATE_LIMIT_PER_SECOND: '100000', PREVIEW_STATEMENT_TIMEOUT: '120s' },
  });
  other = await createAccount(stack, { name: 'Other' });
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain)
     SELECT 'st_c' || i, 'Storm ' || i, 'storm ' || i, 'storm-' || i || '.example' FROM generate_series(1, 2000) i`,
  );
  await stack.db.query(
    `INSERT INTO people (id, first_name, last_name, title, persona, company_id, country_code)
     SELECT 'st_p' || i, 'P', 'Storm', 'x',
       (ARRAY['Chief Technology Officer', 'Chief Financial Officer', 'Software Engineer', 'Head of Sales'])[1 + i % 4],
       'st_c' || (1 + i % 2000), 'US'
     FROM generate_series(1, ${PEOPLE}) i`,
  );
  await stack.db.query(
    `INSERT INTO events (id, type, occurred_at, company_id, person_id, ingested_at)
     SELECT 'st_e' || i, 'job_change', now() - make_interval(secs => (i % 2592000)),
       'st_c' || (1 + i % 2000), 'st_p' || (1 + i % ${PEOPLE}), now() - make_interval(secs => (i % 2592000))
     FROM generate_series(1, ${EVENTS}) i`,
  );
  await stack.db.query(`ANALYZE companies, people, events`);
}, 300_000);
afterAll(() => stack?.stop());

test('40 previews at once from one key, then from 20 keys: another account is answered throughout', async () => {
  const quiet = await otherAccountListsWhile(new Promise((resolve) => setTimeout(resolve, 2000)));
  note(FILE, `other account's GET /api/v1/signals, no previews: ${summary(quiet.ms)}`);

  const one = await createAccount(stack, { permissions: ['read'], name: 'One key' });
  const single = await preview(one);
  expect(single.status).toBe(200);
  note(FILE, `one preview alone: ${single.body.matchingEvents} matching events of ${EVENTS}`);

  const keys: TestAccount[] = [];
  for (let i = 0; i < PARALLEL / 2; i++)
    keys.push(await createAccount(stack, { permissions: ['read'], name: `K${i}` }));
  for (const [label, callers] of [
    ['one key', Array.from({ length: PARALLEL }, () => one)],
    ['20 keys', Array.from({ length: PARALLEL }, (_, i) => keys[i % keys.length])],
  ] as const) {
    const started = performance.now();
    const previews = Promise.all(callers.map((account) => preview(account)));
    const during = await otherAccountListsWhile(previews);
    const answers = await previews;
    const statuses = answers.map((answer) => answer.status);
    const counts = Object.entries(
      statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {}),
    );
    note(
      FILE,
      `${PARALLEL} previews from ${label}: ${counts.map(([s, n]) => `${n}× ${s}`).join(', ')} in ${(performance.now() - started).toFixed(0)} ms; ` +
        `other account's GET /api/v1/signals meanwhile: ${summary(during.ms)}`,
    );
    // A preview's result, the key's cap (429) or, past the wait for an analysis connection, ANALYSIS_BUSY (503).
    expect(statuses.filter((status) => ![200, 429, 503].includes(status))).toEqual([]);
    expect(during.statuses.filter((status) => status !== 200)).toEqual([]);
  }
}, 600_000);
