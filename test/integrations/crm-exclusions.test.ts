import { randomBytes } from 'node:crypto';
import { startStack, type Stack } from '../setup/stack';
import { evaluateNow } from '../setup/evaluation';
import { call } from '../setup/http';
import { sessionCookieOf, signUpOverHttp } from '../setup/mailbox';
import { startOAuthServer, type OAuthServer } from '../vendors/oauth-server';
import {
  startHubSpotRecords,
  startPipedriveRecords,
  startSalesforceRecords,
  type RecordServer,
  type StoredRecord,
} from '../vendors/crm-record-servers';
import type { CrmProvider } from '../../src/services/crm/vendors';

/**
 * Exclusions from the customer's CRM: each vendor's contacts and companies synced from local
 * stand-ins of its API (its documented format, paging and errors) through the connection's
 * OAuth tokens: a full first run, then only what was modified since; an access token dying
 * mid-sync refreshed through the connection's refresh; a refused refresh shown as broken; and
 * a signal that excludes them produces no lead (and no charge) for a person or company the CRM
 * holds. No worker runs for production: the test evaluates as the signal workflow does; the
 * schedule's run is checked with a worker at the end.
 */
let stack: Stack;
const oauth = {} as Record<'hubspot' | 'salesforce' | 'pipedrive', OAuthServer>;
const api = {} as Record<'hubspot' | 'salesforce' | 'pipedrive', RecordServer>;
let accountId: string;
let memberId: string;
let apiKey: string;
let cookie: string;
const connections = {} as Record<'hubspot' | 'salesforce' | 'pipedrive', string>;

const at = (iso: string) => new Date(iso);
const record = (id: string, values: string[], modified: string): StoredRecord => ({
  id,
  values,
  modifiedAt: at(modified),
});

