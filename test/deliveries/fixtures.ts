import { randomBytes } from 'node:crypto';
import { startStack, type Stack, STACK_START_MS } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import { startReceiver, type Receiver } from './receiver';

/**
 * Leads to deliver: fresh job changes only one signal matches (its own title word), and an
 * active signal whose activation evaluates at once and hands the leads to their routes.
 * No vendor's format: the rows are the store's own (src/db/migrations), the `job_change` event
 * and the job-changes config follow ../shared/spec/interface.md ("Events", "Job-changes
 * configuration"), and what a receiver gets is its "Lead" and "Webhook signature" sections.
 */

const COMPANY_ID = 'delivery-co';

/** The company every lead works at; once per test database. */
export async function seedCompany(stack: Stack): Promise<void> {
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain, industry, employee_count, size_band, hq_country_code, hq_city)
     VALUES ($1, 'Acme', 'acme', 'acme.com', 'Software Development', 120, '51-200', 'US', 'Austin') ON CONFLICT (id) DO NOTHING`,
    [COMPANY_ID],
  );
}

/** `count` job changes with a title word of their own; answers the word. */
export async function jobChanges(stack: Stack, count: number): Promise<string> {
  const tag = `Zeta${randomBytes(4).toString('hex')}`;
  for (let i = 0; i < count; i++) {
    await stack.db.query(
      `INSERT INTO people (id, first_name, last_name, title, persona, company_id, city, country_code, region_code)
       VALUES ($1, 'Ada', $2, $3, 'Chief Technology Officer', $4, 'Austin', 'US', 'TX')`,
      [`dp-${tag}-${i}`, `Lovelace${i}`, `Head of ${tag}`, COMPANY_ID],
    );
    await stack.db.query(
      `INSERT INTO events (id, type, occurred_at, company_id, person_id, data) VALUES ($1, 'job_change', now() - make_interval(hours => $3::int), $4, $2,
       '{"previous_title":"VP Eng","previous_company":"Beta","new_title":"CTO","new_company":"Acme","new_job_started_on":"10/2026","new_job_start_month":"2026-10","change_type":"company"}')`,
      [`de-${tag}-${i}`, `dp-${tag}-${i}`, 24 + i, COMPANY_ID],
    );
  }
  return tag;
}

/** A signal over `tag`'s job changes; active unless told otherwise (activation produces the leads). */
export async function signalFor(
  stack: Stack,
  account: TestAccount,
  tag: string,
  options: { webhookUrl?: string; status?: 'active' | 'draft' } = {},
): Promise<string> {
  const created = await call(`${stack.url}/api/v1/signals/job-changes`, {
    token: account.apiKey,
    body: {
      name: `Deliveries ${tag}`,
      status: options.status ?? 'active',
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
      config: { customTitles: [tag], locations: ['Texas'] },
    },
  });
  if (created.status !== 201) throw new Error(`signal not created: ${created.text}`);
  return created.body.id;
}

/** `count` leads produced for a new active signal delivering to `webhookUrl`. */
export async function leadsTo(stack: Stack, account: TestAccount, webhookUrl: string, count = 1): Promise<string> {
  return signalFor(stack, account, await jobChanges(stack, count), { webhookUrl });
}

export async function deliveriesOf(stack: Stack, account: TestAccount, signalId: string): Promise<any[]> {
  const items: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await call(`${stack.url}/api/v1/signals/${signalId}/deliveries?limit=100&offset=${offset}`, {
      token: account.apiKey,
    });
    if (page.status !== 200) throw new Error(`deliveries not listed: ${page.text}`);
    items.push(...page.body.items);
    if (!page.body.hasMore) return items;
  }
}

/** Polls the signal's deliveries until `done` holds for them. */
export async function waitForDeliveries(
  stack: Stack,
  account: TestAccount,
  signalId: string,
  done: (items: any[]) => boolean,
  timeoutMs = 20_000,
): Promise<any[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveriesOf(stack, account, signalId);
    if (done(items)) return items;
    if (Date.now() > until) throw new Error(`deliveries not as expected: ${JSON.stringify(items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every lead delivery of the signal (at least `count`) has `status`. */
export const leadDeliveriesAre =
  (status: string, count = 1) =>
  (items: any[]) => {
    const leads = items.filter((d) => d.kind === 'lead');
    return leads.length >= count && leads.every((d) => d.status === status);
  };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The settings most delivery files share: a signal is evaluated only when activated, so each test
 * decides when its leads are produced, and retries come quickly enough to be watched in a test.
 * A file overrides the one or two settings its tests are about.
 */
export const DELIVERY_ENV: Record<string, string> = {
  SIGNAL_EVALUATION_INTERVAL: '1h',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_INITIAL_MS: '200',
  WEBHOOK_RETRY_MAX_INTERVAL_MS: '1000',
  WEBHOOK_RETRY_WINDOW_MS: '20000',
};

export interface DeliveryTestBed {
  /** The file's running service; read it in hooks and tests, not while the file is loaded. */
  readonly stack: Stack;
  /** The account whose signals the tests deliver for. */
  readonly account: TestAccount;
  /** A receiver verifying with `secret` (by default the account's current one); closed after the file's tests. */
  receiver(secret?: string | null): Promise<Receiver>;
}

/** One file's service, account and receivers: started before its tests and stopped after them. */
export function deliveryTestBed(options: {
  env: Record<string, string>;
  credits: number;
  /** Whether to add the company the leads of `leadsTo` work at; yes unless told otherwise. */
  seedCompany?: boolean;
}): DeliveryTestBed {
  let stack: Stack | undefined;
  let account: TestAccount | undefined;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    stack = await startStack({ env: options.env });
    account = await createAccount(stack, { credits: options.credits });
    if (options.seedCompany !== false) await seedCompany(stack);
  }, STACK_START_MS);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.stop();
  });

  // A read at load time, before beforeAll, would otherwise be an undefined that fails far from its cause.
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the delivery test bed's ${what} is read before beforeAll has started it`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'stack');
    },
    get account() {
      return started(account, 'account');
    },
    async receiver(secret = started(account, 'account').webhookSecret) {
      const r = await startReceiver({ secret });
      receivers.push(r);
      return r;
    },
  };
}
