import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { startReceiver, type ReceivedRequest, type Receiver } from '../deliveries/receiver';
import {
  balanceOf,
  client,
  company,
  createSignal,
  daysAgo,
  event,
  ingest,
  jobChangeData,
  person,
  type Client,
  type IngestRecord,
} from '../leads/fixtures';

/**
 * The flow every fault test runs: N job changes ingested, an active job-changes signal whose
 * webhook is a verifying receiver, and the checks that must hold however the flow was
 * disturbed: every lead produced exactly once, billed exactly once, delivered at least once,
 * and every repeated delivery of a lead under the same X-Webhook-Id.
 */

/** Settings of a stack under fault: evaluation only when activated, quick webhook retries. */
export const FAULT_ENV: Record<string, string> = {
  SIGNAL_EVALUATION_INTERVAL: '1h',
  RATE_LIMIT_PER_SECOND: '100000',
  // Above the slowest scripted answer (1.5 s) with room for a loaded machine.
  WEBHOOK_TIMEOUT_MS: '4000',
  WEBHOOK_RETRY_INITIAL_MS: '200',
  WEBHOOK_RETRY_MAX_INTERVAL_MS: '2000',
  // Far longer than any test: a delivery must never be failed for running out of time.
  WEBHOOK_RETRY_WINDOW_MS: '900000',
};

const CREDITS_PER_LEAD = 2;

export interface LeadFlow {
  stack: Stack;
  account: TestAccount;
  api: Client;
  receiver: Receiver;
  signalId: string;
  leads: number;
  credits: number;
}

/** `count` people at one company who changed jobs recently, all CTOs, so one signal takes them all. */
export async function ingestJobChanges(stack: Stack, count: number): Promise<void> {
  const co = company('fault-co');
  const records: IngestRecord[] = [co];
  for (let i = 0; i < count; i++) {
    const slug = `fault-${String(i).padStart(4, '0')}`;
    const who = person(slug, co.id, { title: 'CTO' });
    records.push(
      who,
      event(`ev-${slug}`, 'job_change', daysAgo(30 - i * 0.01), co.id, {
        personId: who.id,
        data: jobChangeData('CTO', co.name),
      }),
    );
  }
  await ingest(stack, records);
}

/** An account with enough credits (and some to spare), its receiver, and the data; no signal yet. */
export async function prepareLeadFlow(stack: Stack, leads: number): Promise<Omit<LeadFlow, 'signalId'>> {
  const credits = leads * CREDITS_PER_LEAD + 100;
  const account = await createAccount(stack, { credits });
  const receiver = await startReceiver({ secret: account.webhookSecret });
  await ingestJobChanges(stack, leads);
  return { stack, account, api: client(stack, account), receiver, leads, credits };
}

