import { signalWorkflowId, signalWorkflowStateQuery, type SignalWorkflowState } from '../../src/temporal/contract';
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount, type Answer, type TestAccount } from '../setup/http';

/**
 * Shared pieces of the lead-production suites: provider records (contract section 3) posted
 * through the operator's ingestion endpoint, a client of the public API, and bounded waits on
 * what the signal workflow did.
 */

export const DAY_MS = 86_400_000;

/**
 * A stack whose signals evaluate only when told to (activation, resume, config change, evaluate
 * endpoint): no timer within a test, and arrived rows wake nobody (test/evaluation/wake-on-arrival.test.ts covers that).
 */
export const startLeadsStack = (options: { worker?: boolean } = {}) =>
  startStack({
    ...options,
    env: { SIGNAL_EVALUATION_INTERVAL: '1h', RATE_LIMIT_PER_SECOND: '100000', SIGNAL_WAKE_ON_ARRIVAL: 'false' },
  });

/** One file's leads stack and an account's API client: started before its tests, stopped after them. */
export function leadsTestBed(options: { credits: number }): { readonly stack: Stack; readonly api: Client } {
  let stack: Stack | undefined;
  let api: Client | undefined;
  beforeAll(async () => {
    stack = await startLeadsStack();
    api = client(stack, await createAccount(stack, { credits: options.credits }));
  });
  afterAll(() => stack?.stop());
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the leads test bed's ${what} is read before beforeAll has started it`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'stack');
    },
    get api() {
      return started(api, 'api client');
    },
  };
}

/** A short id unique in the run, so tests of one file never see each other's records. */
export const uid = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/** An instant `days` days before now (fractions allowed), as the ISO text providers send. */
export const daysAgo = (days: number, now = Date.now()) => new Date(now - days * DAY_MS).toISOString();

export const dayOf = (iso: string) => iso.slice(0, 10);

// ---------------------------------------------------------------- records

export interface CompanyRecord {
  kind: 'company';
  id: string;
  name: string;
  domain?: string | null;
  linkedinUrl?: string | null;
  industry?: string | null;
  employeeCount?: number | null;
  hqCountryCode?: string | null;
  hqCity?: string | null;
  description?: string | null;
  companyType?: string | null;
  foundedYear?: number | null;
  techStack?: string[];
  homepageTitle?: string | null;
  metaDescription?: string | null;
}

export interface PersonRecord {
  kind: 'person';
  id: string;
  firstName: string;
  lastName: string;
  title?: string | null;
  companyId: string;
  linkedinUrl?: string | null;
  salesNavigatorProfileUrl?: string | null;
  email?: string | null;
  phone?: string | null;
  location?: string | null;
  city?: string | null;
  countryCode?: string | null;
  startedOn?: string | null;
}

export interface EventRecord {
  kind: 'event';
  id: string;
  type: string;
  occurredAt: string;
  companyId: string;
  personId?: string | null;
  data?: Record<string, string | number>;
}

export type IngestRecord = CompanyRecord | PersonRecord | EventRecord;

/** A company with every field filled; `slug` keeps its domain and page unique. */
export function company(slug: string, overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return {
    kind: 'company',
    id: `co-${slug}`,
    name: `${slug} Labs`,
    domain: `${slug}.com`,
    linkedinUrl: `https://www.linkedin.com/company/${slug}`,
    industry: 'Software Development',
    employeeCount: 120,
    hqCountryCode: 'US',
    hqCity: 'Austin',
    description: `${slug} builds developer tools.`,
    companyType: 'Privately Held',
    foundedYear: 2015,
    techStack: ['React', 'PostgreSQL'],
    ...overrides,
  };
}

/** A person at `companyId`; the title decides the persona (e.g. "CTO" → Chief Technology Officer). */
export function person(slug: string, companyId: string, overrides: Partial<PersonRecord> = {}): PersonRecord {
  return {
    kind: 'person',
    id: `pe-${slug}`,
    firstName: 'Ada',
    lastName: `Lovelace-${slug}`,
    title: 'CTO',
    companyId,
    linkedinUrl: `https://www.linkedin.com/in/${slug}`,
    email: `${slug}@example.com`,
    phone: '+1 512 555 0100',
    location: null,
    city: 'Austin',
    countryCode: 'US',
    startedOn: '2026-10',
    ...overrides,
  };
}

