import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  client,
  connectCrm,
  draftSignalFor,
  expectAnswer,
  ingestJobChanger,
  startIntegrationsStack,
  startVendors,
  stopVendors,
  type Client,
  type Vendors,
} from './helpers';

/**
 * Connecting email-sequencing tools with their API keys, the overview, the campaign lists, and
 * what PATCH checks before storing a sequencer destination: all against local vendors.
 */

let vendors: Vendors;
let stack: Stack;

beforeAll(async () => {
  vendors = await startVendors();
  stack = await startIntegrationsStack(vendors, { worker: false });
  vendors.lemlist.addCampaign('Founders');
  vendors.lemlist.addCampaign('CTOs', 'paused');
  vendors.instantly.addCampaign('Series A', 1);
  vendors.smartlead.addCampaign('Hiring', 'ACTIVE');
});
afterAll(async () => {
  await stack?.stop();
  await stopVendors(vendors);
});

async function newClient(options: { permissions?: string[] } = {}): Promise<{ api: Client; accountId: string }> {
  const account = await createAccount(stack, { credits: 100, ...options });
  return { api: client(stack, account), accountId: account.accountId };
}

const storedIntegrations = (accountId: string) =>
  stack.db.query(`SELECT * FROM integrations WHERE account_id = $1 ORDER BY connected_at`, [accountId]);

const overviewEntry = async (api: Client, provider: string) =>
  expectAnswer(await api.get('/integrations'), 200).integrations.find((i: any) => i.provider === provider);

describe('PUT /api/v1/integrations/{sequencer}', () => {
  test('a key the tool refuses is 422 on apiKey, and nothing is stored', async () => {
    const { api, accountId } = await newClient();
    const answer = await api.put('/integrations/lemlist', { apiKey: 'not-a-lemlist-key', label: 'Agency' });
    expect(expectAnswer(answer, 422)).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        details: [{ field: 'apiKey', message: 'lemlist refused this API key' }],
      },
    });
    expect(answer.text).not.toContain('not-a-lemlist-key');
    expect(await storedIntegrations(accountId)).toEqual([]);
    expect(await overviewEntry(api, 'lemlist')).toEqual({
      provider: 'lemlist',
      kind: 'sequencer',
      connected: false,
      accounts: [],
    });
  });

  test('a good key is checked with the tool, stored sealed, and shown connected in the overview', async () => {
    const { api, accountId } = await newClient();
    const before = vendors.lemlist.received.length;
    const connected = expectAnswer(
      await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'Agency' }),
      200,
    );
    expect(connected).toEqual({
      provider: 'lemlist',
      integrationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      label: 'Agency',
      connected: true,
      connectedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(vendors.lemlist.received.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /team']);

    const [row] = await storedIntegrations(accountId);
    expect(row).toMatchObject({ id: connected.integrationId, provider: 'lemlist', label: 'Agency' });
    // No column holds the key in clear; the sealed value opens to it.
    const [{ text }] = await stack.db.query(`SELECT row_to_json(i)::text AS text FROM integrations i WHERE id = $1`, [
      row.id,
    ]);
    expect(text).not.toContain(vendors.lemlist.apiKey);
    expect(row.api_key_encrypted).toMatch(/^v1:/);
    expect(stack.services.secrets.open(row.api_key_encrypted)).toBe(vendors.lemlist.apiKey);

    const overview = await api.get('/integrations');
    expect(overview.text).not.toContain(vendors.lemlist.apiKey);
    expect(expectAnswer(overview, 200)).toEqual({
      integrations: [
        {
          provider: 'lemlist',
          kind: 'sequencer',
          connected: true,
          accounts: [{ integrationId: connected.integrationId, label: 'Agency', connectedAt: connected.connectedAt }],
        },
        { provider: 'instantly', kind: 'sequencer', connected: false, accounts: [] },
        { provider: 'smartlead', kind: 'sequencer', connected: false, accounts: [] },
        { provider: 'hubspot', kind: 'crm', connected: false, accounts: [] },
        { provider: 'salesforce', kind: 'crm', connected: false, accounts: [] },
        { provider: 'pipedrive', kind: 'crm', connected: false, accounts: [] },
        { provider: 'google-sheets', kind: 'crm', connected: false, accounts: [] },
      ],
    });
  });

  test('the same key again updates the label of the same connection instead of adding one', async () => {
    const { api, accountId } = await newClient();
    // Without a label, the name the tool gives the account.
    const first = expectAnswer(await api.put('/integrations/instantly', { apiKey: vendors.instantly.apiKey }), 200);
    expect(first.label).toBe(vendors.instantly.workspaceName);
    const renamed = expectAnswer(
      await api.put('/integrations/instantly', { apiKey: ` ${vendors.instantly.apiKey} `, label: 'Client B' }),
      200,
    );
    expect(renamed).toEqual({ ...first, label: 'Client B' });
    const unlabelled = expectAnswer(
      await api.put('/integrations/instantly', { apiKey: vendors.instantly.apiKey }),
      200,
    );
    expect(unlabelled.label).toBe('Client B');
    expect(await storedIntegrations(accountId)).toHaveLength(1);
    expect((await overviewEntry(api, 'instantly')).accounts).toEqual([
      { integrationId: first.integrationId, label: 'Client B', connectedAt: first.connectedAt },
    ]);
  });

  test('OAuth-only tools answer 400 USE_DASHBOARD_OAUTH, unknown names 404', async () => {
    const { api, accountId } = await newClient();
    for (const tool of ['hubspot', 'salesforce', 'pipedrive', 'google-sheets']) {
      const answer = await api.put(`/integrations/${tool}`, { apiKey: 'anything', label: 'x' });
      expect(expectAnswer(answer, 400).error.code).toBe('USE_DASHBOARD_OAUTH');
      // The OAuth answer comes whatever the body: the client learns the real way to connect.
      const bodiless = await api.put(`/integrations/${tool}`, {});
      expect(expectAnswer(bodiless, 400).error.code).toBe('USE_DASHBOARD_OAUTH');
    }
    expect(
      expectAnswer(await api.put('/integrations/mailchimp', { apiKey: 'anything', label: 'x' }), 404).error.code,
    ).toBe('NOT_FOUND');
    expect(await storedIntegrations(accountId)).toEqual([]);
  });

  test('a tool that is down is 502 INTEGRATION_UNAVAILABLE, not a refused key, and nothing is stored', async () => {
    const { api, accountId } = await newClient();
    vendors.smartlead.failNext(503);
    const answer = await api.put('/integrations/smartlead', { apiKey: vendors.smartlead.apiKey, label: 'Ops' });
    expect(expectAnswer(answer, 502).error).toMatchObject({ code: 'INTEGRATION_UNAVAILABLE', provider: 'smartlead' });
    // Smartlead's error body echoes the URL with the key: scrubbed before it reaches the client.
    expect(answer.text).not.toContain(vendors.smartlead.apiKey);
    expect(await storedIntegrations(accountId)).toEqual([]);
  });

  test('connecting needs the write permission; a missing key is 422', async () => {
    const { api } = await newClient({ permissions: ['read'] });
    expect(
      expectAnswer(await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'x' }), 403).error
        .code,
    ).toBe('FORBIDDEN');
    const writer = (await newClient()).api;
    expect(expectAnswer(await writer.put('/integrations/lemlist', { label: 'x' }), 422).error.details[0].field).toBe(
      'apiKey',
    );
  });
});

