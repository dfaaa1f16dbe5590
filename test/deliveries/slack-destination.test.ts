import { createHash } from 'node:crypto';
import { startStack, type Stack, STACK_START_MS } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  client,
  draftSignalFor,
  expectAnswer,
  FAST_DELIVERY_ENV,
  ingestJobChanger,
  onlyLead,
  settledDeliveries,
  waitFor,
  type Client,
  type JobChanger,
} from '../integrations/helpers';
import { start as startSlack, type SlackServer, type SlackWebhook } from '../vendors/slack-server';

/**
 * Slack as a destination: a signal's `destinations.slack` webhook gets one Block Kit message per
 * lead, from the lead workflow like every route: 429 waits Slack's Retry-After, a removed
 * webhook fails at once, every attempt is in the delivery log. Slack is a local server that
 * answers as Slack documents (text bodies `ok`, `no_service`, `rate_limited`, ...); the saved
 * URLs are real hooks.slack.com ones, whose path SLACK_WEBHOOKS_URL sends to it.
 */

const PUBLIC_URL = 'https://leads.example.com';
let slack: SlackServer;
let stack: Stack;
let api: Client;

beforeAll(async () => {
  slack = await startSlack();
  stack = await startStack({ env: { ...FAST_DELIVERY_ENV, SLACK_WEBHOOKS_URL: slack.url, PUBLIC_URL } });
  api = client(stack, await createAccount(stack, { credits: 1000 }));
}, STACK_START_MS);
afterAll(async () => {
  await stack?.stop();
  await slack?.close();
});

/** A fresh person's draft signal posting to `webhook`. */
async function signalTo(webhook: SlackWebhook): Promise<{ person: JobChanger; signal: { id: string; name: string } }> {
  const person = await ingestJobChanger(stack);
  const signal = await draftSignalFor(api, person);
  expectAnswer(
    await api.patch(`/signals/${signal.id}`, { destinations: { slack: { enabled: true, webhookUrl: webhook.url } } }),
    200,
  );
  return { person, signal };
}

const activate = async (signalId: string) =>
  expectAnswer(await api.patch(`/signals/${signalId}`, { status: 'active' }), 200);

const attemptsOf = async (deliveryId: string) =>
  (
    await stack.db.query(
      `SELECT attempt, status_code, error FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    )
  ).map((row: any) => ({ attempt: row.attempt, statusCode: row.status_code, error: row.error }));

const messagesTo = (webhook: SlackWebhook) => slack.messages.filter((m) => m.path === webhook.path);

test('each lead reaches the Slack channel once, as a Block Kit message with who, what happened, the signal and links', async () => {
  const webhook = slack.addWebhook();
  const { person, signal } = await signalTo(webhook);
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'slack', status: 'delivered', attempts: 1, lastError: null });
  const lead = await onlyLead(api, signal.id);
  const who = `Grace ${person.lastName}, ${person.title} at ${person.companyName}`;
  expect(messagesTo(webhook).map((m) => m.body)).toEqual([
    {
      text: `New lead: ${who}. Job Change (signal ${signal.name})`,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: who, emoji: false } },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*Job Change* (${lead.signal.last_signal_date}) · previously VP Engineering at Globex\nSignal: *${signal.name}*`,
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: [
                `<${lead.contact.linkedin_profile_url}|Grace ${person.lastName}'s profile>`,
                `<https://${person.domain}|${person.companyName}>`,
                `<${PUBLIC_URL}/signals/${signal.id}#lead-${lead.contact.lead_id}|Open the lead>`,
              ].join(' · '),
            },
          ],
        },
      ],
      unfurl_links: false,
      unfurl_media: false,
    },
  ]);
  expect(lead.signal.last_signal).toBe('Job Change');
  expect(await attemptsOf(delivery.id)).toEqual([{ attempt: 1, statusCode: null, error: null }]);
});

test('three leads of one signal: three messages, one per lead, even when Slack throttles one', async () => {
  const webhook = slack.addWebhook();
  const people = [await ingestJobChanger(stack), await ingestJobChanger(stack), await ingestJobChanger(stack)];
  const created = expectAnswer(
    await api.post('/signals/job-changes', {
      name: `Three CTOs ${people[0]!.tag}`,
      status: 'draft',
      config: { customTitles: people.map((p) => p.tag), getEmails: false },
    }),
    201,
  );
  expectAnswer(
    await api.patch(`/signals/${created.id}`, { destinations: { slack: { enabled: true, webhookUrl: webhook.url } } }),
    200,
  );
  slack.failNext(429, { retryAfter: 1 });
  await activate(created.id);
  const deliveries = await settledDeliveries(api, created.id, 3);
  expect(deliveries.map((d) => [d.route, d.status])).toEqual([
    ['slack', 'delivered'],
    ['slack', 'delivered'],
    ['slack', 'delivered'],
  ]);
  const links = messagesTo(webhook).map((m) => /#lead-([0-9a-f-]{36})\|/.exec(m.body.blocks![2].elements[0].text)?.[1]);
  expect(links.sort()).toEqual(deliveries.map((d) => d.leadId).sort());
  expect(deliveries.map((d) => d.attempts).sort()).toEqual([1, 1, 2]);
});

test("a 429 waits Slack's Retry-After in the lead workflow, then the message is posted once", async () => {
  const webhook = slack.addWebhook();
  const { signal } = await signalTo(webhook);
  slack.failNext(429, { retryAfter: 1 });
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'slack', status: 'delivered', attempts: 2, lastError: null });
  expect(await attemptsOf(delivery.id)).toEqual([
    { attempt: 1, statusCode: 429, error: 'Slack answered HTTP 429: rate_limited' },
    { attempt: 2, statusCode: null, error: null },
  ]);
  expect(messagesTo(webhook)).toHaveLength(1);
  // The 429 is noted for the webhook (under a digest of its URL), so its other leads keep its pace too.
  const key = `slack:${createHash('sha256').update(webhook.url).digest('hex').slice(0, 32)}`;
  const noted = await stack.db.query(
    `SELECT origin, throttle_count FROM webhook_endpoints WHERE origin LIKE 'slack:%'`,
  );
  expect(noted).toContainEqual({ origin: key, throttle_count: 1 });
  expect(JSON.stringify(noted)).not.toContain(webhook.path.split('/').pop());
});