beforeAll(async () => {
  const client = (vendor: string) => ({ clientId: `${vendor}-client`, clientSecret: `${vendor}-secret` });
  oauth.hubspot = await startOAuthServer({
    vendor: 'HubSpot',
    ...client('hubspot'),
    clientAuth: 'post',
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/2026-03/token',
    deletePath: '/oauth/v1/refresh-tokens',
    expiresIn: 1800,
    rotateRefreshTokens: false,
  });
  api.hubspot = await startHubSpotRecords((h) => oauth.hubspot.accepts(h));
  api.salesforce = await startSalesforceRecords((h) => oauth.salesforce.accepts(h));
  oauth.salesforce = await startOAuthServer({
    vendor: 'Salesforce',
    ...client('salesforce'),
    clientAuth: 'post',
    authorizePath: '/services/oauth2/authorize',
    tokenPath: '/services/oauth2/token',
    revokePath: '/services/oauth2/revoke',
    expiresIn: null,
    rotateRefreshTokens: false,
    extra: () => ({ instance_url: api.salesforce.url, scope: 'api refresh_token' }),
  });
  api.pipedrive = await startPipedriveRecords((h) => oauth.pipedrive.accepts(h));
  oauth.pipedrive = await startOAuthServer({
    vendor: 'Pipedrive',
    ...client('pipedrive'),
    clientAuth: 'basic',
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    revokePath: '/oauth/revoke',
    expiresIn: 3599,
    rotateRefreshTokens: true,
    extra: () => ({ api_domain: api.pipedrive.url, scope: 'contacts:full' }),
  });
  stack = await startStack({
    worker: false,
    env: {
      HUBSPOT_CLIENT_ID: 'hubspot-client',
      HUBSPOT_CLIENT_SECRET: 'hubspot-secret',
      HUBSPOT_AUTHORIZE_URL: `${oauth.hubspot.url}/oauth/authorize`,
      HUBSPOT_TOKEN_URL: `${oauth.hubspot.url}/oauth/2026-03/token`,
      HUBSPOT_API_URL: api.hubspot.url,
      SALESFORCE_CLIENT_ID: 'salesforce-client',
      SALESFORCE_CLIENT_SECRET: 'salesforce-secret',
      SALESFORCE_LOGIN_URL: oauth.salesforce.url,
      PIPEDRIVE_CLIENT_ID: 'pipedrive-client',
      PIPEDRIVE_CLIENT_SECRET: 'pipedrive-secret',
      PIPEDRIVE_OAUTH_URL: oauth.pipedrive.url,
      SIGNAL_EVALUATION_INTERVAL: '1h',
    },
  });
  // A person signs up in the dashboard (its session reads the integrations page later).
  const email = `crm-${randomBytes(4).toString('hex')}@example.com`;
  const signUp = await signUpOverHttp(stack.url, { email, password: 'correct horse battery' });
  expect(signUp.status).toBe(302);
  cookie = sessionCookieOf(signUp);
  [{ account_id: accountId, id: memberId }] = await stack.db.query(
    `SELECT id, account_id FROM members WHERE email = $1`,
    [email],
  );
  apiKey = (await stack.services.apiKeys.create(accountId, { name: 'tests' })).apiKey;
  await stack.services.credits.grant(accountId, 100, 'test credits');
  for (const provider of ['hubspot', 'salesforce', 'pipedrive'] as const)
    connections[provider] = await connect(provider);

  await stack.db.query(`INSERT INTO companies (id, name, name_key, domain) VALUES
    ('xc_acme', 'Acme', 'acme', 'acme.com'),
    ('xc_known', 'Known', 'known', 'known.io'),
    ('xc_free', 'Free', 'free', 'free.org')`);
  await stack.db.query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id, email) VALUES
    ('xp_ada', 'Ada', 'A', 'CTO', 'Chief Technology Officer', 'xc_acme', 'ada@acme.com'),
    ('xp_bob', 'Bob', 'B', 'CTO', 'Chief Technology Officer', 'xc_acme', 'bob@acme.com'),
    ('xp_cy',  'Cy',  'C', 'CTO', 'Chief Technology Officer', 'xc_known', NULL),
    ('xp_di',  'Di',  'D', 'CTO', 'Chief Technology Officer', 'xc_free', 'di@free.org'),
    ('xp_ed',  'Ed',  'E', 'CTO', 'Chief Technology Officer', 'xc_free', 'ed@free.org')`);
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES
    ('xe_ada', 'job_change', now() - interval '5 days', 'xc_acme',  'xp_ada'),
    ('xe_bob', 'job_change', now() - interval '4 days', 'xc_acme',  'xp_bob'),
    ('xe_cy',  'job_change', now() - interval '3 days', 'xc_known', 'xp_cy'),
    ('xe_di',  'job_change', now() - interval '2 days', 'xc_free',  'xp_di'),
    ('xe_ed',  'job_change', now() - interval '1 days', 'xc_free',  'xp_ed')`);
});
afterAll(async () => {
  // No schedule left firing on the shared Temporal server.
  for (const id of Object.values(connections)) await stack?.services.crmSyncSchedules.remove(id);
  await stack?.stop();
  await Promise.all([...Object.values(oauth), ...Object.values(api)].map((server) => server?.close()));
});

/** The dashboard's connect flow, the person clicking Allow at the vendor. */
async function connect(provider: CrmProvider): Promise<string> {
  const redirectUri = `${stack.url}/integrations/${provider}/callback`;
  const consent = await stack.services.crmConnections.startAuthorization({
    accountId,
    memberId,
    provider,
    redirectUri,
  });
  consent.pathname += '/decision';
  consent.searchParams.set('decision', 'allow');
  const back = await fetch(consent, { redirect: 'manual' });
  const connected = await stack.services.crmConnections.completeAuthorization({
    memberId,
    provider,
    callbackUrl: new URL(back.headers.get('location')!),
    redirectUri,
    label: 'tests',
  });
  return connected.integrationId;
}

const rest = (path: string, init: Parameters<typeof call>[1] = {}) =>
  call(`${stack.url}/api/v1${path}`, { token: apiKey, ...init });