describe('GET /api/v1/integrations/{sequencer}/campaigns', () => {
  test('409 INTEGRATION_NOT_CONNECTED before the tool is connected', async () => {
    const { api } = await newClient();
    expect(expectAnswer(await api.get('/integrations/lemlist/campaigns'), 409).error.code).toBe(
      'INTEGRATION_NOT_CONNECTED',
    );
  });

  test("each tool's campaigns with id, name and a lower-case status", async () => {
    const { api } = await newClient();
    expectAnswer(await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'L' }), 200);
    expectAnswer(await api.put('/integrations/instantly', { apiKey: vendors.instantly.apiKey, label: 'I' }), 200);
    expectAnswer(await api.put('/integrations/smartlead', { apiKey: vendors.smartlead.apiKey, label: 'S' }), 200);
    expect(expectAnswer(await api.get('/integrations/lemlist/campaigns'), 200)).toEqual({
      items: [
        { id: 'cam_1', name: 'Founders', status: 'running' },
        { id: 'cam_2', name: 'CTOs', status: 'paused' },
      ],
    });
    expect(expectAnswer(await api.get('/integrations/instantly/campaigns'), 200)).toEqual({
      items: [{ id: vendors.instantly.campaigns[0]?.id, name: 'Series A', status: 'active' }],
    });
    expect(expectAnswer(await api.get('/integrations/smartlead/campaigns'), 200)).toEqual({
      items: [{ id: String(vendors.smartlead.campaigns[0]?.id), name: 'Hiring', status: 'active' }],
    });
    expect(expectAnswer(await api.get('/integrations/hubspot/campaigns'), 404).error.code).toBe('NOT_FOUND');
    expect(expectAnswer(await api.get('/integrations/mailchimp/campaigns'), 404).error.code).toBe('NOT_FOUND');
  });

  test('with several accounts of a tool, integrationId picks one; it must be one of this account', async () => {
    const { api, accountId } = await newClient();
    const good = expectAnswer(
      await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'Client A' }),
      200,
    );
    // A second lemlist account of the customer (the local lemlist knows one key, so it is stored directly).
    const [second] = await stack.db.query(
      `INSERT INTO integrations (account_id, provider, label, api_key_encrypted, api_key_sha256)
       VALUES ($1, 'lemlist', 'Client B', $2, 'second-account') RETURNING id`,
      [accountId, stack.services.secrets.seal('lemlist-second-key')],
    );
    const ambiguous = expectAnswer(await api.get('/integrations/lemlist/campaigns'), 400);
    expect(ambiguous.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'integrationId', message: expect.any(String) }],
    });
    expect(ambiguous.error.message).toContain('integrationId');
    expect(
      expectAnswer(await api.get(`/integrations/lemlist/campaigns?integrationId=${good.integrationId}`), 200).items,
    ).toHaveLength(2);
    expect((await overviewEntry(api, 'lemlist')).accounts.map((a: any) => a.integrationId)).toEqual([
      good.integrationId,
      second.id,
    ]);

    const other = await newClient();
    const foreign = expectAnswer(
      await other.api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'Other' }),
      200,
    );
    expect(
      expectAnswer(await api.get(`/integrations/lemlist/campaigns?integrationId=${foreign.integrationId}`), 404).error
        .code,
    ).toBe('NOT_FOUND');
    expect(
      expectAnswer(await api.get('/integrations/lemlist/campaigns?integrationId=not-a-uuid'), 404).error.code,
    ).toBe('NOT_FOUND');
  });
});

