import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import {
  startSignalsStack,
  client,
  expectAppliedExplained,
  expectError,
  expectStatus,
  warningsOf,
  watchlistBody,
  type Client,
} from './helpers';

let stack: Stack;
let account: TestAccount;
let api: Client;

beforeAll(async () => {
  stack = await startSignalsStack();
  account = await createAccount(stack, { credits: 100 });
  api = client(stack, account.apiKey);
});
afterAll(() => stack.stop());

const create = (body: unknown) => api.post('/signals/account-watchlist', body);
const total = async (a: Client = api) => expectStatus(await a.get('/signals?limit=100'), 200).total as number;
const watched = async (signalId: string) =>
  expectStatus(await api.get(`/watchlists/${signalId}/companies?limit=100`), 200);

const EVENT_KEYS = [
  'fundraising',
  'mergers_acquisitions',
  'forecasted_funding',
  'forecasted_ipo',
  'forecasted_acquisition',
  'forecasted_growth',
  'public_tenders',
  'job_offers',
  'recruitment_campaign',
  'new_decision_makers',
  'company_post_reactions',
  'competitor_social_reactions',
  'competitor_connections',
  'company_news',
];
const PERSON_LEVEL = [
  'new_decision_makers',
  'company_post_reactions',
  'competitor_social_reactions',
  'competitor_connections',
];
const companyLevelOnly = Object.fromEntries(PERSON_LEVEL.map((key) => [key, { enabled: false }]));

describe('creating an account-watchlist signal', () => {
  test('answers 201 with the import result, the watchlist defaults, and no companies in config', async () => {
    const signal = expectStatus(await create(watchlistBody({ config: { companies: ['acme.com', 'Globex'] } })), 201);
    expect(signal).toMatchObject({
      name: 'Target accounts',
      status: 'draft',
      signalTypeId: 'account_watchlist',
      webhookUrl: null,
      dailyLeadLimit: 100,
      duplicateHandling: 'allow',
      leadsToday: 0,
      leadsTotal: 0,
      lastLeadAt: null,
      applied: {},
      warnings: [],
      watchlist: { watched: 2, rejected: 0, alreadyWatched: 0 },
    });
    expect(signal.config).not.toHaveProperty('companies');
    expect(signal.config.firstRunLookbackDays).toBe(180);
    // Every event is on by default except company_news.
    expect(Object.keys(signal.config.sources).sort()).toEqual([...EVENT_KEYS].sort());
    for (const key of EVENT_KEYS)
      expect({ key, enabled: signal.config.sources[key].enabled }).toEqual({ key, enabled: key !== 'company_news' });
  });

  test('company_news is on only when asked for; other sources keep their defaults', async () => {
    const signal = expectStatus(
      await create(
        watchlistBody({
          config: {
            companies: ['acme.com'],
            sources: { company_news: { enabled: true }, fundraising: { enabled: false } },
          },
        }),
      ),
      201,
    );
    expect(signal.config.sources.company_news).toEqual({ enabled: true });
    expect(signal.config.sources.fundraising).toEqual({ enabled: false });
    expect(signal.config.sources.job_offers).toEqual({ enabled: true });
  });

  test('every config parameter is stored; companies are consumed, never echoed', async () => {
    const signal = expectStatus(
      await create(
        watchlistBody({
          config: {
            companies: ['acme.com'],
            firstRunLookbackDays: 30,
            targetPersonas: ['Chief Technology Officer'],
            getEmails: true,
            getPhones: true,
          },
        }),
      ),
      201,
    );
    expect(signal.config).toMatchObject({
      firstRunLookbackDays: 30,
      targetPersonas: ['Chief Technology Officer'],
      getEmails: true,
      getPhones: true,
    });
    expect(signal.config).not.toHaveProperty('companies');
    expect(signal.applied).toEqual({});
    const read = expectStatus(await api.get(`/signals/${signal.id}`), 200);
    expect(read.config).toEqual(signal.config);
    expect(read).not.toHaveProperty('watchlist');
  });

  test('duplicateHandling defaults to allow for the watchlist and takes the same values', async () => {
    expect(expectStatus(await create(watchlistBody()), 201).duplicateHandling).toBe('allow');
    expect(expectStatus(await create(watchlistBody({ duplicateHandling: '7d' })), 201).duplicateHandling).toBe('7d');
    const error = expectError(await create(watchlistBody({ duplicateHandling: '0d' })), 422, 'VALIDATION_ERROR');
    expect(error.details.map((d: { field: string }) => d.field)).toEqual(['duplicateHandling']);
  });

  test('a draft watchlist may start empty', async () => {
    const signal = expectStatus(await create({ name: 'Empty', config: {} }), 201);
    expect(signal.watchlist).toEqual({ watched: 0, rejected: 0, alreadyWatched: 0 });
  });
});