const held = async (connectionId: string) =>
  (
    await stack.db.query(`SELECT kind, value FROM crm_records WHERE connection_id = $1 ORDER BY kind, value`, [
      connectionId,
    ])
  ).map((row: { kind: string; value: string }) => `${row.kind}:${row.value}`);

const sync = (provider: 'hubspot' | 'salesforce' | 'pipedrive') =>
  stack.services.crmRecordSync.run(connections[provider]);

test('HubSpot: a full first run over every page, then only what was modified since, through a token refreshed mid-sync', async () => {
  api.hubspot.objects.set('contacts', [
    record('101', ['Ada@Acme.com'], '2026-01-01T10:00:00Z'),
    record('102', ['zoe@elsewhere.net', 'zoe.alt@elsewhere.net'], '2026-01-02T10:00:00Z'),
    record('103', ['not an email'], '2026-01-03T10:00:00Z'),
  ]);
  api.hubspot.objects.set('companies', [record('201', ['https://www.Known.io/about'], '2026-01-01T12:00:00Z')]);
  // The access token dies after the first page: the next call gets HubSpot's 401, refreshes, goes on.
  api.hubspot.afterPage = () => {
    oauth.hubspot.expireAccessTokens();
    api.hubspot.afterPage = null;
  };
  expect(await sync('hubspot')).toEqual({ state: 'synced', records: 4, full: true });
  expect(await held(connections.hubspot)).toEqual([
    'domain:known.io',
    'email:ada@acme.com',
    'email:zoe.alt@elsewhere.net',
    'email:zoe@elsewhere.net',
  ]);
  expect(oauth.hubspot.grants.map((g) => g.grantType)).toEqual(['authorization_code', 'refresh_token']);
  const refused = api.hubspot.reads.filter((r) => !r.authorized);
  expect(refused).toHaveLength(1);
  // The refused page was asked again with the new token, and paging went on to the end.
  expect(api.hubspot.reads.filter((r) => r.object === 'contacts').map((r) => [r.page, r.since, r.authorized])).toEqual([
    [null, null, true],
    ['2', null, false],
    ['2', null, true],
  ]);

  api.hubspot.reads.length = 0;
  api.hubspot.objects.get('contacts')!.push(record('104', ['new@customer.com'], '2026-02-01T10:00:00Z'));
  // Zoe's record changes address: her old addresses stop being excluded.
  api.hubspot.objects.get('contacts')![1] = record('102', ['zoe@moved.net'], '2026-02-02T10:00:00Z');
  // Contacts 103 (the boundary, again), 104 and 102, and company 201 (its boundary).
  expect(await sync('hubspot')).toEqual({ state: 'synced', records: 4, full: false });
  const contactReads = api.hubspot.reads.filter((r) => r.object === 'contacts');
  // Asked from the newest modification seen (inclusive, so the boundary record comes again).
  expect(contactReads[0]).toEqual({
    object: 'contacts',
    since: '2026-01-03T10:00:00.000Z',
    page: null,
    authorized: true,
  });
  expect(api.hubspot.reads.find((r) => r.object === 'companies')?.since).toBe('2026-01-01T12:00:00.000Z');
  expect(await held(connections.hubspot)).toEqual([
    'domain:known.io',
    'email:ada@acme.com',
    'email:new@customer.com',
    'email:zoe@moved.net',
  ]);
});

