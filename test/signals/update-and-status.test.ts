import type { Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import {
  startSignalsStack,
  client,
  expectAppliedExplained,
  expectError,
  expectStatus,
  jobChangesBody,
  recordCrmConnection,
  UNKNOWN_ID,
  watchlistBody,
  type Client,
} from './helpers';
import { start as startLemlist, type LemlistServer } from '../vendors/lemlist-server';
import { start as startInstantly, type InstantlyServer } from '../vendors/instantly-server';

let stack: Stack;
let account: TestAccount;
let api: Client;
let other: TestAccount;
let otherApi: Client;
// Sequencer destinations are checked with the tool (connected account, existing campaign).
let lemlist: LemlistServer;
let instantly: InstantlyServer;

beforeAll(async () => {
  [lemlist, instantly] = await Promise.all([startLemlist(), startInstantly()]);
  stack = await startSignalsStack({ LEMLIST_API_URL: lemlist.url, INSTANTLY_API_URL: instantly.url });
  account = await createAccount(stack, { credits: 100 });
  api = client(stack, account.apiKey);
  other = await createAccount(stack, { credits: 100 });
  otherApi = client(stack, other.apiKey);
});
afterAll(async () => {
  await stack.stop();
  await Promise.all([lemlist.close(), instantly.close()]);
});

const fullConfig = {
  jobTitles: ['Chief Technology Officer', 'VP of Engineering'],
  customTitles: ['Head of Platform'],
  companySizeFilters: ['51-200'],
  industryFilters: ['Software Development'],
  locations: ['France'],
  getEmails: true,
  maxJobAgeDays: 365,
};
const createJobChanges = async (overrides: Record<string, unknown> = {}, a: Client = api) =>
  expectStatus(await a.post('/signals/job-changes', jobChangesBody({ config: fullConfig, ...overrides })), 201);
const read = async (id: string, a: Client = api) => expectStatus(await a.get(`/signals/${id}`), 200);
const patch = (id: string, body: unknown) => api.patch(`/signals/${id}`, body);

describe('PATCH config of a job-changes signal', () => {
  test('only the sent fields change', async () => {
    const signal = await createJobChanges();
    const updated = expectStatus(
      await patch(signal.id, { config: { companySizeFilters: ['201-500', '501-1000'], getEmails: false } }),
      200,
    );
    expect(updated.config).toEqual({ ...fullConfig, companySizeFilters: ['201-500', '501-1000'], getEmails: false });
    expect((await read(signal.id)).config).toEqual(updated.config);
    expect(updated.name).toBe(signal.name);
    expect(updated.status).toBe('draft');
  });

  test('an empty list clears a list', async () => {
    const signal = await createJobChanges();
    const updated = expectStatus(await patch(signal.id, { config: { customTitles: [], locations: [] } }), 200);
    expect(updated.config.customTitles).toEqual([]);
    expect(updated.config.locations).toEqual([]);
    expect(updated.config.jobTitles).toEqual(fullConfig.jobTitles);
    expect((await read(signal.id)).config).toEqual(updated.config);
  });

  test('null removes a field', async () => {
    const signal = await createJobChanges();
    const updated = expectStatus(
      await patch(signal.id, { config: { industryFilters: null, maxJobAgeDays: null } }),
      200,
    );
    expect(updated.config).not.toHaveProperty('industryFilters');
    expect(updated.config).not.toHaveProperty('maxJobAgeDays');
    expect(updated.config.jobTitles).toEqual(fullConfig.jobTitles);
    expect((await read(signal.id)).config).toEqual(updated.config);
  });

  test('an empty config patch changes nothing', async () => {
    const signal = await createJobChanges();
    expect(expectStatus(await patch(signal.id, { config: {} }), 200).config).toEqual(fullConfig);
  });

  test('values are normalised as on creation', async () => {
    const signal = await createJobChanges();
    const updated = expectStatus(await patch(signal.id, { config: { customTitles: ['  Head of Data  '] } }), 200);
    expect(updated.config.customTitles).toEqual(['Head of Data']);
    expect((await read(signal.id)).config.customTitles).toEqual(['Head of Data']);
  });

  test('a field that does not exist for the type is 422 naming it, and nothing changes', async () => {
    const signal = await createJobChanges();
    const before = await read(signal.id);
    for (const config of [
      { seniority: ['vp'], getEmails: false },
      { companies: ['acme.com'] },
      { sources: { fundraising: { enabled: true } } },
    ]) {
      const error = expectError(await patch(signal.id, { config, name: 'renamed' }), 422, 'VALIDATION_ERROR');
      expect(error.message).toContain(Object.keys(config)[0]);
    }
    expect(await read(signal.id)).toEqual(before);
  });

  test('an invalid value, an unknown persona or an unknown location changes nothing', async () => {
    const signal = await createJobChanges();
    const before = await read(signal.id);
    expectError(await patch(signal.id, { config: { jobTitles: ['Chief Vibes Officer'] } }), 422, 'VALIDATION_ERROR');
    expectError(await patch(signal.id, { config: { maxJobAgeDays: 'soon' } }), 422, 'VALIDATION_ERROR');
    const location = expectError(
      await patch(signal.id, { config: { locations: ['Frnace'] } }),
      400,
      'INVALID_LOCATION',
    );
    expect(location.invalid_locations).toEqual(['Frnace']);
    expect(location.message).toContain('/api/v1/enrichment/validate-location');
    expect(await read(signal.id)).toEqual(before);
  });

  test('applied and warnings follow the new config', async () => {
    const signal = await createJobChanges();
    const lowered = expectStatus(await patch(signal.id, { config: { maxJobAgeDays: 60 } }), 200);
    expect(lowered.applied).toEqual({ maxJobAgeDays: 180 });
    expect(lowered.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).toEqual([
      ['VALUE_BELOW_MINIMUM', 'maxJobAgeDays'],
    ]);
    expectAppliedExplained(lowered);
    expect((await read(signal.id)).applied).toEqual({ maxJobAgeDays: 180 });
    const raised = expectStatus(await patch(signal.id, { config: { maxJobAgeDays: 200 } }), 200);
    expect(raised.applied).toEqual({});
    expect(raised.warnings).toEqual([]);
  });
});

describe('PATCH config of a watchlist', () => {
  test('sources merge per event; other settings stay; null resets a defaulted field', async () => {
    const signal = expectStatus(
      await api.post(
        '/signals/account-watchlist',
        watchlistBody({ config: { companies: ['acme.com'], firstRunLookbackDays: 30, targetPersonas: ['Founder'] } }),
      ),
      201,
    );
    const updated = expectStatus(
      await patch(signal.id, {
        config: { sources: { company_news: { enabled: true }, fundraising: { enabled: false } } },
      }),
      200,
    );
    expect(updated.config.sources).toEqual({
      ...signal.config.sources,
      company_news: { enabled: true },
      fundraising: { enabled: false },
    });
    expect(updated.config.firstRunLookbackDays).toBe(30);
    expect(updated.config.targetPersonas).toEqual(['Founder']);

    const again = expectStatus(
      await patch(signal.id, { config: { sources: { fundraising: { enabled: true } } } }),
      200,
    );
    expect(again.config.sources.company_news).toEqual({ enabled: true });
    expect(again.config.sources.fundraising).toEqual({ enabled: true });

    const reset = expectStatus(
      await patch(signal.id, { config: { firstRunLookbackDays: null, targetPersonas: null } }),
      200,
    );
    expect(reset.config.firstRunLookbackDays).toBe(180);
    expect(reset.config).not.toHaveProperty('targetPersonas');
    expect(await read(signal.id)).toMatchObject({ config: reset.config });
  });

  test('companies in a PATCH are imported and answered as the import result, never stored in config', async () => {
    const signal = expectStatus(await api.post('/signals/account-watchlist', watchlistBody()), 201);
    const updated = expectStatus(
      await patch(signal.id, {
        config: { companies: ['acme.com', 'globex.com', 'https://www.linkedin.com/jobs/view/9'] },
      }),
      200,
    );
    expect(updated.watchlist).toEqual({ watched: 1, rejected: 1, alreadyWatched: 1 });
    expect(updated.config).not.toHaveProperty('companies');
    expect((await read(signal.id)).config).not.toHaveProperty('companies');
    expect(expectStatus(await api.get(`/watchlists/${signal.id}/companies`), 200).total).toBe(2);
  });

  test('an unknown event key is 422 and nothing changes', async () => {
    const signal = expectStatus(await api.post('/signals/account-watchlist', watchlistBody()), 201);
    const before = await read(signal.id);
    const error = expectError(
      await patch(signal.id, { config: { sources: { tiktok_dances: { enabled: true } } } }),
      422,
      'VALIDATION_ERROR',
    );
    expect(error.message).toContain('tiktok_dances');
    expect(await read(signal.id)).toEqual(before);
  });
});

describe('PATCH of other fields', () => {
  test('webhookUrl is set, then cleared with null', async () => {
    const signal = await createJobChanges();
    const set = expectStatus(await patch(signal.id, { webhookUrl: 'https://hooks.example.com/leads' }), 200);
    expect(set.webhookUrl).toBe('https://hooks.example.com/leads');
    expect((await read(signal.id)).webhookUrl).toBe('https://hooks.example.com/leads');
    expectError(await patch(signal.id, { webhookUrl: 'ftp://hooks.example.com' }), 422, 'VALIDATION_ERROR');
    expect((await read(signal.id)).webhookUrl).toBe('https://hooks.example.com/leads');
    const cleared = expectStatus(await patch(signal.id, { webhookUrl: null }), 200);
    expect(cleared.webhookUrl).toBeNull();
    expect((await read(signal.id)).webhookUrl).toBeNull();
  });

  test('name, dailyLeadLimit and duplicateHandling change with the same rules as creation', async () => {
    const signal = await createJobChanges();
    const updated = expectStatus(
      await patch(signal.id, { name: 'Renamed', dailyLeadLimit: 5, duplicateHandling: '30d' }),
      200,
    );
    expect(updated).toMatchObject({ name: 'Renamed', dailyLeadLimit: 5, duplicateHandling: '30d', config: fullConfig });
    for (const body of [
      { name: '' },
      { name: 'n'.repeat(256) },
      { dailyLeadLimit: 0 },
      { dailyLeadLimit: 1_000_000 },
      { duplicateHandling: 'x' },
      { duplicateHandling: '0d' },
      { status: 'deleted' },
      { colour: 'red' },
    ]) {
      const error = expectError(await patch(signal.id, body), 422, 'VALIDATION_ERROR');
      expect(error.details.map((d: { field: string }) => d.field)).toEqual(Object.keys(body));
    }
    expect(await read(signal.id)).toMatchObject({
      name: 'Renamed',
      dailyLeadLimit: 5,
      duplicateHandling: '30d',
      status: 'draft',
    });
  });
});

describe('PATCH destinations', () => {
  test('enabling a CRM that is not connected is 409 INTEGRATION_NOT_CONNECTED and stores nothing', async () => {
    const signal = await createJobChanges();
    const error = expectError(
      await patch(signal.id, { destinations: { hubspot: { enabled: true } } }),
      409,
      'INTEGRATION_NOT_CONNECTED',
    );
    expect(error.message).toContain('hubspot');
    expect((await read(signal.id)).destinations).toEqual({});
  });

  test('once the CRM is connected, enabling it answers 200 and stores it', async () => {
    const signal = await createJobChanges();
    expect((await recordCrmConnection(stack, account, 'hubspot')).status).toBe(201);
    const updated = expectStatus(await patch(signal.id, { destinations: { hubspot: { enabled: true } } }), 200);
    // Stored with the connection it resolved to (the account's only HubSpot connection).
    const hubspot = { enabled: true, integrationId: expect.any(String) };
    expect(updated.destinations).toEqual({ hubspot });
    expect((await read(signal.id)).destinations).toEqual({ hubspot });
    // A connection belongs to one account.
    const foreign = await createJobChanges({}, otherApi);
    expectError(
      await otherApi.patch(`/signals/${foreign.id}`, { destinations: { hubspot: { enabled: true } } }),
      409,
      'INTEGRATION_NOT_CONNECTED',
    );
  });

  test('a sequencer destination is stored with its campaign; several destinations merge; null removes one', async () => {
    const signal = await createJobChanges();
    expectError(
      await patch(signal.id, { destinations: { lemlist: { campaignId: 'cam_1' } } }),
      409,
      'INTEGRATION_NOT_CONNECTED',
    );
    const campaign = lemlist.addCampaign('Founders');
    const instantlyCampaign = instantly.addCampaign('Series A');
    const connect = (tool: string, apiKey: string) =>
      call(`${stack.url}/api/v1/integrations/${tool}`, {
        method: 'PUT',
        token: account.apiKey,
        body: { apiKey, label: tool },
      });
    const lemlistAccount = expectStatus(await connect('lemlist', lemlist.apiKey), 200);
    const instantlyAccount = expectStatus(await connect('instantly', instantly.apiKey), 200);
    const withSequencer = expectStatus(
      await patch(signal.id, { destinations: { lemlist: { campaignId: campaign._id } } }),
      200,
    );
    // Stored with the connected account it resolved to.
    const lemlistDestination = { campaignId: campaign._id, integrationId: lemlistAccount.integrationId };
    expect(withSequencer.destinations).toEqual({ lemlist: lemlistDestination });
    const instantlyDestination = { campaignId: instantlyCampaign.id, integrationId: instantlyAccount.integrationId };
    const both = expectStatus(
      await patch(signal.id, { destinations: { hubspot: { enabled: true }, instantly: instantlyDestination } }),
      200,
    );
    expect(both.destinations).toEqual({
      lemlist: lemlistDestination,
      hubspot: { enabled: true, integrationId: expect.any(String) },
      instantly: instantlyDestination,
    });
    const removed = expectStatus(await patch(signal.id, { destinations: { lemlist: null } }), 200);
    expect(removed.destinations).toEqual({
      hubspot: { enabled: true, integrationId: expect.any(String) },
      instantly: instantlyDestination,
    });
    expect((await read(signal.id)).destinations).toEqual(removed.destinations);
  });

  test('an unknown destination or a malformed one is 422', async () => {
    const signal = await createJobChanges();
    expectError(await patch(signal.id, { destinations: { mailchimp: { campaignId: 'x' } } }), 422, 'VALIDATION_ERROR');
    expectError(await patch(signal.id, { destinations: { lemlist: {} } }), 422, 'VALIDATION_ERROR');
    expectError(await patch(signal.id, { destinations: { hubspot: { enabled: 'yes' } } }), 422, 'VALIDATION_ERROR');
    expect((await read(signal.id)).destinations).toEqual({});
  });
});

describe('status moves', () => {
  test('pause and resume move the status and answer the signal', async () => {
    const signal = await createJobChanges();
    const active = expectStatus(await api.post(`/signals/${signal.id}/resume`), 200);
    expect(active).toMatchObject({ id: signal.id, status: 'active', config: fullConfig });
    const paused = expectStatus(await api.post(`/signals/${signal.id}/pause`), 200);
    expect(paused.status).toBe('paused');
    expect((await read(signal.id)).status).toBe('paused');
    expect(expectStatus(await api.post(`/signals/${signal.id}/resume`), 200).status).toBe('active');
    expect((await read(signal.id)).status).toBe('active');
  });

  test('PATCH status does the same, every status to every other', async () => {
    const signal = await createJobChanges();
    for (const status of ['active', 'draft', 'paused', 'draft', 'active', 'paused', 'active']) {
      expect(expectStatus(await patch(signal.id, { status }), 200).status).toBe(status);
      expect((await read(signal.id)).status).toBe(status);
    }
  });

  test('moving into active without job titles is 400 MISSING_REQUIRED_FIELDS, by PATCH or by resume; status unchanged', async () => {
    const signal = expectStatus(
      await api.post('/signals/job-changes', { name: 'No titles', config: { locations: ['France'] } }),
      201,
    );
    for (const attempt of [
      () => patch(signal.id, { status: 'active' }),
      () => api.post(`/signals/${signal.id}/resume`),
    ]) {
      const error = expectError(await attempt(), 400, 'MISSING_REQUIRED_FIELDS');
      expect(error.missing_fields).toEqual(['config.jobTitles']);
      expect(error.missing_field_labels).toHaveLength(1);
      expect((await read(signal.id)).status).toBe('draft');
    }
    // Clearing the titles in the same PATCH that activates is refused too.
    const titled = await createJobChanges();
    const error = expectError(
      await patch(titled.id, { status: 'active', config: { jobTitles: [], customTitles: [] } }),
      400,
      'MISSING_REQUIRED_FIELDS',
    );
    expect(error.missing_fields).toEqual(['config.jobTitles']);
    expect(await read(titled.id)).toMatchObject({ status: 'draft', config: fullConfig });
    // Adding titles in the same PATCH is enough.
    const fixed = expectStatus(
      await patch(signal.id, { status: 'active', config: { customTitles: ['Head of Data'] } }),
      200,
    );
    expect(fixed.status).toBe('active');
  });

  test('a watchlist with no watched entry cannot be resumed', async () => {
    const signal = expectStatus(await api.post('/signals/account-watchlist', { name: 'Empty', config: {} }), 201);
    const error = expectError(await api.post(`/signals/${signal.id}/resume`), 400, 'MISSING_REQUIRED_FIELDS');
    expect(error.missing_fields).toEqual(['config.companies']);
    expect((await read(signal.id)).status).toBe('draft');
    expect(
      expectStatus(await patch(signal.id, { status: 'active', config: { companies: ['acme.com'] } }), 200).status,
    ).toBe('active');
  });

  test('moving into active without enough credits is 402 INSUFFICIENT_CREDITS, by PATCH or by resume; status unchanged', async () => {
    for (const credits of [undefined, 1]) {
      const poor = client(stack, (await createAccount(stack, credits === undefined ? {} : { credits })).apiKey);
      const draft = await createJobChanges({}, poor);
      const paused = await createJobChanges({ status: 'paused' }, poor);
      for (const signal of [draft, paused]) {
        expectError(await poor.post(`/signals/${signal.id}/resume`), 402, 'INSUFFICIENT_CREDITS');
        expectError(await poor.patch(`/signals/${signal.id}`, { status: 'active' }), 402, 'INSUFFICIENT_CREDITS');
        expect((await read(signal.id, poor)).status).toBe(signal.status);
      }
      // Pausing costs nothing.
      expect(expectStatus(await poor.post(`/signals/${draft.id}/pause`), 200).status).toBe('paused');
    }
  });
});

describe('DELETE', () => {
  test('answers 204; the signal is then 404 everywhere and gone from the list', async () => {
    const signal = await createJobChanges({ name: 'To delete', status: 'active' });
    const answer = await api.delete(`/signals/${signal.id}`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expectError(await api.get(`/signals/${signal.id}`), 404, 'NOT_FOUND');
    expectError(await patch(signal.id, { name: 'Back' }), 404, 'NOT_FOUND');
    expectError(await api.post(`/signals/${signal.id}/resume`), 404, 'NOT_FOUND');
    expectError(await api.post(`/signals/${signal.id}/pause`), 404, 'NOT_FOUND');
    expectError(await api.delete(`/signals/${signal.id}`), 404, 'NOT_FOUND');
    const page = expectStatus(await api.get('/signals?limit=100'), 200);
    expect(page.signals.map((s: { id: string }) => s.id)).not.toContain(signal.id);
  });

  test('a deleted watchlist has no companies endpoint either', async () => {
    const signal = expectStatus(await api.post('/signals/account-watchlist', watchlistBody()), 201);
    expect((await api.delete(`/signals/${signal.id}`)).status).toBe(204);
    expectError(await api.get(`/watchlists/${signal.id}/companies`), 404, 'NOT_FOUND');
  });
});

describe("another account's signal", () => {
  test('GET, PATCH, pause, resume and DELETE are 404 NOT_FOUND and change nothing', async () => {
    const foreign = await createJobChanges({ name: 'Theirs' }, otherApi);
    const before = await read(foreign.id, otherApi);
    expectError(await api.get(`/signals/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await patch(foreign.id, { name: 'Mine now', config: { customTitles: [] } }), 404, 'NOT_FOUND');
    expectError(await api.post(`/signals/${foreign.id}/resume`), 404, 'NOT_FOUND');
    expectError(await api.post(`/signals/${foreign.id}/pause`), 404, 'NOT_FOUND');
    expectError(await api.delete(`/signals/${foreign.id}`), 404, 'NOT_FOUND');
    expect(await read(foreign.id, otherApi)).toEqual(before);
  });

  test('unknown and malformed ids are 404 on every signal path', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      expectError(await patch(id, { name: 'x' }), 404, 'NOT_FOUND');
      expectError(await api.post(`/signals/${id}/pause`), 404, 'NOT_FOUND');
      expectError(await api.post(`/signals/${id}/resume`), 404, 'NOT_FOUND');
      expectError(await api.delete(`/signals/${id}`), 404, 'NOT_FOUND');
    }
  });
});