export function event(
  id: string,
  type: string,
  occurredAt: string,
  companyId: string,
  options: { personId?: string; data?: Record<string, string | number> } = {},
): EventRecord {
  return {
    kind: 'event',
    id,
    type,
    occurredAt,
    companyId,
    personId: options.personId ?? null,
    data: options.data ?? {},
  };
}

/** The `data` of a job change, as the lead's signal block carries it. */
export function jobChangeData(newTitle: string, newCompany: string, month = '2026-10') {
  const [year, mm] = month.split('-');
  return {
    previous_title: 'VP Engineering',
    previous_company: 'Globex',
    new_title: newTitle,
    new_company: newCompany,
    new_job_started_on: `${mm}/${year}`,
    new_job_start_month: month,
    change_type: 'company',
  };
}

/**
 * One person who changed jobs: their company, the person and the `job_change` event. The
 * title picks the persona, which is what a job-changes signal's `jobTitles` filters on.
 */
export function jobChanger(
  slug: string,
  occurredAt: string,
  options: { title?: string; person?: Partial<PersonRecord> } = {},
) {
  const co = company(`${slug}-co`);
  const pe = person(slug, co.id, { title: options.title ?? 'CTO', ...options.person });
  const ev = event(`ev-${slug}`, 'job_change', occurredAt, co.id, {
    personId: pe.id,
    data: jobChangeData(pe.title ?? '', co.name),
  });
  return { company: co, person: pe, event: ev, records: [co, pe, ev] as IngestRecord[] };
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: number;
  errors: { line: number; message: string }[];
}

