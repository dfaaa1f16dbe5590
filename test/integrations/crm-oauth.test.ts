import type { Page } from 'playwright-core';
import { startStack } from '../setup/stack';
import { signUp, useBrowserStack, watchPage } from '../dashboard/browser';
import { startCrmVendors, stopCrmVendors, vendorEnv, type CrmVendors } from './crm-oauth-vendors';
import {
  client,
  draftSignalFor,
  expectAnswer,
  FAST_DELIVERY_ENV,
  ingestJobChanger,
  settledDeliveries,
  type Client,
} from './helpers';

/**
 * CRMs and Google Sheets connected by OAuth from the dashboard, in the browser, against local
 * stand-ins of each vendor's authorization server and API; then leads pushed to each, tokens
 * refreshed, a refused refresh shown as "reconnect", and a disconnect revoking at the vendor.
 */
let vendors: CrmVendors;
const session = useBrowserStack(async () => {
  vendors = await startCrmVendors();
  return startStack({
    env: { ...vendorEnv(vendors), ...FAST_DELIVERY_ENV },
  });
});
afterAll(() => stopCrmVendors(vendors));

const SPREADSHEET = 'sheet-1AbCdEfGhIjK';
let page: Page;
let watched: ReturnType<typeof watchPage>;
let api: Client;
let accountId: string;
const connectionIds: Record<string, string> = {};

beforeAll(async () => {
  vendors.sheets.spreadsheets.set(SPREADSHEET, new Map([['Leads', []]]));
  page = await session.freshPage();
  watched = watchPage(page);
  await signUp(page, session.stack.url, 'crm-owner@example.com');
  [{ account_id: accountId }] = await session.stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [
    'crm-owner@example.com',
  ]);
  const key = await session.stack.services.apiKeys.create(accountId, { name: 'tests' });
  await session.stack.services.credits.grant(accountId, 500, 'test credits');
  api = client(session.stack, { accountId, keyId: key.id, apiKey: key.apiKey, webhookSecret: key.webhookSecret });
});

/** The person's part: Connect on our page, Allow on the vendor's, back on ours with the notice. */
async function connectInBrowser(provider: string, options: { allow?: boolean; link?: string } = {}): Promise<string> {
  await page.goto(`${session.stack.url}/integrations`);
  await page.click(options.link ?? `#connect-${provider}`);
  await page.waitForSelector('#allow');
  await page.click(options.allow === false ? '#deny' : '#allow');
  await page.waitForURL(`${session.stack.url}/integrations/${provider}/callback?**`);
  return ((await page.textContent('.notice')) ?? '').replace(/\s+/g, ' ').trim();
}

async function leadTo(destinations: Record<string, unknown>) {
  const person = await ingestJobChanger(session.stack);
  const signal = await draftSignalFor(api, person);
  expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations }), 200);
  expectAnswer(await api.patch(`/signals/${signal.id}`, { status: 'active' }), 200);
  return { person, signal };
}

const allFour = () => ({
  hubspot: { enabled: true },
  salesforce: { enabled: true },
  pipedrive: { enabled: true },
  'google-sheets': { enabled: true, spreadsheetId: SPREADSHEET, sheetName: 'Leads' },
});