test('Salesforce: Contacts, Leads and Accounts by SOQL with nextRecordsUrl paging, a 401 mid-sync refreshed', async () => {
  api.salesforce.objects.set('Contact', [
    record('003A', ['c1@sf.example'], '2026-01-01T00:00:00Z'),
    record('003B', ['c2@sf.example'], '2026-01-02T00:00:00Z'),
    record('003C', ['c3@sf.example'], '2026-01-03T00:00:00Z'),
  ]);
  api.salesforce.objects.set('Lead', [record('00QA', ['lead@sf.example'], '2026-01-04T00:00:00Z')]);
  api.salesforce.objects.set('Account', [record('001A', ['www.sfco.com'], '2026-01-05T00:00:00Z')]);
  api.salesforce.afterPage = () => {
    oauth.salesforce.expireAccessTokens();
    api.salesforce.afterPage = null;
  };
  expect(await sync('salesforce')).toEqual({ state: 'synced', records: 5, full: true });
  expect(await held(connections.salesforce)).toEqual([
    'domain:sfco.com',
    'email:c1@sf.example',
    'email:c2@sf.example',
    'email:c3@sf.example',
    'email:lead@sf.example',
  ]);
  expect(oauth.salesforce.grants.map((g) => g.grantType)).toEqual(['authorization_code', 'refresh_token']);
  expect(api.salesforce.reads.filter((r) => r.page !== null).length).toBeGreaterThanOrEqual(2);

  api.salesforce.reads.length = 0;
  api.salesforce.objects.get('Lead')!.push(record('00QB', ['later@sf.example'], '2026-03-01T00:00:00Z'));
  expect(await sync('salesforce')).toEqual({ state: 'synced', records: 4, full: false });
  expect(api.salesforce.reads.map((r) => [r.object, r.since])).toEqual([
    ['Contact', '2026-01-03T00:00:00.000Z'],
    ['Lead', '2026-01-04T00:00:00.000Z'],
    ['Account', '2026-01-05T00:00:00.000Z'],
  ]);
  expect(await held(connections.salesforce)).toContain('email:later@sf.example');
});

test('Pipedrive: persons (every email) and organizations (website) by updated_since and cursor; a weekly full read drops deletions', async () => {
  api.pipedrive.objects.set('persons', [
    record('1', ['p1@pd.example', 'p1.home@pd.example'], '2026-01-01T00:00:00Z'),
    record('2', ['p2@pd.example'], '2026-01-02T00:00:00Z'),
    record('3', ['p3@pd.example'], '2026-01-03T00:00:00Z'),
  ]);
  api.pipedrive.objects.set('organizations', [record('7', ['http://pdorg.com'], '2026-01-01T00:00:00Z')]);
  expect(await sync('pipedrive')).toEqual({ state: 'synced', records: 4, full: true });
  expect(await held(connections.pipedrive)).toEqual([
    'domain:pdorg.com',
    'email:p1.home@pd.example',
    'email:p1@pd.example',
    'email:p2@pd.example',
    'email:p3@pd.example',
  ]);
  expect(api.pipedrive.reads.filter((r) => r.object === 'persons').map((r) => r.page !== null)).toEqual([false, true]);

  // Person 2 is deleted in Pipedrive: no modified-since read can see that; the weekly full read does.
  api.pipedrive.objects.set(
    'persons',
    api.pipedrive.objects.get('persons')!.filter((p) => p.id !== '2'),
  );
  expect((await sync('pipedrive')).state).toBe('synced');
  expect(await held(connections.pipedrive)).toContain('email:p2@pd.example');
  await stack.db.query(`UPDATE crm_syncs SET last_full_sync_at = now() - interval '8 days' WHERE connection_id = $1`, [
    connections.pipedrive,
  ]);
  api.pipedrive.reads.length = 0;
  expect(await sync('pipedrive')).toEqual({ state: 'synced', records: 3, full: true });
  expect(api.pipedrive.reads.every((r) => r.since === null)).toBe(true);
  expect(await held(connections.pipedrive)).not.toContain('email:p2@pd.example');
});

