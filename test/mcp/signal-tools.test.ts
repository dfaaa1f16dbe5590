import type { Client as Assistant } from '@modelcontextprotocol/sdk/client/index.js';
import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { addKey } from '../signals/helpers';
import {
  client,
  daysAgo,
  expectStatus,
  ingest,
  jobChanger,
  settled,
  startLeadsStack,
  waitForLeadTotal,
  type Client as RestClient,
} from '../leads/fixtures';
import { connectAssistant, toolError, toolOk } from './helpers';

/**
 * Every catalogue, signal, lead, funnel, watchlist and credit tool, each checked against what
 * its REST twin answers for the same account (or what the database then holds).
 */
let stack: Stack;
let account: TestAccount;
let rest: RestClient;
let assistant: Assistant;

beforeAll(async () => {
  stack = await startLeadsStack();
  account = await createAccount(stack, { credits: 100 });
  rest = client(stack, account);
  assistant = await connectAssistant(stack, account.apiKey);
});
afterAll(async () => {
  await assistant?.close();
  await stack?.stop();
});

const restOk = async (path: string) => expectStatus(await rest.get(path), 200);

describe('catalogue tools answer what the REST catalogue answers', () => {
  test('list_signal_types', async () => {
    expect(await toolOk(assistant, 'list_signal_types')).toEqual(await restOk('/signal-types'));
  });

  test('list_personas, with and without a search', async () => {
    expect(await toolOk(assistant, 'list_personas')).toEqual(await restOk('/personas'));
    const found = await toolOk(assistant, 'list_personas', { search: 'chief tech' });
    expect(found).toEqual(await restOk('/personas?search=chief%20tech'));
    expect(found.personas.map((p: { name: string }) => p.name)).toContain('Chief Technology Officer');
  });

  test('list_industries', async () => {
    const found = await toolOk(assistant, 'list_industries', { search: 'software' });
    expect(found).toEqual(await restOk('/signals/industries?search=software'));
    expect(found.industries.length).toBeGreaterThan(0);
  });

  test('list_technographic_tools', async () => {
    const found = await toolOk(assistant, 'list_technographic_tools', { search: 'react' });
    expect(found).toEqual(await restOk('/technographics?search=react'));
    expect(found.tools.length).toBeGreaterThan(0);
  });
});