test('a person connects each of the four tools in the browser, and a lead arrives at each', async () => {
  for (const provider of ['hubspot', 'salesforce', 'pipedrive', 'google-sheets'] as const) {
    expect(await connectInBrowser(provider)).toMatch(/connected/);
    expect(vendors[provider].oauth.challenges).toHaveLength(1);
  }
  const connections = await session.stack.services.crmConnections.list(accountId);
  expect(connections.map((c) => [c.provider, c.status])).toEqual([
    ['hubspot', 'connected'],
    ['salesforce', 'connected'],
    ['pipedrive', 'connected'],
    ['google-sheets', 'connected'],
  ]);
  for (const c of connections) connectionIds[c.provider] = c.integrationId;
  // The API host of a connection comes from the token answer (Salesforce instance_url, Pipedrive api_domain).
  expect(connections.find((c) => c.provider === 'pipedrive')?.label).toBe(new URL(vendors.pipedrive.api.url).host);
  const stored = JSON.stringify(await session.stack.db.query(`SELECT * FROM crm_connections`));
  for (const grant of Object.values(vendors).flatMap((v) => v.oauth.grants))
    expect(stored).not.toContain(grant.accessToken);

  // On the signal's page: each tool set to its connection, the spreadsheet named, then Activate.
  const person = await ingestJobChanger(session.stack);
  const signal = await draftSignalFor(api, person);
  await page.goto(`${session.stack.url}/signals/${signal.id}`);
  for (const provider of ['hubspot', 'salesforce', 'pipedrive', 'google-sheets'])
    await page.selectOption(`#dest-${provider}`, connectionIds[provider]!);
  await page.fill('#sheets-spreadsheet', SPREADSHEET);
  await page.fill('#sheets-sheet', 'Leads');
  await page.click('#destinations button[type="submit"]');
  await page.waitForSelector('.notice.ok:has-text("Destinations saved")');
  await page.click('button:has-text("Activate")');
  await page.waitForSelector('.notice.ok:has-text("Active")');
  const deliveries = await settledDeliveries(api, signal.id, 4);
  expect(deliveries.map((d) => [d.route, d.status, d.lastError]).sort()).toEqual([
    ['google-sheets', 'delivered', null],
    ['hubspot', 'delivered', null],
    ['pipedrive', 'delivered', null],
    ['salesforce', 'delivered', null],
  ]);
  // The destinations were stored with the connection each resolved to.
  const read = expectAnswer(await api.get(`/signals/${signal.id}`), 200);
  expect(read.destinations.salesforce).toEqual({ enabled: true, integrationId: connectionIds.salesforce });

  expect(vendors.hubspot.api.contacts.map((c) => c.properties.email)).toContain(person.email);
  expect(vendors.salesforce.api.leads).toContainEqual(
    expect.objectContaining({ Email: person.email, LastName: person.lastName, Company: person.companyName }),
  );
  const pdPerson = vendors.pipedrive.api.persons.find((p) => p.emails.some((e) => e.value === person.email));
  expect(vendors.pipedrive.api.leads).toContainEqual(expect.objectContaining({ person_id: pdPerson?.id }));
  const rows = vendors.sheets.spreadsheets.get(SPREADSHEET)!.get('Leads')!;
  expect(rows[0]?.[0]).toBe('Lead id');
  expect(rows.slice(1).map((r) => r[5])).toEqual([person.email]);

  // "off" removes a destination; the others stay as they were.
  await page.selectOption('#dest-pipedrive', '');
  await page.click('#destinations button[type="submit"]');
  await page.waitForSelector('.notice.ok:has-text("Destinations saved")');
  expect(Object.keys(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).sort()).toEqual([
    'google-sheets',
    'hubspot',
    'salesforce',
  ]);
  expect(watched.errors).toEqual([]);
});

test('tokens are refreshed: before they expire (HubSpot gives 30 s) and once on a 401 (Salesforce gives no lifetime)', async () => {
  const refreshes = (provider: keyof CrmVendors) =>
    vendors[provider].oauth.grants.filter((g) => g.grantType === 'refresh_token').length;
  const before = {
    hubspot: refreshes('hubspot'),
    salesforce: refreshes('salesforce'),
    pipedrive: refreshes('pipedrive'),
  };
  const hubspotCalls = vendors.hubspot.api.received.length;
  const hubspotGrants = vendors.hubspot.oauth.grants.length;
  // Every token the vendors issued stops working, as when their hour passes.
  for (const vendor of Object.values(vendors)) vendor.oauth.expireAccessTokens();
  const { person, signal } = await leadTo(allFour());
  const deliveries = await settledDeliveries(api, signal.id, 4);
  expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
  expect(refreshes('hubspot')).toBeGreaterThan(before.hubspot);
  expect(refreshes('salesforce')).toBe(before.salesforce + 1);
  expect(refreshes('pipedrive')).toBe(before.pipedrive + 1);
  // HubSpot's token was renewed before it ran out: every call of this push carried a token issued now, none met a 401.
  const issuedNow = vendors.hubspot.oauth.grants.slice(hubspotGrants).map((g) => `Bearer ${g.accessToken}`);
  const used = vendors.hubspot.api.received.slice(hubspotCalls).map((r) => r.headers.authorization);
  expect(used.length).toBeGreaterThan(0);
  for (const authorization of used) expect(issuedNow).toContain(authorization);
  expect(vendors.salesforce.api.leads.some((l) => l.Email === person.email)).toBe(true);

  // Pipedrive's refresh tokens are single-use: the rotated one is stored and works next time.
  vendors.pipedrive.oauth.expireAccessTokens();
  const next = await leadTo({ pipedrive: { enabled: true } });
  expect((await settledDeliveries(api, next.signal.id, 1))[0].status).toBe('delivered');
  expect(refreshes('pipedrive')).toBe(before.pipedrive + 2);
});