test('a removed webhook (404 no_service) fails the delivery at once, saying so in the delivery log', async () => {
  const webhook = slack.addWebhook();
  const { signal } = await signalTo(webhook);
  slack.revoke(webhook);
  const before = slack.received.filter((r) => r.path === webhook.path).length;
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  const error =
    'Slack answered HTTP 404: no_service (the webhook was removed or revoked in Slack; create a new one and save it)';
  expect(delivery).toMatchObject({
    route: 'slack',
    status: 'failed',
    attempts: 1,
    lastStatusCode: 404,
    lastError: error,
  });
  expect(await attemptsOf(delivery.id)).toEqual([{ attempt: 1, statusCode: 404, error }]);
  expect(slack.received.filter((r) => r.path === webhook.path).length - before).toBe(1);
  // The lead workflow's details in the Web UI tell the same.
  const handle = stack.temporal.workflow.getHandle(`lead:${delivery.leadId}`);
  const details = await waitFor(
    'the lead workflow to settle its Slack route',
    async () => (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '',
    (text) => text.includes('**slack**: failed'),
  );
  expect(details).toContain(`**slack**: failed — ${error}`);
});

test('the webhook URL is checked on save: refused in the error envelope, nothing stored', async () => {
  const person = await ingestJobChanger(stack);
  const signal = await draftSignalFor(api, person);
  const refused = [
    ['http://hooks.slack.com/services/T0AAAA/B0BBBB/abcdef123456', 'must be an https:// URL'],
    ['https://hooks.example.com/services/T0AAAA/B0BBBB/abcdef123456', 'must be on hooks.slack.com'],
    ['https://hooks.slack.com/workflows/T0AAAA/A0BBBB/123/abcdef', 'must be https://hooks.slack.com/services/'],
  ];
  for (const [webhookUrl, message] of refused) {
    const answer = await api.patch(`/signals/${signal.id}`, { destinations: { slack: { enabled: true, webhookUrl } } });
    expect(expectAnswer(answer, 422).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'destinations.slack.webhookUrl', message: expect.stringContaining(message) }],
    });
  }
  // Switching Slack on with no URL, sent or stored, is refused too.
  const none = await api.patch(`/signals/${signal.id}`, { destinations: { slack: { enabled: true } } });
  expect(expectAnswer(none, 422).error.details).toEqual([
    { field: 'destinations.slack.webhookUrl', message: expect.stringContaining('required') },
  ]);
  expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({});
  const [row] = await stack.db.query(`SELECT destinations FROM signals WHERE id = $1`, [signal.id]);
  expect(row.destinations).toEqual({});
});

test('the URL is stored sealed and answered masked; switching off keeps it, null removes it', async () => {
  const webhook = slack.addWebhook();
  const { signal } = await signalTo(webhook);
  const workspace = webhook.path.split('/')[2]!;
  const masked = `https://hooks.slack.com/services/${workspace.slice(0, 5)}…/…`;
  expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({
    slack: { enabled: true, webhookUrl: masked },
  });
  const [row] = await stack.db.query(`SELECT destinations::text AS text FROM signals WHERE id = $1`, [signal.id]);
  const secret = webhook.path.split('/').pop()!;
  expect(row.text).not.toContain(secret);
  expect(row.text).not.toContain(webhook.url);
  expect(stack.services.secrets.open(JSON.parse(row.text).slack.webhookUrlSealed)).toBe(webhook.url);

  const off = expectAnswer(
    await api.patch(`/signals/${signal.id}`, { destinations: { slack: { enabled: false } } }),
    200,
  );
  expect(off.destinations).toEqual({ slack: { enabled: false, webhookUrl: masked } });
  // A lead produced while it is off gets no Slack delivery.
  await activate(signal.id);
  await onlyLead(api, signal.id);
  const page = expectAnswer(await api.get(`/signals/${signal.id}/deliveries`), 200);
  expect(page.items.filter((d: any) => d.route === 'slack')).toEqual([]);
  expect(messagesTo(webhook)).toEqual([]);

  const removed = expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations: { slack: null } }), 200);
  expect(removed.destinations).toEqual({});
});

test('the OpenAPI document describes destinations.slack: enabled and the webhook URL', async () => {
  const answer = await call(`${stack.url}/api/v1/openapi.json`);
  expect(answer.status).toBe(200);
  const schemas = answer.body.components.schemas;
  const resolve = (schema: any): any =>
    schema?.$ref ? resolve(schemas[String(schema.$ref).replace('#/components/schemas/', '')]) : schema;
  const update = resolve(
    answer.body.paths['/api/v1/signals/{signalId}'].patch.requestBody.content['application/json'].schema,
  );
  const destinations = resolve(update.properties.destinations);
  const slackSchema = resolve(destinations.properties.slack);
  const variant = resolve(
    (slackSchema.anyOf ?? slackSchema.oneOf ?? [slackSchema]).find((s: any) => resolve(s).type === 'object'),
  );
  expect(variant.required).toEqual(['enabled']);
  expect(Object.keys(variant.properties).sort()).toEqual(['enabled', 'webhookUrl']);
  expect(variant.properties.webhookUrl.description).toContain('hooks.slack.com/services');
});
