import type { Client as Assistant } from '@modelcontextprotocol/sdk/client/index.js';
import type { Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { connectAssistant, toolOk } from '../mcp/helpers';
import { SIGNAL_TYPES, signalType } from '../../src/signal-types/registry';
import { startSignalsStack, client, expectStatus, type Client } from './helpers';

/**
 * The registry drives the public surface: every registered type has its create route in the
 * OpenAPI document (and that route creates it), its config in create_signal's input, and its
 * entry in the catalogue, all in the registry's order. A type added to the registry gets these
 * without another file changing.
 */
let stack: Stack;
let api: Client;
let assistant: Assistant;
let document: any;

beforeAll(async () => {
  stack = await startSignalsStack();
  const account = await createAccount(stack, { credits: 100 });
  api = client(stack, account.apiKey);
  assistant = await connectAssistant(stack, account.apiKey);
  document = expectStatus(await call(`${stack.url}/api/v1/openapi.json`), 200);
});
afterAll(async () => {
  await assistant?.close();
  await stack?.stop();
});

const resolve = (schema: any): any =>
  schema?.$ref
    ? resolve(document.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')])
    : schema;
const configKeys = (type: (typeof SIGNAL_TYPES)[number]) => Object.keys(type.configSchema.shape).sort();

test('the registry names each type once: ids, create paths and operation names are unique', () => {
  for (const key of ['signalTypeId', 'createPath', 'operationName'] as const)
    expect(new Set(SIGNAL_TYPES.map((type) => type[key])).size).toBe(SIGNAL_TYPES.length);
  for (const type of SIGNAL_TYPES) expect(signalType(type.signalTypeId)).toBe(type);
  expect(() => signalType('no_such_type')).toThrow(/unknown signal type/);
});

test.each(SIGNAL_TYPES.map((type) => [type.signalTypeId, type] as const))(
  '%s: its create route is in the OpenAPI document with its own config, price and operation id',
  (_id, type) => {
    const operation = document.paths[`/api/v1/signals/${type.createPath}`]?.post;
    expect(operation).toMatchObject({ operationId: `create${type.operationName}Signal`, tags: ['signals'] });
    expect(operation.summary).toContain(`${type.creditsPerLead} credits per lead`);
    const body = resolve(operation.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(expect.arrayContaining(['name', 'config']));
    const config = resolve(body.properties.config);
    expect(Object.keys(config.properties).sort()).toEqual(configKeys(type));
    expect(config.additionalProperties).toBe(false);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '402', '422']));
  },
);

test.each(SIGNAL_TYPES.map((type) => [type.signalTypeId, type] as const))(
  '%s: its create route creates a draft of the type with the type default for duplicates',
  async (_id, type) => {
    const created = expectStatus(
      await api.post(`/signals/${type.createPath}`, { name: `A ${type.name}`, config: {} }),
      201,
    );
    expect(created).toMatchObject({
      signalTypeId: type.signalTypeId,
      status: 'draft',
      duplicateHandling: type.defaultDuplicateHandling,
    });
  },
);

test('create_signal takes every registered type, with its config schema and a price for each', async () => {
  const { tools } = await assistant.listTools();
  const create = tools.find((tool) => tool.name === 'create_signal')!;
  const input = create.inputSchema as any;
  expect(input.properties.signalTypeId.enum).toEqual(SIGNAL_TYPES.map((type) => type.signalTypeId));
  expect(input.properties.config.anyOf.map((schema: any) => Object.keys(schema.properties).sort())).toEqual(
    SIGNAL_TYPES.map(configKeys),
  );
  for (const type of SIGNAL_TYPES) {
    expect(input.properties.config.description).toContain(`${type.signalTypeId}: `);
    expect(create.description).toContain(type.name.toLowerCase());
  }
});

test.each(SIGNAL_TYPES.map((type) => [type.signalTypeId, type] as const))(
  '%s: create_signal creates it as its REST route does',
  async (_id, type) => {
    const created = await toolOk(assistant, 'create_signal', {
      signalTypeId: type.signalTypeId,
      name: `Tool ${type.name}`,
      config: {},
    });
    expect(created).toMatchObject({ signalTypeId: type.signalTypeId, status: 'draft' });
  },
);

test('the catalogue lists the registered types in order, each with its create endpoint and price', async () => {
  const { signalTypes } = expectStatus(await api.get('/signal-types'), 200);
  expect(
    signalTypes.map((entry: any) => [entry.signalTypeId, entry.createEndpoint, entry.creditsPerLead, entry.name]),
  ).toEqual(
    SIGNAL_TYPES.map((type) => [
      type.signalTypeId,
      `POST /api/v1/signals/${type.createPath}`,
      type.creditsPerLead,
      type.name,
    ]),
  );
  for (const [i, type] of SIGNAL_TYPES.entries())
    expect(signalTypes[i].configParameters.map((p: { name: string }) => p.name).sort()).toEqual(configKeys(type));
});