test('a refresh the vendor refuses marks the connection broken, fails the route with that reason, and Reconnect mends it', async () => {
  vendors.sheets.oauth.revokeEverything();
  const { signal } = await leadTo({ 'google-sheets': { enabled: true, spreadsheetId: SPREADSHEET } });
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'google-sheets', status: 'failed', attempts: 1 });
  expect(delivery.lastError).toMatch(/invalid_grant.*reconnect it in the dashboard/);

  await page.goto(`${session.stack.url}/integrations`);
  const row = page.locator('#crm-connections tr[data-provider="google-sheets"]');
  expect(await row.textContent()).toMatch(/broken/);
  // The API and the tool server say so too, with the vendor's reason.
  const sheetsAccounts = async () =>
    expectAnswer(await api.get('/integrations'), 200).integrations.find(
      (i: { provider: string }) => i.provider === 'google-sheets',
    ).accounts;
  expect(await sheetsAccounts()).toEqual([
    expect.objectContaining({
      integrationId: connectionIds['google-sheets'],
      status: 'broken',
      brokenReason: expect.stringMatching(/invalid_grant/),
    }),
  ]);
  expect(
    await connectInBrowser('google-sheets', {
      link: '#crm-connections tr[data-provider="google-sheets"] a:has-text("Reconnect")',
    }),
  ).toMatch(/connected/);
  const mended = (await session.stack.services.crmConnections.list(accountId)).filter(
    (c) => c.provider === 'google-sheets',
  );
  expect(mended).toEqual([
    expect.objectContaining({ integrationId: connectionIds['google-sheets'], status: 'connected' }),
  ]);
  expect(await sheetsAccounts()).toEqual([
    {
      integrationId: connectionIds['google-sheets'],
      label: expect.any(String),
      connectedAt: expect.any(String),
      status: 'connected',
    },
  ]);

  const again = await leadTo({ 'google-sheets': { enabled: true, spreadsheetId: SPREADSHEET } });
  expect((await settledDeliveries(api, again.signal.id, 1))[0].status).toBe('delivered');
});

test("a 429 waits the vendor's hint and the push goes on; a Salesforce duplicate rule fails the route at once", async () => {
  vendors.pipedrive.api.failNext(429, { retryAfter: 1, headers: { 'x-ratelimit-remaining': '0' } });
  const limited = await leadTo({ pipedrive: { enabled: true } });
  const [retried] = await settledDeliveries(api, limited.signal.id, 1);
  expect(retried).toMatchObject({ route: 'pipedrive', status: 'delivered', attempts: 2 });

  const person = await ingestJobChanger(session.stack);
  vendors.salesforce.api.duplicateEmails.add(person.email);
  const signal = await draftSignalFor(api, person);
  expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations: { salesforce: { enabled: true } } }), 200);
  expectAnswer(await api.patch(`/signals/${signal.id}`, { status: 'active' }), 200);
  const [refused] = await settledDeliveries(api, signal.id, 1);
  expect(refused).toMatchObject({ route: 'salesforce', status: 'failed', attempts: 1 });
  expect(refused.lastError).toMatch(/HTTP 400: Use one of these records\?/);
});

test('Disconnect revokes the grant at the vendor and removes the connection', async () => {
  await page.goto(`${session.stack.url}/integrations`);
  await page.click('#crm-connections tr[data-provider="salesforce"] button:has-text("Disconnect")');
  await page.waitForSelector('text=revoked at the tool');
  expect(watched.dialogs).toEqual([expect.stringMatching(/^confirm: Disconnect\?/)]);
  expect(watched.errors).toEqual([]);
  expect(vendors.salesforce.oauth.revoked).toHaveLength(1);
  expect((await session.stack.services.crmConnections.list(accountId)).map((c) => c.provider)).not.toContain(
    'salesforce',
  );
});

test('refusals change nothing: the vendor denied, a forged state, an unknown tool', async () => {
  const count = async () => (await session.stack.services.crmConnections.list(accountId)).length;
  const before = await count();
  expect(await connectInBrowser('pipedrive', { allow: false })).toMatch(/did not connect: access_denied/);

  const forged = await page.goto(`${session.stack.url}/integrations/hubspot/callback?code=abc&state=forged`);
  expect(forged?.status()).toBe(400);
  expect(await page.textContent('.notice')).toMatch(/unknown, expired or was started by someone else/);

  const unknown = await page.goto(`${session.stack.url}/integrations/myspace/connect`);
  expect(unknown?.status()).toBe(404);
  expect(await count()).toBe(before);
});
