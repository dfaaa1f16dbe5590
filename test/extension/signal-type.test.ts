// The throwaway type registers first: the API builds its create bodies and enums when its modules load.
import { officeMoves } from './office-moves-signal-type';
import type { Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, expectError, expectStatus, startSignalsStack, type Client } from '../signals/helpers';

/**
 * Issue 37, item 6 (signal types): a type registered from one module inside the test suite,
 * with no production file touched, gets its create route with its validation, its OpenAPI
 * entry, its catalogue entry and its place in the list filter.
 */
let stack: Stack;
let api: Client;
let document: any;

beforeAll(async () => {
  stack = await startSignalsStack();
  const account = await createAccount(stack, { credits: 100 });
  api = client(stack, account.apiKey);
  document = expectStatus(await call(`${stack.url}/api/v1/openapi.json`), 200);
});
afterAll(() => stack?.stop());

const resolve = (schema: any): any =>
  schema?.$ref
    ? resolve(document.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')])
    : schema;
const total = async () => expectStatus(await api.get('/signals?limit=100'), 200).total as number;

test('the OpenAPI document has its create route, with its operation, price and config', () => {
  const operation = document.paths['/api/v1/signals/office-moves']?.post;
  expect(operation).toMatchObject({
    operationId: 'createOfficeMovesSignal',
    summary: 'Create an office-moves signal (3 credits per lead)',
    tags: ['signals'],
  });
  const body = resolve(operation.requestBody.content['application/json'].schema);
  const config = resolve(body.properties.config);
  expect(Object.keys(config.properties).sort()).toEqual(Object.keys(officeMoves.configSchema.shape).sort());
  expect(config.properties.newCities).toMatchObject({ type: 'array', description: expect.stringContaining('Cities') });
  expect(config.additionalProperties).toBe(false);
});

test('its create route validates its config: 422 naming the field, nothing created', async () => {
  const before = await total();
  const wrongType = expectError(
    await api.post('/signals/office-moves', { name: 'Moves', config: { newCities: 'Austin' } }),
    422,
    'VALIDATION_ERROR',
  );
  expect(wrongType.details.map((d: { field: string }) => d.field)).toEqual(['config.newCities']);
  const unknown = expectError(
    await api.post('/signals/office-moves', { name: 'Moves', config: { jobTitles: ['CTO'] } }),
    422,
    'VALIDATION_ERROR',
  );
  expect(JSON.stringify(unknown.details)).toContain('jobTitles');
  expect(await total()).toBe(before);
});

test('its create route creates a signal of the type, with its default for duplicates', async () => {
  const created = expectStatus(
    await api.post('/signals/office-moves', { name: 'Moves', config: { newCities: ['Austin'] } }),
    201,
  );
  expect(created).toMatchObject({
    signalTypeId: 'office_moves',
    status: 'draft',
    duplicateHandling: '90d',
    config: { newCities: ['Austin'] },
  });
  const listed = expectStatus(await api.get('/signals?signalTypeId=office_moves'), 200);
  expect(listed.signals.map((signal: { id: string }) => signal.id)).toEqual([created.id]);
});

test('the catalogue lists it after the built-in types', async () => {
  const { signalTypes } = expectStatus(await api.get('/signal-types'), 200);
  expect(signalTypes.at(-1)).toMatchObject({
    signalTypeId: 'office_moves',
    createEndpoint: 'POST /api/v1/signals/office-moves',
    creditsPerLead: 3,
  });
});
