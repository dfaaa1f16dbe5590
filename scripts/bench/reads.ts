/**
 * API reads: `GET /api/v1/signals/{id}/leads` under load (autocannon, 50 connections) with the
 * leads table holding `leads` rows, all of one signal, beside a bare Koa + pg handler
 * (`bare-leads-server.ts`) serving the same page from the same table.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { buildLeadPayload } from '../../src/services/leads/payload';
import type { Candidate } from '../../src/signal-types/kit/candidate';
import { findFreePort } from '../../infra/net/ports';
import { call, createAccount, expectStatus } from './http';
import type { BenchStack } from './stack';
import { cpuReading, type CpuMeters } from './cpu';
import { mean } from './stats';

// autocannon ships no types; this is the part of its result the bench reads.
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Cannon;

const CONNECTIONS = 50;
const INSERT_CHUNK = 100_000;
const READS_EVENTS = 1_000;

export interface ReadsTarget {
  pagesPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rounds: number[];
  /** CPU milliseconds per page by process, over all rounds. */
  cpuMsPerPage: Record<string, number>;
}

export interface ReadsResult {
  leads: number;
  loadMs: number;
  pageLeads: number;
  pageBytes: number;
  durationSeconds: number;
  service: ReadsTarget;
  bare: ReadsTarget;
  ratio: number;
}

/** A realistic stored lead (every block filled), with placeholders for its id and time. */
function payloadTemplate(signal: { id: string; name: string }): string {
  const candidate: Candidate = {
    event_id: 'bench-reads-ev',
    event_type: 'job_change',
    occurred_at: new Date('2026-01-12T09:30:00Z'),
    data: {
      previous_title: 'VP Engineering',
      previous_company: 'Northwind Labs',
      new_title: 'Chief Technology Officer',
      new_company: 'Acme Analytics',
      new_job_started_on: '01/2026',
      new_job_start_month: '2026-01',
      change_type: 'company',
    },
    company_id: 'bench-reads-co',
    company_name: 'Acme Analytics',
    company_domain: 'acme-analytics.com',
    company_linkedin_url: 'https://www.linkedin.com/company/acme-analytics',
    industry: 'Software Development',
    employee_count: 120,
    size_band: '51-200',
    hq_country_code: 'US',
    hq_city: 'Austin',
    description: 'Analytics software for mid-size retailers, with a warehouse-native model and embedded dashboards.',
    company_type: 'Privately Held',
    founded_year: 2015,
    tech_stack: ['Snowflake', 'React', 'PostgreSQL', 'Kubernetes'],
    person_id: 'bench-reads-person',
    first_name: 'Ada',
    last_name: 'Example',
    title: 'Chief Technology Officer',
    persona: 'Chief Technology Officer',
    person_linkedin_url: 'https://www.linkedin.com/in/ada-example',
    email: null,
    phone: null,
    location: 'Austin, Texas, United States',
    city: 'Austin',
    country_code: 'US',
    subject_key: 'person:bench-reads-person',
  };
  const payload = buildLeadPayload(
    '__LEAD_ID__',
    new Date(0),
    { id: signal.id, name: signal.name, signalTypeId: 'job_changes', getPhones: false },
    candidate,
  );
  return JSON.stringify(payload).replace(new Date(0).toISOString(), '__CREATED_AT__');
}

/** One account, one signal (a draft: no workflow wakes during the reads), `count` leads of it, in SQL. */
export async function loadLeads(stack: BenchStack, db: PgClient, count: number, log: (line: string) => void) {
  const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench reads', 10);
  const signal = await expectStatus<{ id: string; name: string }>(
    'create signal',
    201,
    call(`${stack.apiUrl}/api/v1/signals/job-changes`, {
      token: account.apiKey,
      body: { name: 'Bench reads', config: { jobTitles: ['Chief Technology Officer'] }, status: 'draft' },
    }),
  );
  const started = performance.now();
  await db.query(
    `INSERT INTO companies (id, name, name_key) VALUES ('bench-reads-co', 'Acme Analytics', 'acme analytics') ON CONFLICT DO NOTHING`,
  );
  // Events older than any job-change window, so no signal ever evaluates them.
  await db.query(
    `INSERT INTO events (id, type, occurred_at, company_id)
     SELECT 'bench-reads-ev-' || g, 'job_change', now() - interval '3 years', 'bench-reads-co' FROM generate_series(0, $1::int - 1) g
     ON CONFLICT DO NOTHING`,
    [READS_EVENTS],
  );
  const template = payloadTemplate(signal);
  const base = new Date();
  for (let from = 1; from <= count; from += INSERT_CHUNK) {
    const to = Math.min(count, from + INSERT_CHUNK - 1);
    await db.query(
      `INSERT INTO leads (id, signal_id, account_id, event_id, subject_key, payload, email_status, handed_off_at, created_at)
       SELECT s.id, $1, $2, 'bench-reads-ev-' || (s.g % $7::int), 'person:bench-reads-' || s.g,
              replace(replace($3, '__LEAD_ID__', s.id::text), '__CREATED_AT__',
                      to_char(s.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::json,
              'not_requested', s.at, s.at
       FROM (SELECT g, gen_random_uuid() AS id, $4::timestamptz - make_interval(secs => g) AS at
             FROM generate_series($5::int, $6::int) g) s`,
      [signal.id, account.accountId, template, base, from, to, READS_EVENTS],
    );
    if (to % 200_000 === 0 || to === count) log(`  ${to.toLocaleString('en-US')} leads stored`);
  }
  // The signal's counters say what production would have left them saying.
  await db.query(`UPDATE signals SET leads_total = $2, last_lead_at = $3 WHERE id = $1`, [signal.id, count, base]);
  // What autovacuum does to a table some time after a bulk load: statistics and the visibility map.
  await db.query(`VACUUM ANALYZE leads`);
  return { account, signal, loadMs: performance.now() - started };
}