describe('signal tools', () => {
  const jobChanges = (name: string, config: Record<string, unknown> = { jobTitles: ['Chief Technology Officer'] }) => ({
    signalTypeId: 'job_changes',
    name,
    config,
  });

  test('create_signal creates what REST then reads; get_signal and list_signals answer as REST does', async () => {
    const created = await toolOk(assistant, 'create_signal', {
      ...jobChanges('New CTOs via assistant', { jobTitles: ['Chief Technology Officer'], maxJobAgeDays: 30 }),
      dailyLeadLimit: 40,
    });
    expect(created).toMatchObject({
      name: 'New CTOs via assistant',
      status: 'draft',
      signalTypeId: 'job_changes',
      dailyLeadLimit: 40,
      duplicateHandling: 'refuse',
      applied: { maxJobAgeDays: 180 },
    });
    expect(created.warnings).toEqual([
      expect.objectContaining({ code: 'VALUE_BELOW_MINIMUM', field: 'maxJobAgeDays' }),
    ]);
    const read = await restOk(`/signals/${created.id}`);
    expect(read).toEqual(created);
    expect(await toolOk(assistant, 'get_signal', { signalId: created.id })).toEqual(read);

    // A signal of another key of the same account: createdByThisKey tells them apart, as on REST.
    const otherKey = await addKey(stack, account);
    const other = client(stack, { ...account, apiKey: otherKey });
    expectStatus(
      await other.post('/signals/job-changes', {
        name: 'Made by the other key',
        config: { jobTitles: ['Chief Financial Officer'] },
      }),
      201,
    );

    const listed = await toolOk(assistant, 'list_signals', { limit: 100 });
    expect(listed).toEqual(await restOk('/signals?limit=100'));
    expect(listed.signals.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['New CTOs via assistant', 'Made by the other key']),
    );
    const mine = await toolOk(assistant, 'list_signals', {
      createdByThisKey: true,
      signalTypeId: 'job_changes',
      limit: 100,
    });
    expect(mine).toEqual(await restOk('/signals?createdByThisKey=true&signalTypeId=job_changes&limit=100'));
    expect(mine.signals.map((s: { name: string }) => s.name)).not.toContain('Made by the other key');
  });

  test('create_signal creates fundraising and hiring signals as their REST creates do, errors included', async () => {
    const fundraising = await toolOk(assistant, 'create_signal', {
      signalTypeId: 'fundraising',
      name: 'Series A via assistant',
      config: { fundingStages: ['Series A'], minAmountUsd: 5_000_000, getEmails: true },
    });
    expect(fundraising).toMatchObject({
      signalTypeId: 'fundraising',
      duplicateHandling: 'allow',
      applied: { getEmails: null },
    });
    expect(await restOk(`/signals/${fundraising.id}`)).toEqual(fundraising);

    const hiring = await toolOk(assistant, 'create_signal', {
      signalTypeId: 'hiring',
      name: 'Kubernetes hiring via assistant',
      config: { keywords: ['Kubernetes'], departments: ['engineering'], targetPersonas: ['Chief Technology Officer'] },
    });
    expect(hiring).toMatchObject({ signalTypeId: 'hiring', duplicateHandling: '30d', applied: {}, warnings: [] });
    expect(await restOk(`/signals/${hiring.id}`)).toEqual(hiring);

    const refused = await toolError(
      assistant,
      'create_signal',
      { signalTypeId: 'hiring', name: 'Bad', config: { departments: ['dragons'] } },
      'VALIDATION_ERROR',
    );
    const restRefused = expectStatus(
      await rest.post('/signals/hiring', { name: 'Bad', config: { departments: ['dragons'] } }),
      422,
    ).error;
    expect(refused).toEqual(restRefused);
    const inactive = await toolError(
      assistant,
      'create_signal',
      { signalTypeId: 'hiring', name: 'No keywords', status: 'active', config: {} },
      'MISSING_REQUIRED_FIELDS',
    );
    expect(inactive.missing_fields).toEqual(['config.keywords']);
  });

  test('update_signal merges config and renames, as PATCH does', async () => {
    const created = await toolOk(assistant, 'create_signal', jobChanges('To rename'));
    const updated = await toolOk(assistant, 'update_signal', {
      signalId: created.id,
      name: 'Renamed',
      config: { customTitles: ['Head of Growth'] },
      duplicateHandling: '30d',
    });
    expect(updated).toMatchObject({
      name: 'Renamed',
      duplicateHandling: '30d',
      config: expect.objectContaining({ jobTitles: ['Chief Technology Officer'], customTitles: ['Head of Growth'] }),
    });
    expect(await restOk(`/signals/${created.id}`)).toEqual(updated);
  });

  test('pause_signal and resume_signal move the status REST then reads; resume checks required fields like REST', async () => {
    const created = await toolOk(
      assistant,
      'create_signal',
      jobChanges('Quiet signal', { customTitles: ['Chief Llama Wrangler'] }),
    );
    expect((await toolOk(assistant, 'resume_signal', { signalId: created.id })).status).toBe('active');
    expect((await restOk(`/signals/${created.id}`)).status).toBe('active');
    expect((await toolOk(assistant, 'pause_signal', { signalId: created.id })).status).toBe('paused');
    expect((await restOk(`/signals/${created.id}`)).status).toBe('paused');

    // Activation without titles: the same 400 MISSING_REQUIRED_FIELDS a REST resume answers.
    const untitled = await toolOk(assistant, 'create_signal', jobChanges('No titles', {}));
    const error = await toolError(assistant, 'resume_signal', { signalId: untitled.id }, 'MISSING_REQUIRED_FIELDS');
    const restError = expectStatus(await rest.post(`/signals/${untitled.id}/resume`), 400).error;
    expect(error).toEqual(restError);
  });

  test('delete_signal: afterwards REST and the tools answer NOT_FOUND', async () => {
    const created = await toolOk(assistant, 'create_signal', jobChanges('Short-lived'));
    expect(await toolOk(assistant, 'delete_signal', { signalId: created.id })).toEqual({
      deleted: true,
      signalId: created.id,
    });
    expect((await rest.get(`/signals/${created.id}`)).status).toBe(404);
    await toolError(assistant, 'get_signal', { signalId: created.id }, 'NOT_FOUND');
    await toolError(assistant, 'delete_signal', { signalId: created.id }, 'NOT_FOUND');
  });

  test("another account's signal is NOT_FOUND through every signal tool", async () => {
    const stranger = await createAccount(stack, { credits: 10 });
    const theirs = expectStatus(
      await client(stack, stranger).post('/signals/job-changes', {
        name: 'Not yours',
        config: { jobTitles: ['Chief Technology Officer'] },
      }),
      201,
    );
    for (const name of [
      'get_signal',
      'pause_signal',
      'resume_signal',
      'delete_signal',
      'get_signal_funnel',
      'list_signal_leads',
    ]) {
      await toolError(assistant, name, { signalId: theirs.id }, 'NOT_FOUND');
    }
    await toolError(assistant, 'update_signal', { signalId: theirs.id, name: 'Mine now' }, 'NOT_FOUND');
    expect((await client(stack, stranger).get(`/signals/${theirs.id}`)).body.name).toBe('Not yours');
  });
});

