import { z } from 'zod';
import type { Services } from '../../src/services';
import { DELIVERY_STATUSES } from '../../src/services/deliveries/deliveries';
import { webhookUrlSchema } from '../../src/destinations/webhook/webhook-targets';
import { authErrors, errorEnvelope, pageEnvelope, pageQuery, uuidParam } from '../schemas/common';
import { defineRoute } from '../route';

const tags = ['signals'];
const signalParam = uuidParam('signalId');
const notFound = {
  404: { description: 'Unknown signal, or one of another account (NOT_FOUND)', schema: errorEnvelope },
};

const deliveryListQuery = pageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  leadId: z.uuid().optional(),
});

const deliverySchema = z
  .object({
    id: z.uuid().describe('The X-Webhook-Id of every attempt of this delivery'),
    leadId: z.uuid().nullable(),
    route: z
      .string()
      .describe('`webhook`, a sequencer (`lemlist`, `instantly`, `smartlead`), a CRM (`hubspot`, ...) or `slack`'),
    kind: z.enum(['lead', 'test', 'replay']),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Delivery' });

const testWebhookBody = z
  .object({ url: webhookUrlSchema.optional().describe('Another address to test before saving it') })
  .optional()
  .default({});

const testWebhookResult = z
  .object({
    success: z.boolean().describe('The receiver answered 2xx'),
    statusCode: z.number().int().nullable().describe('Null when no answer came (time-out, refused connection)'),
    payloadSent: z.record(z.string(), z.unknown()).describe('The exact lead sent; `signal.is_test` is true'),
    signed: z.boolean().describe('False when the signal has no linked API key: the send carried no signature'),
  })
  .meta({ id: 'TestWebhookResult' });

const replayResult = z
  .object({
    total: z.number().int().describe('Leads of the signal, each sent once more'),
    sent: z.number().int().describe('Answered 2xx'),
    failed: z.number().int().describe('Refused (other 4xx, 3xx), or still failing after two quick retries'),
  })
  .meta({ id: 'ReplayResult' });

const listSignalDeliveriesRoute = ({ deliveryLog }: Pick<Services, 'deliveryLog'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/signals/{signalId}/deliveries',
    operationId: 'listSignalDeliveries',
    summary: "The signal's deliveries, newest first: status, attempts, last answer and next attempt",
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    params: signalParam,
    query: deliveryListQuery,
    responses: {
      200: { description: 'Deliveries page', schema: z.object({ items: z.array(deliverySchema), ...pageEnvelope }) },
      ...notFound,
      ...authErrors,
    },
    handle: ({ caller, params, query }) => deliveryLog.deliveries(caller.accountId, params.signalId, query),
  });

const testSignalWebhookRoute = ({ testSends }: Pick<Services, 'testSends'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/signals/{signalId}/test-webhook',
    aliases: ['/v1/signals/{signalId}/test-webhook'],
    operationId: 'testSignalWebhook',
    summary:
      'Send one sample lead (signal.is_test true) to the webhook, or to `url`, and answer what the receiver said',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: signalParam,
    body: testWebhookBody,
    responses: {
      200: { description: 'Test result', schema: testWebhookResult },
      422: {
        description: 'No webhookUrl and no url, or a url that is not allowed (VALIDATION_ERROR)',
        schema: errorEnvelope,
      },
      ...notFound,
      ...authErrors,
    },
    handle: ({ caller, params, body }) => testSends.send(caller.accountId, params.signalId, body.url),
  });

const replaySignalWebhookRoute = ({ webhookReplays }: Pick<Services, 'webhookReplays'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/signals/{signalId}/replay-webhook',
    aliases: ['/v1/signals/{signalId}/replay-webhook'],
    operationId: 'replaySignalWebhook',
    summary:
      'Send every lead the signal produced to its webhook again (signal.is_replay true, a new X-Webhook-Id each); answers once every send had its first attempt and, when it failed, at most two quick retries',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: signalParam,
    responses: {
      200: { description: 'Replay result', schema: replayResult },
      422: { description: 'The signal has no webhookUrl (VALIDATION_ERROR)', schema: errorEnvelope },
      504: {
        description: 'Still sending after 5 minutes (REPLAY_STILL_RUNNING, with `replayId`); the replay goes on',
        schema: errorEnvelope,
      },
      ...notFound,
      ...authErrors,
    },
    handle: ({ caller, params }) => webhookReplays.replay(caller.accountId, params.signalId),
  });

export function deliveryRoutes(services: Services) {
  return [listSignalDeliveriesRoute(services), testSignalWebhookRoute(services), replaySignalWebhookRoute(services)];
}
