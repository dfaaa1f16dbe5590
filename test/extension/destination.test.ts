// First: the throwaway destination registers before the API modules build their schemas.
import { teamInbox } from './team-inbox-destination';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  client,
  draftSignalFor,
  expectAnswer,
  FAST_DELIVERY_ENV,
  ingestJobChanger,
  onlyLead,
  settledDeliveries,
  startWebhookReceiver,
  type Client,
  type WebhookReceiver,
} from '../integrations/helpers';

/**
 * Issue 37's extension test, the destination part: a destination registered from one module
 * of the test suite, with no production file touched, is accepted in a signal's destination
 * settings (and described by the OpenAPI document), refused with the error envelope when its
 * settings are wrong, and receives each lead from the lead workflow like every route.
 */

let inbox: WebhookReceiver;
let stack: Stack;
let api: Client;

beforeAll(async () => {
  inbox = await startWebhookReceiver();
  stack = await startStack({ env: FAST_DELIVERY_ENV });
  api = client(stack, await createAccount(stack, { credits: 1000 }));
});
afterAll(async () => {
  await stack?.stop();
  await inbox?.close();
});

test('the registered destination is in the OpenAPI document under the signal settings', async () => {
  const answer = await call(`${stack.url}/api/v1/openapi.json`);
  expect(answer.status).toBe(200);
  const schemas = answer.body.components.schemas;
  const resolve = (schema: any): any =>
    schema?.$ref ? resolve(schemas[String(schema.$ref).replace('#/components/schemas/', '')]) : schema;
  const update = resolve(
    answer.body.paths['/api/v1/signals/{signalId}'].patch.requestBody.content['application/json'].schema,
  );
  const destinations = resolve(update.properties.destinations);
  expect(Object.keys(destinations.properties)).toEqual([
    'hubspot',
    'salesforce',
    'pipedrive',
    'google-sheets',
    'lemlist',
    'instantly',
    'smartlead',
    'slack',
    teamInbox.kind,
  ]);
  const variant = resolve(destinations.properties[teamInbox.kind]).anyOf.find((s: any) => s.type === 'object');
  expect(variant.required).toEqual(['enabled', 'inboxUrl']);
});

test('bad settings are refused in the error envelope and change nothing', async () => {
  const person = await ingestJobChanger(stack);
  const signal = await draftSignalFor(api, person);
  const answer = await api.patch(`/signals/${signal.id}`, {
    destinations: { [teamInbox.kind]: { enabled: true, inboxUrl: 'not a url' } },
  });
  expect(expectAnswer(answer, 422).error).toMatchObject({
    code: 'VALIDATION_ERROR',
    details: [{ field: `destinations.${teamInbox.kind}.inboxUrl` }],
  });
  expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({});
});

test('a signal routed to it delivers each lead there, recorded like every route', async () => {
  const person = await ingestJobChanger(stack);
  const signal = await draftSignalFor(api, person);
  const saved = expectAnswer(
    await api.patch(`/signals/${signal.id}`, {
      destinations: { [teamInbox.kind]: { enabled: true, inboxUrl: inbox.url } },
    }),
    200,
  );
  expect(saved.destinations).toEqual({ [teamInbox.kind]: { enabled: true, inboxUrl: inbox.url } });
  expectAnswer(await api.patch(`/signals/${signal.id}`, { status: 'active' }), 200);

  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: teamInbox.kind, status: 'delivered', attempts: 1, lastError: null });
  const lead = await onlyLead(api, signal.id);
  expect(inbox.bodies).toEqual([{ leadId: lead.contact.lead_id, signalId: signal.id, company: person.companyName }]);
});
