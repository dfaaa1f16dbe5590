import type { Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startSignalsStack } from './helpers';

let stack: Stack;
let document: any;

beforeAll(async () => {
  stack = await startSignalsStack();
  const answer = await call(`${stack.url}/api/v1/openapi.json`);
  expect(answer.status).toBe(200);
  document = answer.body;
});
afterAll(() => stack.stop());

/** Follows `$ref`s into components, as a client generator would. */
function resolve(schema: any): any {
  if (!schema?.$ref) return schema;
  const name = String(schema.$ref).replace('#/components/schemas/', '');
  expect(document.components.schemas).toHaveProperty(name);
  return resolve(document.components.schemas[name]);
}
const operation = (path: string, method: string) => {
  expect({ path, methods: Object.keys(document.paths[path] ?? {}) }).toEqual({
    path,
    methods: expect.arrayContaining([method]),
  });
  return document.paths[path][method];
};
const requestSchema = (path: string, method: string) =>
  resolve(operation(path, method).requestBody?.content?.['application/json']?.schema);
const responseSchema = (path: string, method: string, status: string) =>
  resolve(operation(path, method).responses?.[status]?.content?.['application/json']?.schema);
const parameterNames = (path: string, method: string, where: string) =>
  (operation(path, method).parameters ?? [])
    .filter((p: { in: string }) => p.in === where)
    .map((p: { name: string }) => p.name)
    .sort();

const ENDPOINTS: [string, string, string][] = [
  ['/api/v1/signals/job-changes', 'post', '201'],
  ['/api/v1/signals/account-watchlist', 'post', '201'],
  ['/api/v1/signals/fundraising', 'post', '201'],
  ['/api/v1/signals/hiring', 'post', '201'],
  ['/api/v1/signals', 'get', '200'],
  ['/api/v1/signals/{signalId}', 'get', '200'],
  ['/api/v1/signals/{signalId}', 'patch', '200'],
  ['/api/v1/signals/{signalId}', 'delete', '204'],
  ['/api/v1/signals/{signalId}/pause', 'post', '200'],
  ['/api/v1/signals/{signalId}/resume', 'post', '200'],
  ['/api/v1/watchlists/{signalId}/companies', 'get', '200'],
  ['/api/v1/watchlists/{signalId}/companies', 'post', '200'],
  ['/api/v1/watchlists/{signalId}/companies', 'delete', '200'],
  ['/api/v1/signal-types', 'get', '200'],
  ['/api/v1/personas', 'get', '200'],
  ['/api/v1/signals/industries', 'get', '200'],
  ['/api/v1/enrichment/validate-location', 'get', '200'],
  ['/api/v1/technographics', 'get', '200'],
];

