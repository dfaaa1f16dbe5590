import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  startSignalsStack,
  client,
  expectError,
  expectStatus,
  jobChangesBody,
  warningsOf,
  watchlistBody,
  type Client,
} from './helpers';

let stack: Stack;
let api: Client;

beforeAll(async () => {
  stack = await startSignalsStack();
  api = client(stack, (await createAccount(stack, { credits: 100 })).apiKey);
});
afterAll(() => stack.stop());

const SIZE_BANDS = [
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

describe('GET /api/v1/signal-types', () => {
  test('lists every type with its endpoint, parameters, pricing, price per lead and output fields', async () => {
    const { signalTypes } = expectStatus(await api.get('/signal-types'), 200);
    const byId = Object.fromEntries(signalTypes.map((t: { signalTypeId: string }) => [t.signalTypeId, t]));
    expect(Object.keys(byId).sort()).toEqual([
      'account_score',
      'account_watchlist',
      'fundraising',
      'hiring',
      'job_changes',
    ]);

    expect(byId.job_changes).toMatchObject({ createEndpoint: 'POST /api/v1/signals/job-changes', creditsPerLead: 2 });
    expect(byId.account_watchlist).toMatchObject({
      createEndpoint: 'POST /api/v1/signals/account-watchlist',
      creditsPerLead: 3,
    });
    expect(byId.job_changes.pricingModel).toContain('2');
    expect(byId.job_changes.pricingModel).toContain('0.5');
    expect(byId.account_watchlist.pricingModel).toContain('3');
    expect(byId.account_score).toMatchObject({
      createEndpoint: 'POST /api/v1/signals/account-score',
      creditsPerLead: 3,
    });

    const params = (id: string) =>
      Object.fromEntries(byId[id].configParameters.map((p: { name: string }) => [p.name, p]));
    const jobChanges = params('job_changes');
    expect(Object.keys(jobChanges).sort()).toEqual(
      [
        'companySizeFilters',
        'customTitles',
        'getEmails',
        'industryFilters',
        'jobTitles',
        'locations',
        'maxJobAgeDays',
      ].sort(),
    );
    expect(jobChanges.companySizeFilters.allowedValues).toEqual(SIZE_BANDS);
    expect(jobChanges.maxJobAgeDays.type).toBe('integer');
    expect(jobChanges.getEmails.type).toBe('boolean');
    for (const parameter of byId.job_changes.configParameters) {
      expect(parameter).toMatchObject({
        name: expect.any(String),
        type: expect.any(String),
        required: expect.any(Boolean),
        description: expect.any(String),
      });
      expect(parameter.description.length).toBeGreaterThan(0);
    }
    expect(Object.keys(params('account_watchlist')).sort()).toEqual(
      ['companies', 'firstRunLookbackDays', 'getEmails', 'getPhones', 'sources', 'targetPersonas'].sort(),
    );

    for (const type of signalTypes) {
      expect(type.outputFields.signal).toEqual(
        expect.arrayContaining(['id', 'name', 'type', 'last_signal', 'last_signal_date']),
      );
      expect(type.outputFields.contact).toEqual(
        expect.arrayContaining(['lead_id', 'first_name', 'email', 'matched_persona']),
      );
      expect(type.outputFields.company).toEqual(
        expect.arrayContaining(['name', 'website', 'employee_range', 'hq_country_code']),
      );
    }
    expect(byId.job_changes.outputFields.signal).toEqual(
      expect.arrayContaining(['previous_title', 'new_company', 'change_type']),
    );
    expect(byId.account_watchlist.outputFields.signal).toEqual(
      expect.arrayContaining(['funding_type', 'news_event_type', 'watchlist_role']),
    );
    expect(byId.account_score.outputFields.signal).toEqual(
      expect.arrayContaining(['score', 'grade', 'score_breakdown']),
    );
  });

  test('every parameter it lists is accepted by its create endpoint, and nothing else', async () => {
    const { signalTypes } = expectStatus(await api.get('/signal-types'), 200);
    const jobChanges = signalTypes.find((t: { signalTypeId: string }) => t.signalTypeId === 'job_changes');
    const sample: Record<string, unknown> = {
      jobTitles: ['Founder'],
      customTitles: ['Head of Data'],
      companySizeFilters: ['11-50'],
      industryFilters: ['Software Development'],
      locations: ['Germany'],
      getEmails: false,
      maxJobAgeDays: 200,
    };
    const config = Object.fromEntries(
      jobChanges.configParameters.map((p: { name: string }) => [p.name, sample[p.name]]),
    );
    expect(Object.values(config).every((v) => v !== undefined)).toBe(true);
    expect(
      expectStatus(await api.post('/signals/job-changes', { name: 'All parameters', config }), 201).config,
    ).toEqual(config);
  });
});

describe('GET /api/v1/personas', () => {
  test('every persona name is usable verbatim in jobTitles and targetPersonas', async () => {
    const { personas } = expectStatus(await api.get('/personas'), 200);
    expect(personas.length).toBeGreaterThan(10);
    for (const persona of personas) {
      expect(persona).toMatchObject({
        name: expect.any(String),
        department: expect.any(String),
        seniority: expect.any(String),
        titles: expect.any(Array),
      });
    }
    const names = personas.map((p: { name: string }) => p.name);
    const jobChanges = expectStatus(
      await api.post(
        '/signals/job-changes',
        jobChangesBody({ status: 'active', config: { jobTitles: names.slice(0, 200) } }),
      ),
      201,
    );
    expect(jobChanges.config.jobTitles).toEqual(names.slice(0, 200));
    expect(jobChanges.warnings).toEqual([]);
    const watchlist = expectStatus(
      await api.post(
        '/signals/account-watchlist',
        watchlistBody({ config: { companies: ['acme.com'], targetPersonas: names.slice(-3) } }),
      ),
      201,
    );
    expect(watchlist.config.targetPersonas).toEqual(names.slice(-3));
  });

  test('search narrows the list by name or title', async () => {
    const { personas } = expectStatus(await api.get('/personas?search=cto'), 200);
    expect(personas.map((p: { name: string }) => p.name)).toContain('Chief Technology Officer');
    expect(expectStatus(await api.get('/personas?search=zzzz-no-such-role'), 200).personas).toEqual([]);
  });
});

describe('GET /api/v1/signals/industries', () => {
  test('search finds industries whose names are usable verbatim, without an unknown-industry warning', async () => {
    const { industries } = expectStatus(await api.get('/signals/industries?search=software'), 200);
    expect(industries.length).toBeGreaterThan(0);
    for (const industry of industries) {
      expect(industry).toEqual(expect.objectContaining({ name: expect.any(String), category: expect.any(String) }));
      expect(`${industry.name} ${industry.category}`.toLowerCase()).toContain('software');
    }
    const names = industries.map((i: { name: string }) => i.name);
    expect(names).toContain('Software Development');
    const signal = expectStatus(
      await api.post(
        '/signals/job-changes',
        jobChangesBody({ config: { jobTitles: ['Founder'], industryFilters: names } }),
      ),
      201,
    );
    expect(signal.config.industryFilters).toEqual(names);
    expect(warningsOf(signal, 'UNKNOWN_INDUSTRY')).toEqual([]);
  });

  test('without search it lists the whole taxonomy; every name there is known too', async () => {
    const { industries } = expectStatus(await api.get('/signals/industries'), 200);
    expect(industries.length).toBeGreaterThan(100);
    const sample = industries.filter((_: unknown, i: number) => i % 25 === 0).map((i: { name: string }) => i.name);
    const signal = expectStatus(
      await api.post(
        '/signals/job-changes',
        jobChangesBody({ config: { jobTitles: ['Founder'], industryFilters: sample } }),
      ),
      201,
    );
    expect(warningsOf(signal, 'UNKNOWN_INDUSTRY')).toEqual([]);
    expect(expectStatus(await api.get('/signals/industries?search=zzzz-nothing'), 200).industries).toEqual([]);
  });
});

describe('GET /api/v1/enrichment/validate-location', () => {
  test('resolves countries, regions and cities, and suggests near misses', async () => {
    const answer = expectStatus(await api.get('/enrichment/validate-location?locations=France,California,Frnace'), 200);
    const kinds = Object.fromEntries(answer.valid.map((v: { input: string; kind: string }) => [v.input, v.kind]));
    expect(kinds.France).toBe('country');
    expect(kinds.California).toBe('region');
    expect(answer.valid).toHaveLength(2);
    for (const valid of answer.valid)
      expect(valid).toEqual(expect.objectContaining({ input: expect.any(String), name: expect.any(String) }));
    expect(answer.invalid).toEqual([{ input: 'Frnace', suggestions: expect.arrayContaining(['France']) }]);
    expect(answer.invalid[0].suggestions[0]).toBe('France');
  });

  test('a city resolves, and every valid input is accepted in a signal', async () => {
    const answer = expectStatus(await api.get('/enrichment/validate-location?locations=Paris,Berlin,Texas'), 200);
    expect(answer.invalid).toEqual([]);
    expect(answer.valid.map((v: { input: string; kind: string }) => [v.input, v.kind])).toEqual([
      ['Paris', 'city'],
      ['Berlin', expect.stringMatching(/^(city|region)$/)],
      ['Texas', 'region'],
    ]);
    const signal = expectStatus(
      await api.post(
        '/signals/job-changes',
        jobChangesBody({
          config: { jobTitles: ['Founder'], locations: ['Paris', 'Berlin', 'Texas', 'Austin, Texas'] },
        }),
      ),
      201,
    );
    expect(signal.config.locations).toEqual(['Paris', 'Berlin', 'Texas', 'Austin, Texas']);
  });

  test('without locations the query is 400 INVALID_REQUEST', async () => {
    expectError(await api.get('/enrichment/validate-location'), 400, 'INVALID_REQUEST');
  });
});

describe('GET /api/v1/technographics', () => {
  test('lists tools with their category, and search narrows them', async () => {
    const { tools } = expectStatus(await api.get('/technographics'), 200);
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) expect(tool).toEqual({ name: expect.any(String), category: expect.any(String) });
    const crm = expectStatus(await api.get('/technographics?search=hubspot'), 200).tools;
    expect(crm).toContainEqual({ name: 'HubSpot CRM', category: 'CRM' });
    expect(crm.every((t: { name: string }) => t.name.toLowerCase().includes('hubspot'))).toBe(true);
    expect(crm.length).toBeLessThan(tools.length);
    const byCategory = expectStatus(await api.get('/technographics?search=payments'), 200).tools;
    expect(byCategory.map((t: { name: string }) => t.name)).toContain('Stripe');
    expect(byCategory.every((t: { category: string }) => t.category === 'Payments')).toBe(true);
  });
});