describe('PATCH destinations with a sequencer', () => {
  async function signalOf(api: Client) {
    return draftSignalFor(api, await ingestJobChanger(stack));
  }

  test('a tool that is not connected is 409 INTEGRATION_NOT_CONNECTED', async () => {
    const { api } = await newClient();
    const signal = await signalOf(api);
    const answer = await api.patch(`/signals/${signal.id}`, { destinations: { lemlist: { campaignId: 'cam_1' } } });
    expect(expectAnswer(answer, 409).error.code).toBe('INTEGRATION_NOT_CONNECTED');
  });

  test('a campaign the tool does not have is 422 on destinations.<tool>.campaignId', async () => {
    const { api } = await newClient();
    expectAnswer(await api.put('/integrations/smartlead', { apiKey: vendors.smartlead.apiKey, label: 'S' }), 200);
    const signal = await signalOf(api);
    const answer = await api.patch(`/signals/${signal.id}`, { destinations: { smartlead: { campaignId: '999999' } } });
    expect(expectAnswer(answer, 422).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'destinations.smartlead.campaignId', message: expect.any(String) }],
    });
    expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({});
  });

  test('a known campaign is stored with the account it goes through', async () => {
    const { api } = await newClient();
    const connected = expectAnswer(
      await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'L' }),
      200,
    );
    const signal = await signalOf(api);
    const updated = expectAnswer(
      await api.patch(`/signals/${signal.id}`, { destinations: { lemlist: { campaignId: 'cam_2' } } }),
      200,
    );
    expect(updated.destinations).toEqual({ lemlist: { campaignId: 'cam_2', integrationId: connected.integrationId } });
    // null removes it again.
    expect(
      expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations: { lemlist: null } }), 200).destinations,
    ).toEqual({});
  });

  test('several accounts need integrationId (400 naming it); one of another account is 404', async () => {
    const { api, accountId } = await newClient();
    const good = expectAnswer(
      await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'A' }),
      200,
    );
    await stack.db.query(
      `INSERT INTO integrations (account_id, provider, label, api_key_encrypted, api_key_sha256) VALUES ($1, 'lemlist', 'B', $2, 'second')`,
      [accountId, stack.services.secrets.seal('lemlist-second-key')],
    );
    const signal = await signalOf(api);
    const ambiguous = expectAnswer(
      await api.patch(`/signals/${signal.id}`, { destinations: { lemlist: { campaignId: 'cam_1' } } }),
      400,
    );
    expect(ambiguous.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'destinations.lemlist.integrationId', message: expect.any(String) }],
    });
    const other = await newClient();
    const foreign = expectAnswer(
      await other.api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'X' }),
      200,
    );
    const notOurs = await api.patch(`/signals/${signal.id}`, {
      destinations: { lemlist: { campaignId: 'cam_1', integrationId: foreign.integrationId } },
    });
    expect(expectAnswer(notOurs, 404).error.code).toBe('NOT_FOUND');
    const chosen = await api.patch(`/signals/${signal.id}`, {
      destinations: { lemlist: { campaignId: 'cam_1', integrationId: good.integrationId } },
    });
    expect(expectAnswer(chosen, 200).destinations).toEqual({
      lemlist: { campaignId: 'cam_1', integrationId: good.integrationId },
    });
  });

  test('a CRM and a sequencer destination are set together once both are connected', async () => {
    const { api, accountId } = await newClient();
    const signal = await signalOf(api);
    expectAnswer(await api.put('/integrations/instantly', { apiKey: vendors.instantly.apiKey, label: 'I' }), 200);
    const campaignId = vendors.instantly.campaigns[0]?.id;
    const both = { hubspot: { enabled: true }, instantly: { campaignId } };
    expect(expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations: both }), 409).error.code).toBe(
      'INTEGRATION_NOT_CONNECTED',
    );
    await connectCrm(stack, accountId, 'hubspot', vendors.hubspot.accessToken);
    const updated = expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations: both }), 200);
    expect(updated.destinations).toEqual({
      hubspot: { enabled: true, integrationId: expect.any(String) },
      instantly: { campaignId, integrationId: expect.any(String) },
    });
    expect(await overviewEntry(api, 'hubspot')).toEqual({
      provider: 'hubspot',
      kind: 'crm',
      connected: true,
      accounts: [
        {
          integrationId: expect.any(String),
          label: 'imported by an operator',
          connectedAt: expect.any(String),
          status: 'connected',
        },
      ],
    });
  });
});