describe('the OpenAPI document lists every signals endpoint', () => {
  test.each(ENDPOINTS)(
    '%s %s with an operation id, its success answer and its error answers',
    (path, method, success) => {
      const op = operation(path, method);
      expect(op.operationId).toEqual(expect.any(String));
      expect(op.responses).toHaveProperty(success);
      expect(op.responses).toHaveProperty('401');
      expect(op.responses).toHaveProperty('403');
      if (success !== '204')
        expect(responseSchema(path, method, success)).toEqual(expect.objectContaining({ type: 'object' }));
      if (path.includes('{signalId}')) {
        expect(parameterNames(path, method, 'path')).toEqual(['signalId']);
        expect(op.responses).toHaveProperty('404');
      }
    },
  );

  test('operation ids are unique', () => {
    const ids = ENDPOINTS.map(([path, method]) => operation(path, method).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('request bodies', () => {
  test('job-changes creation: name and config required, every config parameter described, unknown fields refused', () => {
    const body = requestSchema('/api/v1/signals/job-changes', 'post');
    expect(body.required).toEqual(expect.arrayContaining(['name', 'config']));
    expect(Object.keys(body.properties).sort()).toEqual([
      'config',
      'dailyLeadLimit',
      'duplicateHandling',
      'name',
      'status',
      'webhookUrl',
    ]);
    expect(body.properties.name).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(body.properties.dailyLeadLimit).toMatchObject({ minimum: 1, maximum: 999999, default: 100 });
    expect(body.properties.status).toMatchObject({ enum: ['draft', 'active', 'paused'], default: 'draft' });
    expect(body.properties.duplicateHandling.pattern).toEqual(expect.any(String));
    const config = resolve(body.properties.config);
    expect(Object.keys(config.properties).sort()).toEqual(
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
    expect(config.properties.companySizeFilters.items.enum).toEqual(
      expect.arrayContaining(['Self-employed', '10001+']),
    );
    expect(config.additionalProperties).toBe(false);
  });

  test('account-watchlist creation: config with companies, sources and the other settings', () => {
    const body = requestSchema('/api/v1/signals/account-watchlist', 'post');
    expect(body.required).toEqual(expect.arrayContaining(['name', 'config']));
    const config = resolve(body.properties.config);
    expect(Object.keys(config.properties).sort()).toEqual([
      'companies',
      'firstRunLookbackDays',
      'getEmails',
      'getPhones',
      'sources',
      'targetPersonas',
    ]);
    expect(Object.keys(resolve(config.properties.sources).properties)).toHaveLength(14);
    expect(config.additionalProperties).toBe(false);
  });

  test('fundraising and hiring creation: their config parameters, described, unknown fields refused', () => {
    const fundraising = resolve(requestSchema('/api/v1/signals/fundraising', 'post').properties.config);
    expect(Object.keys(fundraising.properties).sort()).toEqual(
      [
        'companySizeFilters',
        'fundingStages',
        'getEmails',
        'getPhones',
        'industryFilters',
        'locations',
        'maxAmountUsd',
        'maxAnnouncementAgeDays',
        'minAmountUsd',
        'targetPersonas',
      ].sort(),
    );
    expect(fundraising.properties.fundingStages.items.enum).toEqual(expect.arrayContaining(['Seed', 'Series A']));
    expect(fundraising.additionalProperties).toBe(false);
    const hiring = resolve(requestSchema('/api/v1/signals/hiring', 'post').properties.config);
    expect(Object.keys(hiring.properties).sort()).toEqual(
      [
        'companySizeFilters',
        'departments',
        'getEmails',
        'getPhones',
        'industryFilters',
        'jobLocations',
        'keywords',
        'locations',
        'maxPostingAgeDays',
        'seniorities',
        'targetPersonas',
      ].sort(),
    );
    expect(hiring.properties.departments.items.enum).toEqual(expect.arrayContaining(['engineering', 'sales']));
    for (const config of [fundraising, hiring]) {
      for (const [name, property] of Object.entries(config.properties))
        expect({ name, description: (property as { description?: string }).description }).toEqual({
          name,
          description: expect.any(String),
        });
    }
    expect(hiring.additionalProperties).toBe(false);
  });

  test('PATCH takes status, config, destinations, webhookUrl and the other settings', () => {
    const body = requestSchema('/api/v1/signals/{signalId}', 'patch');
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining([
        'status',
        'config',
        'destinations',
        'webhookUrl',
        'name',
        'dailyLeadLimit',
        'duplicateHandling',
      ]),
    );
    expect(body.required ?? []).toEqual([]);
    const destinations = resolve(body.properties.destinations).properties;
    expect(Object.keys(destinations)).toEqual(
      expect.arrayContaining([
        'hubspot',
        'salesforce',
        'pipedrive',
        'google-sheets',
        'lemlist',
        'instantly',
        'smartlead',
      ]),
    );
    // Each CRM names its connection; Google Sheets also its spreadsheet and sheet.
    const shape = (name: string) => {
      const schema = resolve(destinations[name]);
      const object = schema.anyOf ? resolve(schema.anyOf.find((s: any) => s.type !== 'null')) : schema;
      return { properties: Object.keys(object.properties).sort(), required: [...(object.required ?? [])].sort() };
    };
    expect(shape('salesforce')).toEqual({ properties: ['enabled', 'integrationId'], required: ['enabled'] });
    expect(shape('google-sheets')).toEqual({
      properties: ['enabled', 'integrationId', 'sheetName', 'spreadsheetId'],
      required: ['enabled', 'spreadsheetId'],
    });
  });

  test('watched companies: POST takes companies, DELETE takes ids or companies', () => {
    const add = requestSchema('/api/v1/watchlists/{signalId}/companies', 'post');
    expect(add.required).toEqual(['companies']);
    const remove = requestSchema('/api/v1/watchlists/{signalId}/companies', 'delete');
    expect(Object.keys(remove.properties).sort()).toEqual(['companies', 'ids']);
  });
});

describe('responses and query parameters', () => {
  test('the Signal resource carries applied, warnings and the watchlist import result', () => {
    const signal = responseSchema('/api/v1/signals/job-changes', 'post', '201');
    expect(Object.keys(signal.properties)).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'status',
        'signalTypeId',
        'webhookUrl',
        'config',
        'dailyLeadLimit',
        'leadsToday',
        'leadsTotal',
        'duplicateHandling',
        'createdAt',
        'updatedAt',
        'lastLeadAt',
        'applied',
        'warnings',
        'watchlist',
      ]),
    );
    const warning = resolve(resolve(signal.properties.warnings).items);
    expect(Object.keys(warning.properties).sort()).toEqual(['code', 'field', 'message', 'severity', 'values']);
    const watchlist = resolve(signal.properties.watchlist);
    expect(Object.keys(watchlist.properties).sort()).toEqual(['alreadyWatched', 'rejected', 'watched']);
    expect(responseSchema('/api/v1/signals/{signalId}', 'get', '200')).toEqual(signal);
  });

  test('the list takes its filters and page parameters and answers the page envelope', () => {
    expect(parameterNames('/api/v1/signals', 'get', 'query')).toEqual([
      'createdByThisKey',
      'limit',
      'offset',
      'signalTypeId',
      'status',
    ]);
    const page = responseSchema('/api/v1/signals', 'get', '200');
    expect(Object.keys(page.properties).sort()).toEqual(['hasMore', 'limit', 'offset', 'signals', 'total']);
    expect(parameterNames('/api/v1/watchlists/{signalId}/companies', 'get', 'query')).toEqual(['limit', 'offset']);
    const companies = responseSchema('/api/v1/watchlists/{signalId}/companies', 'get', '200');
    expect(Object.keys(resolve(resolve(companies.properties.items).items).properties).sort()).toEqual([
      'addedAt',
      'domain',
      'id',
      'linkedinUrl',
      'name',
    ]);
    expect(
      Object.keys(responseSchema('/api/v1/watchlists/{signalId}/companies', 'post', '200').properties).sort(),
    ).toEqual(['alreadyWatched', 'rejected', 'watched']);
  });

  test('lookups take their search parameters', () => {
    expect(parameterNames('/api/v1/signals/industries', 'get', 'query')).toEqual(['search']);
    expect(parameterNames('/api/v1/personas', 'get', 'query')).toEqual(['search']);
    expect(parameterNames('/api/v1/technographics', 'get', 'query')).toEqual(['search']);
    expect(parameterNames('/api/v1/enrichment/validate-location', 'get', 'query')).toEqual(['locations']);
  });

  test('the error answers of creation and PATCH are documented', () => {
    for (const [path, method] of [
      ['/api/v1/signals/job-changes', 'post'],
      ['/api/v1/signals/account-watchlist', 'post'],
      ['/api/v1/signals/{signalId}', 'patch'],
      ['/api/v1/signals/{signalId}/resume', 'post'],
    ]) {
      expect({ path, method, statuses: Object.keys(operation(path, method).responses) }).toEqual({
        path,
        method,
        statuses: expect.arrayContaining(['400', '402', '422']),
      });
    }
    expect(operation('/api/v1/signals/{signalId}', 'patch').responses).toHaveProperty('409');
  });
});