interface Round extends CannonResult {
  cpu: Record<string, number>;
}

async function fire(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  meters: CpuMeters = {},
): Promise<Round> {
  const cpu = cpuReading(meters);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return { ...result, cpu: cpu.since() };
}

function summarise(results: Round[]): ReadsTarget {
  const pages = results.reduce((sum, r) => sum + r['2xx'], 0);
  const cpuMsPerPage: Record<string, number> = {};
  for (const name of Object.keys(results[0]?.cpu ?? {})) {
    cpuMsPerPage[name] = (results.reduce((sum, r) => sum + (r.cpu[name] ?? NaN), 0) * 1000) / pages;
  }
  return {
    cpuMsPerPage,
    pagesPerSecond: mean(results.map((r) => r.requests.average)),
    p50: mean(results.map((r) => r.latency.p50)),
    p99: mean(results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    rounds: results.map((r) => r.requests.average),
  };
}

export async function runReads(
  stack: BenchStack,
  db: PgClient,
  options: { leads: number; seconds: number; warmupSeconds: number; rounds: number },
  log: (line: string) => void,
): Promise<ReadsResult> {
  const { account, signal, loadMs } = await loadLeads(stack, db, options.leads, log);
  log(`  ${options.leads.toLocaleString('en-US')} leads loaded in ${(loadMs / 1000).toFixed(1)} s`);

  const port = await findFreePort();
  const bare = stack.forkHelper('bare handler', path.join(__dirname, 'bare-leads-server.js'), {
    DATABASE_URL: stack.databaseUrl,
    PORT: String(port),
  });
  await new Promise<void>((resolve, reject) => {
    bare.child.once('message', () => resolve());
    bare.child.once('exit', (code) => reject(new Error(`the bare handler exited (code ${code})`)));
  });
  try {
    const serviceUrl = `${stack.apiUrl}/api/v1/signals/${signal.id}/leads`;
    const bareUrl = `http://127.0.0.1:${port}/signals/${signal.id}/leads`;
    const auth = { Authorization: `Bearer ${account.apiKey}` };

    // Both answer the same page: the service's first 25 leads are the bare handler's.
    const page = await call<{ total: number; leads: Array<{ contact: { lead_id: string } }> }>(serviceUrl, {
      token: account.apiKey,
    });
    const barePage = await call<{ leads: Array<{ contact: { lead_id: string } }> }>(bareUrl);
    if (page.status !== 200 || page.body.total !== options.leads)
      throw new Error(`unexpected leads page: ${page.status} ${page.text.slice(0, 300)}`);
    const ids = (p: { leads: Array<{ contact: { lead_id: string } }> }) => p.leads.map((l) => l.contact.lead_id).join();
    if (ids(page.body) !== ids(barePage.body))
      throw new Error('the service and the bare handler answered different pages');

    await fire(serviceUrl, auth, options.warmupSeconds);
    await fire(bareUrl, {}, options.warmupSeconds);
    const service: Round[] = [];
    const reference: Round[] = [];
    const {
      'Temporal server': _temporal,
      worker: _worker,
      ...meters
    } = stack.cpuMeters({ 'bare handler': bare.child.pid });
    void _temporal;
    void _worker;
    // Alternating rounds, so a burst of load from elsewhere on the machine hits both alike.
    for (let round = 0; round < options.rounds; round++) {
      service.push(await fire(serviceUrl, auth, options.seconds, meters));
      log(`  round ${round + 1}: service ${service.at(-1)!.requests.average.toFixed(0)} pages/s`);
      reference.push(await fire(bareUrl, {}, options.seconds, meters));
      log(`  round ${round + 1}: bare handler ${reference.at(-1)!.requests.average.toFixed(0)} pages/s`);
    }
    const serviceSummary = summarise(service);
    const bareSummary = summarise(reference);
    return {
      leads: options.leads,
      loadMs,
      pageLeads: page.body.leads.length,
      pageBytes: Buffer.byteLength(page.text),
      durationSeconds: options.seconds,
      service: serviceSummary,
      bare: bareSummary,
      ratio: serviceSummary.pagesPerSecond / bareSummary.pagesPerSecond,
    };
  } finally {
    await bare.stop();
  }
}
