import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, type Answer, type TestAccount } from '../setup/http';
import { start as startLemlist, type LemlistServer } from '../vendors/lemlist-server';
import { start as startInstantly, type InstantlyServer } from '../vendors/instantly-server';
import { start as startSmartlead, type SmartleadServer } from '../vendors/smartlead-server';
import { start as startHubSpot, type HubSpotServer } from '../vendors/hubspot-server';

/**
 * The service pointed at local vendors (lemlist, Instantly, Smartlead, HubSpot), as a customer's
 * accounts at those tools would answer it, plus the client calls these suites make.
 */
export interface Vendors {
  lemlist: LemlistServer;
  instantly: InstantlyServer;
  smartlead: SmartleadServer;
  hubspot: HubSpotServer;
}

export async function startVendors(): Promise<Vendors> {
  const [lemlist, instantly, smartlead, hubspot] = await Promise.all([
    startLemlist(),
    startInstantly(),
    startSmartlead(),
    startHubSpot(),
  ]);
  return { lemlist, instantly, smartlead, hubspot };
}

export async function stopVendors(vendors: Vendors | undefined): Promise<void> {
  if (!vendors) return;
  await Promise.all(Object.values(vendors).map((v: { close(): Promise<void> }) => v.close()));
}

/** Signals that evaluate only when told, and deliveries that retry within seconds: vendor tests settle fast. */
export const FAST_DELIVERY_ENV = {
  SIGNAL_EVALUATION_INTERVAL: '1h',
  RATE_LIMIT_PER_SECOND: '100000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_INITIAL_MS: '200',
  WEBHOOK_RETRY_MAX_INTERVAL_MS: '1000',
  WEBHOOK_RETRY_WINDOW_MS: '20000',
};

export function startIntegrationsStack(vendors: Vendors, options: { worker?: boolean } = {}): Promise<Stack> {
  return startStack({
    ...options,
    env: {
      LEMLIST_API_URL: vendors.lemlist.url,
      INSTANTLY_API_URL: vendors.instantly.url,
      SMARTLEAD_API_URL: vendors.smartlead.url,
      HUBSPOT_API_URL: vendors.hubspot.url,
      ...FAST_DELIVERY_ENV,
    },
  });
}

/** A client of the public API bound to one key. */
export function client(stack: Stack, account: TestAccount) {
  const at = (path: string) => `${stack.url}/api/v1${path}`;
  const token = account.apiKey;
  return {
    get: (path: string) => call(at(path), { token }),
    put: (path: string, body: unknown) => call(at(path), { method: 'PUT', token, body }),
    post: (path: string, body?: unknown) => call(at(path), { method: 'POST', token, body }),
    patch: (path: string, body: unknown) => call(at(path), { method: 'PATCH', token, body }),
  };
}
export type Client = ReturnType<typeof client>;

/** Status and body compared together, so a failure shows the whole answer. */
export function expectAnswer<T = any>(answer: Answer<T>, status: number): T {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });
  return answer.body;
}

export const uid = (prefix = 'zq') => `${prefix}${randomBytes(5).toString('hex')}`;

/** The operator's stand-in for the dashboard's OAuth: a CRM connection of the account. */
export async function connectCrm(
  stack: Stack,
  accountId: string,
  provider: string,
  accessToken: string,
): Promise<void> {
  const answer = await call(`${stack.url}/admin/v1/accounts/${accountId}/crm-connections`, {
    token: TEST_ADMIN_TOKEN,
    body: { provider, accessToken },
  });
  expect(answer.status).toBe(201);
}

export interface JobChanger {
  tag: string;
  title: string;
  email: string;
  firstName: string;
  lastName: string;
  companyName: string;
  domain: string;
  linkedinUrl: string;
}

/**
 * One person who changed jobs, through the operator's ingestion endpoint (contract section 3).
 * The title carries a tag of its own, so only the signal filtering on that tag sees this person.
 */
export async function ingestJobChanger(stack: Stack, options: { email?: string | null } = {}): Promise<JobChanger> {
  const tag = uid();
  const person: JobChanger = {
    tag,
    title: `CTO ${tag}`,
    email: options.email === undefined ? `grace.${tag}@${tag}.com` : (options.email ?? ''),
    firstName: 'Grace',
    lastName: `Hopper ${tag}`,
    companyName: `${tag} Labs`,
    domain: `${tag}.com`,
    linkedinUrl: `https://www.linkedin.com/in/grace-${tag}`,
  };
  const records = [
    {
      kind: 'company',
      id: `co-${tag}`,
      name: person.companyName,
      domain: person.domain,
      industry: 'Software Development',
      employeeCount: 120,
      hqCountryCode: 'US',
      hqCity: 'Austin',
    },
    {
      kind: 'person',
      id: `pe-${tag}`,
      firstName: person.firstName,
      lastName: person.lastName,
      title: person.title,
      companyId: `co-${tag}`,
      linkedinUrl: person.linkedinUrl,
      email: options.email === null ? null : person.email,
      city: 'Austin',
      countryCode: 'US',
      startedOn: '2026-10',
    },
    {
      kind: 'event',
      id: `ev-${tag}`,
      type: 'job_change',
      occurredAt: new Date(Date.now() - 86_400_000).toISOString(),
      companyId: `co-${tag}`,
      personId: `pe-${tag}`,
      data: {
        previous_title: 'VP Engineering',
        previous_company: 'Globex',
        new_title: person.title,
        new_company: person.companyName,
        new_job_started_on: '10/2026',
        new_job_start_month: '2026-10',
        change_type: 'company',
      },
    },
  ];
  const answer = await call(`${stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    rawBody: records.map((r) => JSON.stringify(r)).join('\n') + '\n',
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 200,
    body: { accepted: 3, duplicates: 0, rejected: 0, errors: [] },
  });
  return person;
}

/** A draft job-changes signal that matches only this person, with emails found (`getEmails`). */
export async function draftSignalFor(
  api: Client,
  person: JobChanger,
  options: { webhookUrl?: string; getEmails?: boolean } = {},
): Promise<{ id: string; name: string }> {
  const body = expectAnswer(
    await api.post('/signals/job-changes', {
      name: `New CTOs ${person.tag}`,
      status: 'draft',
      config: { customTitles: [person.tag], getEmails: options.getEmails ?? true },
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    }),
    201,
  );
  return { id: body.id, name: body.name };
}

/** Polls `read` until `done` holds; fails with the last value seen. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The signal's lead deliveries once none is pending any more. */
export async function settledDeliveries(api: Client, signalId: string, count: number): Promise<any[]> {
  const page = await waitFor(
    `${count} settled deliveries of ${signalId}`,
    async () => expectAnswer(await api.get(`/signals/${signalId}/deliveries`), 200),
    (p: any) => p.items.filter((d: any) => d.kind === 'lead' && d.status !== 'pending').length >= count,
  );
  return page.items.filter((d: any) => d.kind === 'lead');
}

export async function onlyLead(api: Client, signalId: string): Promise<any> {
  const page = await waitFor(
    `the lead of ${signalId}`,
    async () => expectAnswer(await api.get(`/signals/${signalId}/leads`), 200),
    (p: any) => p.total >= 1,
  );
  expect(page.total).toBe(1);
  return page.leads[0];
}

export interface WebhookReceiver {
  url: string;
  bodies: any[];
  close(): Promise<void>;
}

/** A plain receiver answering 200 and keeping each JSON body. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