test("Pipedrive's 429: a short Retry-After is waited out in the run; a long one ends it, and the next run goes on from the cursor", async () => {
  api.pipedrive.objects
    .get('persons')!
    .push(
      record('4', ['p4@pd.example'], '2026-02-01T00:00:00Z'),
      record('5', ['p5@pd.example'], '2026-02-02T00:00:00Z'),
      record('6', ['p6@pd.example'], '2026-02-03T00:00:00Z'),
    );
  // Pipedrive's rate limit answer (429, Retry-After and its x-ratelimit headers), for the second page.
  const throttleSecondPage = (seconds: number) => {
    api.pipedrive.afterPage = () => {
      api.pipedrive.throttleNext = {
        headers: {
          'retry-after': String(seconds),
          'x-ratelimit-limit': '80',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(seconds),
        },
        body: { success: false, error: 'Request over limit', errorCode: 429 },
      };
      api.pipedrive.afterPage = null;
    };
  };
  throttleSecondPage(1);
  expect(await sync('pipedrive')).toMatchObject({ state: 'synced', full: false });
  expect(await held(connections.pipedrive)).toEqual(
    expect.arrayContaining(['email:p4@pd.example', 'email:p5@pd.example', 'email:p6@pd.example']),
  );

  // Persons 4 to 6 change their addresses; this time Pipedrive asks for two minutes.
  const persons = api.pipedrive.objects.get('persons')!;
  for (const [id, at] of [
    ['4', '2026-03-01T00:00:00Z'],
    ['5', '2026-03-02T00:00:00Z'],
    ['6', '2026-03-03T00:00:00Z'],
  ] as const)
    Object.assign(
      persons.find((p) => p.id === id)!,
      { values: [`p${id}.new@pd.example`], modifiedAt: new Date(at) },
    );
  throttleSecondPage(120);
  await expect(sync('pipedrive')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });
  const [state] = await stack.db.query(`SELECT cursors, last_error FROM crm_syncs WHERE connection_id = $1`, [
    connections.pipedrive,
  ]);
  expect(state.last_error).toMatch(/429/);
  // The first page (persons 4 and 5, from the cursor at person 6's old time) was stored with its cursor.
  expect(state.cursors.persons).toBe('2026-03-02T00:00:00.000Z');
  expect(await held(connections.pipedrive)).toContain('email:p5.new@pd.example');
  expect(await held(connections.pipedrive)).toContain('email:p6@pd.example');

  api.pipedrive.reads.length = 0;
  expect(await sync('pipedrive')).toMatchObject({ state: 'synced', full: false });
  expect(api.pipedrive.reads[0]).toMatchObject({ object: 'persons', since: '2026-03-02T00:00:00.000Z', page: null });
  expect(await held(connections.pipedrive)).toContain('email:p6.new@pd.example');
  expect(await held(connections.pipedrive)).not.toContain('email:p6@pd.example');
  const [after] = await stack.db.query(`SELECT last_error FROM crm_syncs WHERE connection_id = $1`, [
    connections.pipedrive,
  ]);
  expect(after.last_error).toBeNull();
});

const evaluate = async (signalId: string) => (await evaluateNow(stack, signalId)).produced;

const leadPeople = async (signalId: string) =>
  (
    await stack.db.query(`SELECT e.person_id FROM leads l JOIN events e ON e.id = l.event_id WHERE l.signal_id = $1`, [
      signalId,
    ])
  )
    .map((row: { person_id: string }) => row.person_id)
    .sort();

let signalId: string;