/** Posts records as NDJSON through the operator's ingestion endpoint; every record must be accepted. */
export async function ingest(stack: Stack, records: IngestRecord[]): Promise<IngestResult> {
  const answer = await call<IngestResult>(`${stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    rawBody: records.map((r) => JSON.stringify(r)).join('\n') + '\n',
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 200,
    body: { accepted: records.length, duplicates: 0, rejected: 0, errors: [] },
  });
  return answer.body;
}

// ---------------------------------------------------------------- public API

/** A client of the public API bound to one key, as an integrator writes it. */
export function client(stack: Stack, account: TestAccount) {
  const at = (path: string) => `${stack.url}/api/v1${path}`;
  const token = account.apiKey;
  return {
    get: (path: string) => call(at(path), { token }),
    post: (path: string, body?: unknown) => call(at(path), { method: 'POST', token, body }),
    patch: (path: string, body: unknown) => call(at(path), { method: 'PATCH', token, body }),
    delete: (path: string) => call(at(path), { method: 'DELETE', token }),
  };
}
export type Client = ReturnType<typeof client>;

export function expectStatus<T = any>(answer: Answer<T>, status: number): T {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });
  return answer.body;
}

export async function createSignal(
  api: Client,
  kind: 'job-changes' | 'account-watchlist' | 'fundraising' | 'hiring',
  body: Record<string, unknown>,
) {
  return expectStatus(await api.post(`/signals/${kind}`, body), 201);
}

export async function getSignal(api: Client, signalId: string) {
  return expectStatus(await api.get(`/signals/${signalId}`), 200);
}

/** Every lead of the signal, newest first, paging through the leads endpoint. */
export async function allLeads(api: Client, signalId: string): Promise<any[]> {
  const leads: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = expectStatus(await api.get(`/signals/${signalId}/leads?limit=100&offset=${offset}`), 200);
    leads.push(...page.leads);
    if (!page.hasMore) {
      expect(leads).toHaveLength(page.total);
      return leads;
    }
  }
}

export async function leadTotal(api: Client, signalId: string): Promise<number> {
  return expectStatus(await api.get(`/signals/${signalId}/leads?limit=1`), 200).total;
}

export async function balanceOf(api: Client): Promise<number> {
  return expectStatus(await api.get('/credits/balance'), 200).balance;
}

export interface UsageItem {
  id: string;
  at: string;
  operation: string;
  signalId?: string;
  leadId?: string;
  credits: number;
}

/** Every credit movement of the account (optionally of one signal), newest first. */
export async function allUsage(api: Client, signalId?: string): Promise<UsageItem[]> {
  const items: UsageItem[] = [];
  for (let offset = 0; ; offset += 100) {
    const query = `limit=100&offset=${offset}${signalId ? `&signalId=${signalId}` : ''}`;
    const page = expectStatus(await api.get(`/credits/usage?${query}`), 200);
    items.push(...page.items);
    if (!page.hasMore) return items;
  }
}

// ---------------------------------------------------------------- waiting on the workflow

/** Polls `read` until `done` holds, failing with the last value seen when the deadline passes. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (done(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}

export async function waitForLeadTotal(
  api: Client,
  signalId: string,
  total: number,
  timeoutMs = 20_000,
): Promise<any[]> {
  await waitFor(
    `${total} leads of ${signalId}`,
    () => leadTotal(api, signalId),
    (n) => n >= total,
    { timeoutMs },
  );
  const leads = await allLeads(api, signalId);
  expect(leads).toHaveLength(total);
  return leads;
}

export type WorkflowState = SignalWorkflowState;

/** What the signal's workflow reports about itself; null before it exists. */
export async function workflowState(stack: Stack, signalId: string): Promise<WorkflowState | null> {
  try {
    return await stack.temporal.workflow.getHandle(signalWorkflowId(signalId)).query(signalWorkflowStateQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** Waits until the workflow has finished at least `evaluations` evaluations and is not in one. */
export async function settled(stack: Stack, signalId: string, evaluations = 1): Promise<WorkflowState> {
  return (await waitFor(
    `signal ${signalId} to finish evaluation ${evaluations}`,
    () => workflowState(stack, signalId).catch(() => null),
    (state) => state !== null && state.evaluations >= evaluations && !state.evaluating,
  )) as WorkflowState;
}

/** The operator's "evaluate now", answered 202 or the error it gives. */
export function requestEvaluation(stack: Stack, signalId: string): Promise<Answer> {
  return call(`${stack.url}/admin/v1/signals/${signalId}/evaluate`, { method: 'POST', token: TEST_ADMIN_TOKEN });
}

/** Asks for an evaluation and waits until the workflow has run it to the end (children started). */
export async function evaluateNow(stack: Stack, signalId: string): Promise<WorkflowState> {
  const before = (await workflowState(stack, signalId))?.evaluations ?? 0;
  expect((await requestEvaluation(stack, signalId)).status).toBe(202);
  return settled(stack, signalId, before + 1);
}

/** Waits until these leads' email extras are settled by their workflows; answers each one's outcome, in order. */
export async function leadEmailOutcomes(stack: Stack, leadIds: string[], timeoutMs = 30_000): Promise<string[]> {
  const rows = await waitFor(
    `the emails of leads ${leadIds.join(', ')} to be settled`,
    () =>
      stack.db.query(`SELECT id, email_status FROM leads WHERE id = ANY($1::uuid[])`, [leadIds]) as Promise<
        Array<{ id: string; email_status: string }>
      >,
    (found) => found.length === leadIds.length && found.every((row) => row.email_status !== 'pending'),
    { timeoutMs },
  );
  return leadIds.map((id) => rows.find((row) => row.id === id)!.email_status);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Moves the service clock to one minute past the next UTC midnight. */
export function advanceToNextUtcDay(stack: Stack): void {
  const now = stack.services.clock.now();
  const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  stack.services.clock.advance(nextMidnight + 60_000 - now.getTime());
}

/** Keeps a test that counts one UTC day from straddling a real midnight. */
export function awayFromMidnight(stack: Stack): void {
  const now = stack.services.clock.now();
  const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  if (nextMidnight - now.getTime() < 5 * 60_000) advanceToNextUtcDay(stack);
}
