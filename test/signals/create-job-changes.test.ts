import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import {
  startSignalsStack,
  client,
  expectAppliedExplained,
  expectError,
  expectStatus,
  jobChangesBody,
  warningsOf,
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

const create = (body: unknown) => api.post('/signals/job-changes', body);
const total = async (a: Client = api) => expectStatus(await a.get('/signals?limit=100'), 200).total as number;
const detailFields = (error: Record<string, any>) => (error.details as { field: string }[]).map((d) => d.field);

describe('creating a job-changes signal: the resource and its defaults', () => {
  test('a minimal body answers 201 with every field of the Signal resource and the defaults', async () => {
    const signal = expectStatus(await create(jobChangesBody()), 201);
    expect(signal).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'New CTOs',
      status: 'draft',
      signalTypeId: 'job_changes',
      webhookUrl: null,
      config: { jobTitles: ['Chief Technology Officer'] },
      destinations: {},
      dailyLeadLimit: 100,
      leadsToday: 0,
      leadsTotal: 0,
      duplicateHandling: 'refuse',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastLeadAt: null,
      applied: {},
      warnings: [],
    });
    expect(Number.isNaN(Date.parse(signal.createdAt))).toBe(false);
    expect('watchlist' in signal).toBe(false);
  });

  test('each status may be chosen at creation', async () => {
    for (const status of ['draft', 'active', 'paused']) {
      const signal = expectStatus(await create(jobChangesBody({ status })), 201);
      expect(signal.status).toBe(status);
    }
  });
});

describe('top-level fields are checked: 422 VALIDATION_ERROR naming the field, nothing created', () => {
  test('name takes 1 to 255 characters', async () => {
    expect(expectStatus(await create(jobChangesBody({ name: 'x' })), 201).name).toBe('x');
    const longest = 'n'.repeat(255);
    expect(expectStatus(await create(jobChangesBody({ name: longest })), 201).name).toBe(longest);

    const before = await total();
    for (const name of ['', 'n'.repeat(256)]) {
      const error = expectError(await create(jobChangesBody({ name })), 422, 'VALIDATION_ERROR');
      expect(detailFields(error)).toEqual(['name']);
    }
    expect(detailFields(expectError(await create({ config: {} }), 422, 'VALIDATION_ERROR'))).toEqual(['name']);
    expect(await total()).toBe(before);
  });

  test('dailyLeadLimit is an integer from 1 to 999999, 100 by default', async () => {
    expect(expectStatus(await create(jobChangesBody({ dailyLeadLimit: 1 })), 201).dailyLeadLimit).toBe(1);
    expect(expectStatus(await create(jobChangesBody({ dailyLeadLimit: 999_999 })), 201).dailyLeadLimit).toBe(999_999);
    const before = await total();
    for (const dailyLeadLimit of [0, 1_000_000, 2.5, -1, '10']) {
      const error = expectError(await create(jobChangesBody({ dailyLeadLimit })), 422, 'VALIDATION_ERROR');
      expect(detailFields(error)).toEqual(['dailyLeadLimit']);
    }
    expect(await total()).toBe(before);
  });

  test('duplicateHandling is refuse, allow or <X>d; refuse by default for job changes', async () => {
    for (const duplicateHandling of ['refuse', 'allow', '30d', '1d']) {
      expect(expectStatus(await create(jobChangesBody({ duplicateHandling })), 201).duplicateHandling).toBe(
        duplicateHandling,
      );
    }
    const before = await total();
    for (const duplicateHandling of ['x', '0d', 'd', '30', '30days', 'REFUSE', '-5d']) {
      const error = expectError(await create(jobChangesBody({ duplicateHandling })), 422, 'VALIDATION_ERROR');
      expect({ duplicateHandling, fields: detailFields(error) }).toEqual({
        duplicateHandling,
        fields: ['duplicateHandling'],
      });
    }
    expect(await total()).toBe(before);
  });

  test('status is draft by default and must be one of the three values', async () => {
    expect(expectStatus(await create(jobChangesBody()), 201).status).toBe('draft');
    const before = await total();
    for (const status of ['Active', 'running', 'deleted', '']) {
      const error = expectError(await create(jobChangesBody({ status })), 422, 'VALIDATION_ERROR');
      expect(detailFields(error)).toEqual(['status']);
    }
    expect(await total()).toBe(before);
  });

  test('webhookUrl is optional, may be null, and must be http or https', async () => {
    expect(expectStatus(await create(jobChangesBody({ webhookUrl: null })), 201).webhookUrl).toBeNull();
    for (const webhookUrl of ['https://hooks.example.com/leads', 'http://hooks.example.com/leads?x=1']) {
      expect(expectStatus(await create(jobChangesBody({ webhookUrl })), 201).webhookUrl).toBe(webhookUrl);
    }
    const before = await total();
    for (const webhookUrl of [
      'ftp://hooks.example.com/leads',
      'hooks.example.com/leads',
      'javascript:alert(1)',
      'not a url',
      42,
    ]) {
      const error = expectError(await create(jobChangesBody({ webhookUrl })), 422, 'VALIDATION_ERROR');
      expect(detailFields(error)).toEqual(['webhookUrl']);
    }
    expect(await total()).toBe(before);
  });

  test('a field that does not exist on the body is refused and named', async () => {
    const error = expectError(await create(jobChangesBody({ colour: 'blue' })), 422, 'VALIDATION_ERROR');
    expect(detailFields(error)).toEqual(['colour']);
    expect(error.message).toContain('colour');
  });
});