test("a signal excluding the HubSpot connection's contacts and companies produces and charges only the others", async () => {
  const created = await rest('/signals/job-changes', {
    body: { name: 'CTOs not in our CRM', status: 'draft', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  expect(created.status).toBe(201);
  signalId = created.body.id;
  const set = await rest(`/signals/${signalId}`, {
    method: 'PATCH',
    body: {
      status: 'active',
      crmExclusions: { connectionId: connections.hubspot, excludeExistingCrmContacts: true, excludeCrmCompanies: true },
    },
  });
  expect({ status: set.status, body: set.body.crmExclusions }).toEqual({
    status: 200,
    body: { connectionId: connections.hubspot, excludeExistingCrmContacts: true, excludeCrmCompanies: true },
  });
  expect(set.body.warnings.filter((w: { field: string }) => w.field === 'crmExclusions')).toEqual([]);

  const before = (await rest('/credits/balance')).body.balance as number;
  // Ada's email is a HubSpot contact, Cy's company (known.io) a HubSpot company: Bob, Di and Ed are leads.
  expect(await evaluate(signalId)).toBe(3);
  expect(await leadPeople(signalId)).toEqual(['xp_bob', 'xp_di', 'xp_ed']);
  const after = (await rest('/credits/balance')).body.balance as number;
  const charged = await stack.db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE signal_id = $1`, [signalId]);
  expect(charged[0].n).toBe(3);
  expect(before - after).toBeGreaterThan(0);

  const funnel = await rest(`/signals/${signalId}/funnel`);
  expect(funnel.status).toBe(200);
  const stage = funnel.body.stages.find((s: { filter: string }) => s.filter === 'crmExcluded');
  expect(stage).toMatchObject({ removed: 2 });
});

test('the exclusions are checked again inside production: a record synced after the evaluation still stops the lead', async () => {
  await stack.db.query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id, email)
    VALUES ('xp_fay', 'Fay', 'F', 'CTO', 'Chief Technology Officer', 'xc_free', 'fay@free.org')`);
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id)
    VALUES ('xe_fay', 'job_change', now() - interval '1 hour', 'xc_free', 'xp_fay')`);
  api.hubspot.objects.get('contacts')!.push(record('105', ['fay@free.org'], '2026-03-01T10:00:00Z'));
  expect((await sync('hubspot')).state).toBe('synced');
  expect(await evaluate(signalId)).toBe(0);
  expect(await leadPeople(signalId)).not.toContain('xp_fay');
});

test('crmExclusions names a CRM connection of the account, or is refused and changes nothing', async () => {
  for (const connectionId of ['00000000-0000-4000-8000-000000000000']) {
    const refused = await rest(`/signals/${signalId}`, {
      method: 'PATCH',
      body: { crmExclusions: { connectionId, excludeExistingCrmContacts: true } },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('crmExclusions.connectionId');
  }
  const unchanged = await rest(`/signals/${signalId}`);
  expect(unchanged.body.crmExclusions.connectionId).toBe(connections.hubspot);
  // null turns them off; set again for the tests after.
  const off = await rest(`/signals/${signalId}`, { method: 'PATCH', body: { crmExclusions: null } });
  expect(off.status).toBe(200);
  expect('crmExclusions' in off.body).toBe(false);
  const on = await rest(`/signals/${signalId}`, {
    method: 'PATCH',
    body: {
      crmExclusions: { connectionId: connections.hubspot, excludeExistingCrmContacts: true, excludeCrmCompanies: true },
    },
  });
  expect(on.body.crmExclusions.connectionId).toBe(connections.hubspot);
  const document = await call(`${stack.url}/api/v1/openapi.json`);
  expect(JSON.stringify(document.body.components.schemas.CrmExclusions)).toContain('excludeExistingCrmContacts');
});

test("the signal's page chooses the CRM and what to exclude", async () => {
  const draft = await rest('/signals/job-changes', {
    body: { name: 'Set in the dashboard', status: 'draft', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  const shown = await (await fetch(`${stack.url}/signals/${draft.body.id}`, { headers: { Cookie: cookie } })).text();
  expect(shown).toContain('id="crm-exclusions"');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(shown)![1]!;
  const saved = await fetch(`${stack.url}/signals/${draft.body.id}/crm-exclusions`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      connectionId: connections.salesforce,
      excludeExistingCrmContacts: 'true',
    }).toString(),
  });
  expect(saved.status).toBe(200);
  expect(await saved.text()).toContain('CRM exclusions saved');
  expect((await rest(`/signals/${draft.body.id}`)).body.crmExclusions).toEqual({
    connectionId: connections.salesforce,
    excludeExistingCrmContacts: true,
    excludeCrmCompanies: false,
  });
});

test('a broken connection stops excluding and says so on the integrations page and in the signal', async () => {
  // The person removed the app at HubSpot: the next refresh is refused with invalid_grant.
  oauth.hubspot.revokeEverything();
  await stack.db.query(`UPDATE crm_connections SET expires_at = now() WHERE id = $1`, [connections.hubspot]);
  const outcome = await sync('hubspot');
  expect(outcome).toMatchObject({ state: 'broken' });
  expect((outcome as { error: string }).error).toMatch(/invalid_grant/);

  const page = await fetch(`${stack.url}/integrations`, { headers: { Cookie: cookie } });
  const text = (await page.text()).replace(/\s+/g, ' ');
  const cell = new RegExp(`id="sync-${connections.hubspot}">(.*?)</td>`).exec(text)?.[1] ?? '';
  expect(cell).toContain('not excluding');
  expect(cell).toContain('4 emails, 1 domains');
  expect(cell).toMatch(/broken/);

  const signal = await rest(`/signals/${signalId}`);
  expect(signal.body.warnings).toContainEqual(
    expect.objectContaining({ code: 'CRM_EXCLUSIONS_BROKEN', field: 'crmExclusions', severity: 'warning' }),
  );
  // Ada's email came in the last good sync; with the connection broken she is a lead again, as are
  // the others the CRM held back.
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id)
    VALUES ('xe_ada2', 'job_change', now() - interval '1 hour', 'xc_acme', 'xp_ada')`);
  const before = await stack.db.query(`SELECT event_id FROM leads WHERE signal_id = $1`, [signalId]);
  expect(before.map((row: { event_id: string }) => row.event_id)).not.toContain('xe_ada');
  await evaluate(signalId);
  const after = await stack.db.query(`SELECT event_id FROM leads WHERE signal_id = $1`, [signalId]);
  expect(after.map((row: { event_id: string }) => row.event_id)).toContain('xe_ada');
});

