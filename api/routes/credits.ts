import { z } from 'zod';
import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, pageEnvelope, pageQuery } from '../schemas/common';
import { defineRoute } from '../route';

export const creditUsageQuery = pageQuery.extend({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  signalId: z.uuid().optional(),
});

const usageItem = z
  .object({
    id: z.uuid(),
    at: z.string(),
    operation: z.string().meta({ description: 'grant, lead, email_found, enrichment_contact, ...' }),
    signalId: z.uuid().optional(),
    leadId: z.uuid().optional(),
    credits: z.number().meta({ description: 'positive for grants, negative for charges' }),
  })
  .meta({ id: 'CreditUsageItem' });

const getCreditBalanceRoute = ({ credits }: Pick<Services, 'credits'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/credits/balance',
    operationId: 'getCreditBalance',
    summary: "The account's credit balance",
    tags: ['credits'],
    access: { kind: 'apiKey', permission: 'read' },
    responses: { 200: { description: 'Balance', schema: z.object({ balance: z.number() }) }, ...authErrors },
    handle: async ({ caller }) => ({ balance: await credits.balance(caller.accountId) }),
  });

const getCreditUsageRoute = ({ credits }: Pick<Services, 'credits'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/credits/usage',
    operationId: 'getCreditUsage',
    summary: 'Credit movements of the account, newest first',
    tags: ['credits'],
    access: { kind: 'apiKey', permission: 'read' },
    query: creditUsageQuery,
    responses: {
      200: { description: 'Usage page', schema: z.object({ items: z.array(usageItem), ...pageEnvelope }) },
      400: { description: 'Invalid query (INVALID_REQUEST)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, query }) =>
      credits.usage(caller.accountId, {
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        signalId: query.signalId,
        limit: query.limit,
        offset: query.offset,
      }),
  });

export function creditRoutes(services: Services) {
  return [getCreditBalanceRoute(services), getCreditUsageRoute(services)];
}