describe('config is checked against the job-changes parameters', () => {
  test('a config field that does not exist for the type is 422 and the message names it', async () => {
    const before = await total();
    const error = expectError(
      await create(jobChangesBody({ config: { jobTitles: ['Chief Technology Officer'], seniority: ['vp'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(error.message).toContain('seniority');
    expect(detailFields(error)).toEqual(['config.seniority']);
    // A watchlist-only field is just as unknown here.
    const companies = expectError(
      await create(jobChangesBody({ config: { companies: ['acme.com'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(companies.message).toContain('companies');
    expect(await total()).toBe(before);
  });

  test('a jobTitles entry that is not a persona name is 422 on that entry', async () => {
    const before = await total();
    const error = expectError(
      await create(jobChangesBody({ config: { jobTitles: ['Chief Technology Officer', 'Chief Vibes Officer'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(detailFields(error)).toEqual(['config.jobTitles.1']);
    expect(error.message).toContain('/api/v1/personas');
    expect(await total()).toBe(before);
  });

  test('companySizeFilters take only the published bands', async () => {
    const bands = [
      'Self-employed',
      '1-10',
      '11-50',
      '51-200',
      '201-500',
      '501-1000',
      '1001-5000',
      '5001-10000',
      '10001+',
    ];
    const signal = expectStatus(
      await create(jobChangesBody({ config: { customTitles: ['Head of Data'], companySizeFilters: bands } })),
      201,
    );
    expect(signal.config.companySizeFilters).toEqual(bands);
    const error = expectError(
      await create(jobChangesBody({ config: { companySizeFilters: ['11-49'] } })),
      422,
      'VALIDATION_ERROR',
    );
    expect(detailFields(error)).toEqual(['config.companySizeFilters.0']);
  });

  test('config values of the wrong type are refused per field', async () => {
    const error = expectError(
      await create(
        jobChangesBody({ config: { jobTitles: 'Chief Technology Officer', getEmails: 'yes', maxJobAgeDays: 1.5 } }),
      ),
      422,
      'VALIDATION_ERROR',
    );
    expect(detailFields(error).sort()).toEqual(['config.getEmails', 'config.jobTitles', 'config.maxJobAgeDays']);
  });

  test('every config parameter is stored as sent', async () => {
    const config = {
      jobTitles: ['Chief Technology Officer', 'VP of Engineering'],
      customTitles: ['Head of Platform'],
      companySizeFilters: ['51-200', '201-500'],
      industryFilters: ['Software Development'],
      locations: ['France', 'Austin, Texas'],
      getEmails: true,
      maxJobAgeDays: 365,
    };
    const signal = expectStatus(await create(jobChangesBody({ config })), 201);
    expect(signal.config).toEqual(config);
    expect(signal.applied).toEqual({});
    expect(signal.warnings).toEqual([]);
  });
});

describe('INVALID_LOCATION', () => {
  test('unrecognised locations are 400 with invalid_locations and a pointer to the validation endpoint; nothing created', async () => {
    const before = await total();
    const error = expectError(
      await create(
        jobChangesBody({
          config: { jobTitles: ['Chief Technology Officer'], locations: ['France', 'Frnace', 'Atlantis City'] },
        }),
      ),
      400,
      'INVALID_LOCATION',
    );
    expect(error.invalid_locations).toEqual(['Frnace', 'Atlantis City']);
    expect(error.message).toContain('/api/v1/enrichment/validate-location');
    expect(await total()).toBe(before);
  });
});

describe('creating an active signal', () => {
  test('without job titles is 400 MISSING_REQUIRED_FIELDS with the fields and their labels; nothing created', async () => {
    const before = await total();
    for (const config of [{}, { jobTitles: [], customTitles: [] }, { industryFilters: ['Software Development'] }]) {
      const error = expectError(
        await create({ name: 'Active', status: 'active', config }),
        400,
        'MISSING_REQUIRED_FIELDS',
      );
      expect(error.missing_fields).toEqual(['config.jobTitles']);
      expect(error.missing_field_labels).toEqual([expect.stringContaining('customTitles')]);
      expect(error.missing_field_labels).toHaveLength(error.missing_fields.length);
    }
    expect(await total()).toBe(before);
  });

  test('customTitles alone are enough to activate', async () => {
    const signal = expectStatus(
      await create({ name: 'Custom', status: 'active', config: { customTitles: ['Head of Platform'] } }),
      201,
    );
    expect(signal.status).toBe('active');
  });

  test('the same config in draft needs nothing', async () => {
    expect(expectStatus(await create({ name: 'Draft', config: {} }), 201).status).toBe('draft');
  });

  test('on an account with no credits, or fewer than a lead costs, is 402 INSUFFICIENT_CREDITS; nothing created', async () => {
    for (const credits of [undefined, 1]) {
      const poor = await createAccount(stack, credits === undefined ? {} : { credits });
      const poorApi = client(stack, poor.apiKey);
      expect(await total(poorApi)).toBe(0);
      const error = expectError(
        await poorApi.post('/signals/job-changes', jobChangesBody({ status: 'active' })),
        402,
        'INSUFFICIENT_CREDITS',
      );
      expect(error.message).toMatch(/credit/i);
      expect(await total(poorApi)).toBe(0);
      // A draft costs nothing, so it is allowed on the same account.
      expect(expectStatus(await poorApi.post('/signals/job-changes', jobChangesBody()), 201).status).toBe('draft');
      expect(await total(poorApi)).toBe(1);
    }
  });

  test('the price of one lead (2 credits) is enough to activate', async () => {
    const enough = client(stack, (await createAccount(stack, { credits: 2 })).apiKey);
    expect(
      expectStatus(await enough.post('/signals/job-changes', jobChangesBody({ status: 'active' })), 201).status,
    ).toBe('active');
  });
});

describe('applied settings and warnings', () => {
  test('maxJobAgeDays below 180 is stored as sent, applied as 180, and explained by an info warning, on create and on GET', async () => {
    const created = expectStatus(
      await create(jobChangesBody({ config: { jobTitles: ['Chief Technology Officer'], maxJobAgeDays: 90 } })),
      201,
    );
    expect(created.config.maxJobAgeDays).toBe(90);
    expect(created.applied).toEqual({ maxJobAgeDays: 180 });
    expect(created.warnings).toEqual([
      {
        code: 'VALUE_BELOW_MINIMUM',
        field: 'maxJobAgeDays',
        severity: 'info',
        message: expect.stringContaining('180'),
        values: expect.any(Array),
      },
    ]);
    expectAppliedExplained(created);

    const read = expectStatus(await api.get(`/signals/${created.id}`), 200);
    expect(read.applied).toEqual(created.applied);
    expect(read.warnings).toEqual(created.warnings);
  });

  test('maxJobAgeDays of 180 or more runs as stored', async () => {
    for (const maxJobAgeDays of [180, 400]) {
      const signal = expectStatus(
        await create(jobChangesBody({ config: { jobTitles: ['Chief Technology Officer'], maxJobAgeDays } })),
        201,
      );
      expect(signal.applied).toEqual({});
      expect(warningsOf(signal, 'VALUE_BELOW_MINIMUM')).toEqual([]);
    }
  });

  test('an unknown industry is a warning naming it, never an error, on create and on GET', async () => {
    const created = expectStatus(
      await create(
        jobChangesBody({
          status: 'active',
          config: {
            jobTitles: ['Chief Technology Officer'],
            industryFilters: ['Software Development', 'Sofware Development'],
          },
        }),
      ),
      201,
    );
    expect(created.status).toBe('active');
    const [unknown, ...others] = warningsOf(created, 'UNKNOWN_INDUSTRY');
    expect(others).toEqual([]);
    expect(unknown).toMatchObject({ field: 'industryFilters', values: ['Sofware Development'] });
    expect(unknown.message).toContain('Sofware Development');
    expect(['info', 'warning']).toContain(unknown.severity);
    expect(created.config.industryFilters).toEqual(['Software Development', 'Sofware Development']);
    expectAppliedExplained(created);
    expect(expectStatus(await api.get(`/signals/${created.id}`), 200).warnings).toEqual(created.warnings);
  });

  test('a category sent together with its own industries is a warning', async () => {
    const created = expectStatus(
      await create(
        jobChangesBody({
          config: {
            jobTitles: ['Chief Technology Officer'],
            industryFilters: ['Technology, Information and Media', 'Software Development'],
          },
        }),
      ),
      201,
    );
    const warnings = created.warnings.filter((w: { field: string }) => w.field === 'industryFilters');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].values).toEqual(
      expect.arrayContaining(['Technology, Information and Media', 'Software Development']),
    );
    expect(warnings[0].code).not.toBe('UNKNOWN_INDUSTRY');
    expect(expectStatus(await api.get(`/signals/${created.id}`), 200).warnings).toEqual(created.warnings);
  });

  test('several warnings at once still create the signal (201), each with code, field, message, severity and values', async () => {
    const created = expectStatus(
      await create(
        jobChangesBody({
          config: {
            jobTitles: ['Chief Technology Officer'],
            maxJobAgeDays: 30,
            industryFilters: ['Nonexistent Industry', 'Technology, Information and Media', 'Software Development'],
          },
        }),
      ),
      201,
    );
    expect(created.warnings.map((w: { field: string }) => w.field).sort()).toEqual([
      'industryFilters',
      'industryFilters',
      'maxJobAgeDays',
    ]);
    for (const warning of created.warnings) {
      expect(warning).toEqual({
        code: expect.any(String),
        field: expect.any(String),
        message: expect.any(String),
        severity: expect.stringMatching(/^(info|warning)$/),
        values: expect.any(Array),
      });
    }
    expectAppliedExplained(created);
  });
});

describe('over everything this file created', () => {
  test('every applied entry of every signal has a warning naming the same field', async () => {
    const { signals } = expectStatus(await api.get('/signals?limit=100'), 200);
    expect(signals.filter((s: { applied: object }) => Object.keys(s.applied).length > 0).length).toBeGreaterThan(0);
    for (const signal of signals) expectAppliedExplained(signal);
  });
});