test('a schedule per connection runs the sync on the worker, and goes when the connection does', async () => {
  await stack.startWorker();
  const draft = await rest('/signals/job-changes', {
    body: { name: 'Pipedrive exclusions', status: 'draft', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  const runsBefore = api.pipedrive.reads.length;
  const set = await rest(`/signals/${draft.body.id}`, {
    method: 'PATCH',
    body: { crmExclusions: { connectionId: connections.pipedrive, excludeExistingCrmContacts: true } },
  });
  expect(set.status).toBe(200);
  const scheduleId = stack.services.crmSyncSchedules.idOf(connections.pipedrive);
  expect(scheduleId).toBe(`crm-sync:${connections.pipedrive}:${stack.config.TEMPORAL_TASK_QUEUE}`);
  const handle = stack.temporal.schedule.getHandle(scheduleId);
  expect((await handle.describe()).action).toMatchObject({ workflowType: 'crmSyncWorkflow' });
  // The schedule's first run starts at once and reads Pipedrive through the worker.
  await waitFor(async () => api.pipedrive.reads.length > runsBefore);
  // The schedule's own runs (the HubSpot connection has its schedule too).
  const result = await waitFor(async () => {
    for await (const w of stack.temporal.workflow.list({ query: `TemporalScheduledById = '${scheduleId}'` }))
      if (w.status.name === 'COMPLETED') return stack.temporal.workflow.getHandle(w.workflowId, w.runId).result();
    return undefined;
  });
  expect(result).toMatchObject({ state: 'synced', full: false });

  // A schedule lost (say, a new Temporal namespace) is made again at a worker's start.
  const hubspotSchedule = stack.temporal.schedule.getHandle(stack.services.crmSyncSchedules.idOf(connections.hubspot));
  await hubspotSchedule.delete();
  await stack.services.crmSyncSchedules.ensureForSignals();
  expect((await hubspotSchedule.describe()).action).toMatchObject({ args: [connections.hubspot] });

  // Disconnected: the next run finds the connection gone and removes its schedule.
  await stack.services.crmConnections.disconnect(accountId, connections.pipedrive);
  await stack.services.crmSyncSchedules.trigger(connections.pipedrive);
  await waitFor(async () =>
    handle
      .describe()
      .then(() => false)
      .catch(() => true),
  );
  const warned = await rest(`/signals/${draft.body.id}`);
  expect(warned.body.warnings).toContainEqual(expect.objectContaining({ code: 'CRM_EXCLUSIONS_DISCONNECTED' }));
});

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