describe('config is checked against the watchlist parameters', () => {
  test('an unknown config field, an unknown source and a job-changes field are 422 naming them; nothing created', async () => {
    const before = await total();
    const unknownField = expectError(
      await create(watchlistBody({ config: { companies: ['acme.com'], lookbackDays: 30 } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(unknownField.message).toContain('lookbackDays');
    const unknownSource = expectError(
      await create(
        watchlistBody({ config: { companies: ['acme.com'], sources: { tiktok_dances: { enabled: true } } } }),
      ),
      422,
      'VALIDATION_ERROR',
    );
    expect(unknownSource.message).toContain('tiktok_dances');
    const otherType = expectError(
      await create(watchlistBody({ config: { companies: ['acme.com'], jobTitles: ['Founder'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(otherType.message).toContain('jobTitles');
    expect(await total()).toBe(before);
  });

  test('an unknown persona in targetPersonas is 422', async () => {
    const error = expectError(
      await create(watchlistBody({ config: { companies: ['acme.com'], targetPersonas: ['Chief Vibes Officer'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(error.details.map((d: { field: string }) => d.field)).toEqual(['config.targetPersonas.0']);
  });

  test('config is required', async () => {
    const error = expectError(await create({ name: 'No config' }), 422, 'VALIDATION_ERROR');
    expect(error.details.map((d: { field: string }) => d.field)).toEqual(['config']);
  });
});

describe('importing a mixed company list at creation', () => {
  test('counts watched, rejected and alreadyWatched, and lists what is watched', async () => {
    const companies = [
      'Initech', // a name
      'acme.com', // a domain
      'www.acme.com', // same domain again: already watched
      'https://www.linkedin.com/company/globex-corporation/', // a company page
      'https://www.linkedin.com/in/jane-doe-123', // a personal profile: usable
      'https://www.linkedin.com/jobs/view/123456', // a jobs page: unusable
      { name: 'Umbrella Corp', domain: 'umbrellacorp.com' }, // object with name and domain
      { name: 'Hooli', domain: 'https://www.hooli.xyz/about' }, // a website in the domain field
      { linkedinUrl: '' }, // neither name nor domain: unusable
      {}, // nothing at all: unusable
      'initech', // the same name, other case: already watched
      'LinkedIn.com/company/Globex-Corporation', // the same company page, other spelling: already watched
    ];
    const signal = expectStatus(await create(watchlistBody({ config: { companies } })), 201);
    expect(signal.watchlist).toEqual({ watched: 6, rejected: 3, alreadyWatched: 3 });
    const { watched: w, rejected, alreadyWatched } = signal.watchlist;
    expect(w + rejected + alreadyWatched).toBe(companies.length);
    expect(signal.config).not.toHaveProperty('companies');

    const list = await watched(signal.id);
    expect(list.total).toBe(6);
    expect(list.items).toHaveLength(6);
    const rows = list.items.map((i: Record<string, unknown>) => [i.name, i.domain, i.linkedinUrl]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Initech', null, null],
        [null, 'acme.com', null],
        [null, null, 'https://www.linkedin.com/company/globex-corporation'],
        [null, null, 'https://www.linkedin.com/in/jane-doe-123'],
        ['Umbrella Corp', 'umbrellacorp.com', null],
        ['Hooli', 'hooli.xyz', null],
      ]),
    );
  });

  test('an active watchlist needs at least one usable entry: 400 MISSING_REQUIRED_FIELDS, nothing created', async () => {
    const before = await total();
    for (const companies of [undefined, [], ['https://www.linkedin.com/jobs/view/1', { name: '  ' }]]) {
      const error = expectError(
        await create({ name: 'Active', status: 'active', config: companies ? { companies } : {} }),
        400,
        'MISSING_REQUIRED_FIELDS',
      );
      expect(error.missing_fields).toEqual(['config.companies']);
      expect(error.missing_field_labels).toHaveLength(1);
      expect(typeof error.missing_field_labels[0]).toBe('string');
    }
    expect(await total()).toBe(before);
    const active = expectStatus(await create(watchlistBody({ status: 'active' })), 201);
    expect(active.status).toBe('active');
    expect(active.watchlist.watched).toBe(1);
  });

  test('activating on an account without enough credits is 402 and imports nothing', async () => {
    for (const credits of [undefined, 1]) {
      const poor = await createAccount(stack, credits === undefined ? {} : { credits });
      const poorApi = client(stack, poor.apiKey);
      const error = expectError(
        await poorApi.post('/signals/account-watchlist', watchlistBody({ status: 'active' })),
        402,
        'INSUFFICIENT_CREDITS',
      );
      expect(error.message).toMatch(/credit/i);
      expect(await total(poorApi)).toBe(0);
    }
    // A watchlist lead costs 3: 2 credits are not enough, 3 are.
    const two = client(stack, (await createAccount(stack, { credits: 2 })).apiKey);
    expectError(
      await two.post('/signals/account-watchlist', watchlistBody({ status: 'active' })),
      402,
      'INSUFFICIENT_CREDITS',
    );
    expect(await total(two)).toBe(0);
    const three = client(stack, (await createAccount(stack, { credits: 3 })).apiKey);
    expect(
      expectStatus(await three.post('/signals/account-watchlist', watchlistBody({ status: 'active' })), 201).status,
    ).toBe('active');
  });
});

describe('applied settings and warnings of a watchlist', () => {
  test('getEmails with only company-level events and no personas is applied as null with FIELD_UNUSED, on create and on GET', async () => {
    const created = expectStatus(
      await create(watchlistBody({ config: { companies: ['acme.com'], sources: companyLevelOnly, getEmails: true } })),
      201,
    );
    expect(created.config.getEmails).toBe(true);
    expect(created.applied).toEqual({ getEmails: null });
    expect(warningsOf(created, 'FIELD_UNUSED')).toEqual([
      {
        code: 'FIELD_UNUSED',
        field: 'getEmails',
        severity: 'info',
        message: expect.stringContaining('getEmails'),
        values: [],
      },
    ]);
    expectAppliedExplained(created);

    const read = expectStatus(await api.get(`/signals/${created.id}`), 200);
    expect(read.applied).toEqual(created.applied);
    expect(read.warnings).toEqual(created.warnings);
  });

  test('getEmails is used once a person-level event or a persona is in play', async () => {
    const withPersonas = expectStatus(
      await create(
        watchlistBody({
          config: { companies: ['acme.com'], sources: companyLevelOnly, getEmails: true, targetPersonas: ['Founder'] },
        }),
      ),
      201,
    );
    expect(withPersonas.applied).toEqual({});
    const withPeopleEvents = expectStatus(
      await create(watchlistBody({ config: { companies: ['acme.com'], getEmails: true } })),
      201,
    );
    expect(withPeopleEvents.applied).toEqual({});
    expect(warningsOf(withPeopleEvents, 'FIELD_UNUSED')).toEqual([]);
  });

  test('getEmails and getPhones both unused: one applied entry and one warning each', async () => {
    const created = expectStatus(
      await create(
        watchlistBody({
          config: { companies: ['acme.com'], sources: companyLevelOnly, getEmails: true, getPhones: true },
        }),
      ),
      201,
    );
    expect(created.applied).toEqual({ getEmails: null, getPhones: null });
    expect(
      warningsOf(created, 'FIELD_UNUSED')
        .map((w) => w.field)
        .sort(),
    ).toEqual(['getEmails', 'getPhones']);
    expectAppliedExplained(created);
  });
});

describe('over everything this file created', () => {
  test('no config echoes companies, and every applied entry has a warning naming the same field', async () => {
    const { signals } = expectStatus(await api.get('/signals?limit=100'), 200);
    expect(signals.length).toBeGreaterThan(5);
    expect(signals.filter((s: { applied: object }) => Object.keys(s.applied).length > 0).length).toBeGreaterThan(0);
    for (const signal of signals) {
      expect(signal.config).not.toHaveProperty('companies');
      expectAppliedExplained(signal);
    }
  });
});