describe('watchlist tools', () => {
  test('create_signal for an account watchlist imports its companies; list and add match REST', async () => {
    const created = await toolOk(assistant, 'create_signal', {
      signalTypeId: 'account_watchlist',
      name: 'Target accounts',
      config: {
        companies: ['acme.com', { name: 'Globex', domain: 'globex.com' }, 'https://www.linkedin.com/jobs/view/1'],
      },
    });
    expect(created.watchlist).toEqual({ watched: 2, rejected: 1, alreadyWatched: 0 });
    expect(created.config).not.toHaveProperty('companies');
    const { watchlist: _importResult, ...resource } = created;
    expect(await restOk(`/signals/${created.id}`)).toEqual(resource);

    const listed = await toolOk(assistant, 'list_watched_companies', { signalId: created.id });
    expect(listed).toEqual(await restOk(`/watchlists/${created.id}/companies`));
    expect(listed.items.map((c: { domain: string }) => c.domain).sort()).toEqual(['acme.com', 'globex.com']);

    const added = await toolOk(assistant, 'add_watched_companies', {
      signalId: created.id,
      companies: ['initech.com', 'acme.com'],
    });
    expect(added).toEqual({ watched: 1, rejected: 0, alreadyWatched: 1 });
    const after = await restOk(`/watchlists/${created.id}/companies?limit=1&offset=0`);
    expect(after.total).toBe(3);
    expect(await toolOk(assistant, 'list_watched_companies', { signalId: created.id, limit: 1, offset: 0 })).toEqual(
      after,
    );
  });

  test('a job-changes signal has no watchlist: NOT_FOUND as on REST', async () => {
    const created = await toolOk(assistant, 'create_signal', {
      signalTypeId: 'job_changes',
      name: 'Not a watchlist',
      config: {},
    });
    await toolError(assistant, 'list_watched_companies', { signalId: created.id }, 'NOT_FOUND');
    await toolError(assistant, 'add_watched_companies', { signalId: created.id, companies: ['acme.com'] }, 'NOT_FOUND');
    expect((await rest.get(`/watchlists/${created.id}/companies`)).status).toBe(404);
  });
});

describe('leads, funnel and credits', () => {
  test('an active signal created by tool produces leads; leads, funnel, balance and usage read as on REST', async () => {
    const buyer = await createAccount(stack, { credits: 50 });
    const buyerRest = client(stack, buyer);
    const buyerAssistant = await connectAssistant(stack, buyer.apiKey);
    try {
      const first = jobChanger('mcp-cpo-1', daysAgo(6), { title: 'Chief Product Officer' });
      const second = jobChanger('mcp-cpo-2', daysAgo(3), { title: 'Chief Product Officer' });
      await ingest(stack, [...first.records, ...second.records]);

      const signal = await toolOk(buyerAssistant, 'create_signal', {
        signalTypeId: 'job_changes',
        name: 'New CPOs',
        status: 'active',
        config: { jobTitles: ['Chief Product Officer'] },
      });
      expect(signal.status).toBe('active');
      await settled(stack, signal.id);
      const leads = await waitForLeadTotal(buyerRest, signal.id, 2);
      // Newest first means order of production; both come from one evaluation, so compare as sets.
      expect(leads.map((l) => l.contact.last_name).sort()).toEqual(['Lovelace-mcp-cpo-1', 'Lovelace-mcp-cpo-2']);

      const page = await toolOk(buyerAssistant, 'list_signal_leads', { signalId: signal.id });
      expect(page).toEqual(expectStatus(await buyerRest.get(`/signals/${signal.id}/leads`), 200));
      expect(page).toMatchObject({ signalId: signal.id, total: 2, hasMore: false });
      const since = await toolOk(buyerAssistant, 'list_signal_leads', {
        signalId: signal.id,
        since: daysAgo(-1),
        limit: 1,
      });
      expect(since).toEqual(
        expectStatus(
          await buyerRest.get(`/signals/${signal.id}/leads?since=${encodeURIComponent(daysAgo(-1))}&limit=1`),
          200,
        ),
      );
      expect(since.total).toBe(0);

      const window = { from: daysAgo(30), to: daysAgo(-1) };
      const funnel = await toolOk(buyerAssistant, 'get_signal_funnel', { signalId: signal.id, ...window });
      const query = `from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`;
      expect(funnel).toEqual(expectStatus(await buyerRest.get(`/signals/${signal.id}/funnel?${query}`), 200));
      expect(funnel.leads).toBe(2);

      // 2 credits per job-change lead, reading is free.
      expect(await toolOk(buyerAssistant, 'get_credit_balance')).toEqual({ balance: 46 });
      expect(expectStatus(await buyerRest.get('/credits/balance'), 200)).toEqual({ balance: 46 });
      const usage = await toolOk(buyerAssistant, 'get_credit_usage', { signalId: signal.id });
      expect(usage).toEqual(expectStatus(await buyerRest.get(`/credits/usage?signalId=${signal.id}`), 200));
      expect(usage.items.map((i: { operation: string; credits: number }) => `${i.operation}:${i.credits}`)).toEqual([
        'lead:-2',
        'lead:-2',
      ]);
      const all = await toolOk(buyerAssistant, 'get_credit_usage', { limit: 10 });
      expect(all).toEqual(expectStatus(await buyerRest.get('/credits/usage?limit=10'), 200));
      expect(all.items.map((i: { operation: string }) => i.operation)).toContain('grant');
    } finally {
      await buyerAssistant.close();
    }
  });
});