/** Activating the signal evaluates it at once: production and deliveries start now. */
export async function activateSignal(flow: Omit<LeadFlow, 'signalId'>): Promise<LeadFlow> {
  const signal = await createSignal(flow.api, 'job-changes', {
    name: 'CTOs under fault',
    status: 'active',
    dailyLeadLimit: flow.leads + 100,
    webhookUrl: flow.receiver.url,
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  return { ...flow, signalId: signal.id };
}

export interface FlowProgress {
  /** Lead rows of the signal; -1 while PostgreSQL does not answer. */
  produced: number;
  /** Deliveries the service has settled as delivered; -1 while PostgreSQL does not answer. */
  delivered: number;
  /** Leads the signal workflow has recorded as started; -1 while PostgreSQL does not answer. */
  handedOff: number;
  /** Distinct leads the receiver answered 2xx for. */
  acknowledged: number;
  requests: number;
}

const leadIdOf = (request: ReceivedRequest): string | undefined => request.body?.contact?.lead_id;

function acknowledgedLeads(receiver: Receiver): Set<string> {
  const ids = new Set<string>();
  for (const request of receiver.requests) {
    const id = leadIdOf(request);
    if (id && request.status >= 200 && request.status < 300) ids.add(id);
  }
  return ids;
}

async function countOrUnknown(flow: LeadFlow, sql: string): Promise<number> {
  try {
    const [{ n }] = await flow.stack.db.query(sql, [flow.signalId]);
    return n;
  } catch {
    return -1;
  }
}

export async function progressOf(flow: LeadFlow): Promise<FlowProgress> {
  const [produced, delivered, handedOff] = await Promise.all([
    countOrUnknown(flow, `SELECT count(*)::int AS n FROM leads WHERE signal_id = $1`),
    countOrUnknown(
      flow,
      `SELECT count(*)::int AS n FROM deliveries WHERE signal_id = $1 AND kind = 'lead' AND status = 'delivered'`,
    ),
    countOrUnknown(flow, `SELECT count(*)::int AS n FROM leads WHERE signal_id = $1 AND handed_off_at IS NOT NULL`),
  ]);
  return {
    produced,
    delivered,
    handedOff,
    acknowledged: acknowledgedLeads(flow.receiver).size,
    requests: flow.receiver.requests.length,
  };
}

/** Polls the flow's progress until `done`, failing with the last progress and `diagnose()` when time runs out. */
export async function waitForProgress(
  flow: LeadFlow,
  what: string,
  done: (progress: FlowProgress) => boolean,
  options: { timeoutMs: number; intervalMs?: number; diagnose?: () => string | Promise<string>; logAs?: string },
): Promise<FlowProgress> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastLogged = started;
  for (;;) {
    const progress = await progressOf(flow);
    if (done(progress)) return progress;
    // A long wait says how it goes, so a slow run and a stuck one look different in the log.
    if (options.logAs && Date.now() - lastLogged >= 15_000) {
      lastLogged = Date.now();
      note(
        options.logAs,
        `waiting for ${what}, ${Math.round((lastLogged - started) / 1000)} s: ${JSON.stringify(progress)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}; progress: ${JSON.stringify(progress)}\n${await stateReport(flow)}${(await options.diagnose?.()) ?? ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 200));
  }
}

/**
 * Every lead produced, handed off and delivered, as far as both the service and the receiver
 * can tell. Callers give generous deadlines: with other suites running on the same two cores
 * these flows take two to three times as long, and the wait ends as soon as the flow is done.
 */
export async function waitForEveryLeadDelivered(
  flow: LeadFlow,
  options: { timeoutMs: number; logAs: string; diagnose?: () => string | Promise<string> },
): Promise<FlowProgress> {
  return waitForProgress(
    flow,
    `all ${flow.leads} leads delivered`,
    // Handed off too: the signal workflow records a batch's hand-off after its starts, which may
    // come after those leads' deliveries (a killed worker's workflow task waits out its time-out).
    (p) =>
      p.produced >= flow.leads &&
      p.delivered >= flow.leads &&
      p.handedOff >= flow.leads &&
      p.acknowledged >= flow.leads,
    {
      intervalMs: 250,
      ...options,
      diagnose: async () => `${await temporalReport(flow)}${(await options.diagnose?.()) ?? ''}`,
    },
  );
}

/** Where a stuck flow stands, for the failure message. */
async function stateReport(flow: LeadFlow): Promise<string> {
  try {
    const leads = await flow.stack.db.query(
      `SELECT count(*) FILTER (WHERE handed_off_at IS NULL)::int AS not_handed_off, count(*)::int AS total FROM leads WHERE signal_id = $1`,
      [flow.signalId],
    );
    const deliveries = await flow.stack.db.query(
      `SELECT status, count(*)::int AS n, max(attempts)::int AS max_attempts, min(last_error) AS an_error
       FROM deliveries WHERE signal_id = $1 GROUP BY status`,
      [flow.signalId],
    );
    return `leads: ${JSON.stringify(leads)}\ndeliveries: ${JSON.stringify(deliveries)}\n`;
  } catch (err) {
    return `(database not readable: ${(err as Error).message})\n`;
  }
}

/**
 * What Temporal says about a stuck flow: open workflows by type, and the signal workflow's
 * pending work and latest history events.
 */
export async function temporalReport(flow: LeadFlow): Promise<string> {
  const lines: string[] = [];
  try {
    const open = new Map<string, number>();
    for await (const execution of flow.stack.temporal.workflow.list({ query: 'ExecutionStatus="Running"' })) {
      open.set(execution.type, (open.get(execution.type) ?? 0) + 1);
    }
    lines.push(`open workflows: ${JSON.stringify(Object.fromEntries(open))}`);
    const handle = flow.stack.temporal.workflow.getHandle(`signal:${flow.signalId}`);
    const described = await handle.describe();
    const raw = described.raw;
    lines.push(
      `signal workflow ${described.status.name}, history ${raw.workflowExecutionInfo?.historyLength}, pending activities ` +
        JSON.stringify(
          (raw.pendingActivities ?? []).map((a) => ({
            type: a.activityType?.name,
            state: a.state,
            attempt: a.attempt,
            failure: a.lastFailure?.message,
          })),
        ) +
        `, pending children ${raw.pendingChildren?.length ?? 0}, pending workflow task ${JSON.stringify(raw.pendingWorkflowTask ?? null)}`,
    );
    const children = raw.pendingChildren ?? [];
    lines.push(`pending children (first 3): ${JSON.stringify(children.slice(0, 3))}`);
    for (const child of children.slice(0, 2)) {
      try {
        const d = await flow.stack.temporal.workflow.getHandle(child.workflowId ?? '').describe();
        lines.push(
          `child ${child.workflowId}: ${d.status.name}, pending wft ${JSON.stringify(d.raw.pendingWorkflowTask ?? null)}`,
        );
      } catch (err) {
        lines.push(`child ${child.workflowId}: ${(err as Error).message}`);
      }
    }
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    lines.push(
      `last events: ${events
        .slice(-12)
        .map((e) => `${e.eventId}:${e.eventType}`)
        .join(', ')}`,
    );
  } catch (err) {
    lines.push(`(Temporal not readable: ${(err as Error).message})`);
  }
  return lines.join('\n') + '\n';
}

/**
 * The exactly-once / at-least-once checks, on the database, the API and what the receiver got.
 * Answers how many deliveries the receiver saw more than once, for the log.
 */
export async function expectEveryLeadOnceBilledOnceDelivered(
  flow: LeadFlow,
): Promise<{ repeatedLeads: number; requests: number }> {
  const { stack, signalId, leads: n } = flow;

  // Produced exactly once.
  const [leadRows] = await stack.db.query(
    `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS ids FROM leads WHERE signal_id = $1`,
    [signalId],
  );
  expect(leadRows).toEqual({ rows: n, ids: n });
  const [{ subjects }] = await stack.db.query(
    `SELECT count(DISTINCT subject_key)::int AS subjects FROM leads WHERE signal_id = $1`,
    [signalId],
  );
  expect(subjects).toBe(n);
  const leadIds = new Set<string>(
    (await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [signalId])).map((r: { id: string }) => r.id),
  );
  expect(
    await countOrUnknown(flow, `SELECT count(*)::int AS n FROM leads WHERE signal_id = $1 AND handed_off_at IS NULL`),
  ).toBe(0);

  // Billed exactly once: one `lead` charge per lead, nothing else charged, the balance to match.
  const ledger = await stack.db.query(
    `SELECT lead_id, count(*)::int AS charges, sum(credits)::float AS credits FROM credit_ledger
     WHERE signal_id = $1 AND operation = 'lead' GROUP BY lead_id`,
    [signalId],
  );
  expect(ledger).toHaveLength(n);
  expect(ledger.filter((row: { charges: number }) => row.charges !== 1)).toEqual([]);
  expect(new Set(ledger.map((row: { lead_id: string }) => row.lead_id))).toEqual(leadIds);
  const [{ entries }] = await stack.db.query(
    `SELECT count(*)::int AS entries FROM credit_ledger WHERE account_id = $1 AND operation <> 'grant'`,
    [flow.account.accountId],
  );
  expect(entries).toBe(n);
  expect(await balanceOf(flow.api)).toBe(flow.credits - n * CREDITS_PER_LEAD);

  // Delivered: one delivery per lead, settled as delivered.
  const deliveries: { id: string; lead_id: string; status: string }[] = await stack.db.query(
    `SELECT id, lead_id, status FROM deliveries WHERE signal_id = $1 AND kind = 'lead'`,
    [signalId],
  );
  expect(deliveries).toHaveLength(n);
  expect(deliveries.filter((d) => d.status !== 'delivered')).toEqual([]);
  const deliveryIdOfLead = new Map(deliveries.map((d) => [d.lead_id, d.id]));

  // What the receiver got: only these leads, all signed, each at least once with a 2xx, and
  // every repeat under the one X-Webhook-Id of the lead's delivery.
  const requests = flow.receiver.requests;
  expect(requests.filter((r) => !r.verified).map((r) => r.headers['x-webhook-id'])).toEqual([]);
  expect(
    requests.filter((r) => !leadIds.has(leadIdOf(r) ?? '')).map((r) => r.rawBody.toString('utf8').slice(0, 200)),
  ).toEqual([]);
  const webhookIdsByLead = new Map<string, Set<string>>();
  for (const request of requests) {
    const id = leadIdOf(request) as string;
    const ids = webhookIdsByLead.get(id) ?? new Set<string>();
    ids.add(String(request.headers['x-webhook-id']));
    webhookIdsByLead.set(id, ids);
  }
  expect([...leadIds].filter((id) => !acknowledgedLeads(flow.receiver).has(id))).toEqual([]);
  const inconsistent = [...webhookIdsByLead].filter(
    ([leadId, ids]) => ids.size !== 1 || !ids.has(deliveryIdOfLead.get(leadId) ?? ''),
  );
  expect(
    inconsistent.map(([leadId, ids]) => ({ leadId, webhookIds: [...ids], delivery: deliveryIdOfLead.get(leadId) })),
  ).toEqual([]);

  const perLead = new Map<string, number>();
  for (const request of requests)
    perLead.set(leadIdOf(request) as string, (perLead.get(leadIdOf(request) as string) ?? 0) + 1);
  return { repeatedLeads: [...perLead.values()].filter((c) => c > 1).length, requests: requests.length };
}

export interface FaultTestBed {
  /** The file's running service; read it in hooks and tests, not while the file is loaded. */
  readonly stack: Stack;
  /** `prepareLeadFlow` on the file's stack; the flow's receiver is closed after the file's tests. */
  prepareLeadFlow(leads: number): Promise<Omit<LeadFlow, 'signalId'>>;
}

/**
 * One fault file's service and lead flow, set up before its test and taken down after it. Each
 * file starts its stack its own way (on a PostgreSQL or Temporal of its own, or with the worker
 * elsewhere), so it says how, and what else of its own must stop around it.
 */
export function faultTestBed(options: {
  start: () => Promise<Stack>;
  startTimeoutMs: number;
  /** The file's own workers: stopped first, while the receiver and stack they use are still up. */
  stopWorkers?: () => Promise<void>;
  /** The file's own servers and files: stopped last, once the stack no longer uses them. */
  stopServers?: () => Promise<void>;
}): FaultTestBed {
  let stack: Stack | undefined;
  let receiver: Receiver | undefined;

  beforeAll(async () => {
    stack = await options.start();
  }, options.startTimeoutMs);
  afterAll(async () => {
    await options.stopWorkers?.();
    await receiver?.close();
    await stack?.stop();
    await options.stopServers?.();
  });

  const testBed: FaultTestBed = {
    get stack() {
      // A read at load time, before beforeAll, would otherwise be an undefined that fails far from its cause.
      if (!stack) throw new Error("the fault test bed's stack is read before beforeAll has started it");
      return stack;
    },
    async prepareLeadFlow(leads) {
      const prepared = await prepareLeadFlow(testBed.stack, leads);
      receiver = prepared.receiver;
      return prepared;
    },
  };
  return testBed;
}

/** A line in the test output saying what the fault did, for timings and the report. */
export function note(file: string, line: string): void {
  console.log(`[${file}] ${line}`);
}
