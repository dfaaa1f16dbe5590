import { z } from 'zod';
import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, pageQuery, uuidParam } from '../schemas/common';
import { defineRoute, JsonText } from '../route';

export const leadsQuery = pageQuery.extend({
  since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Keeps leads produced at or after this instant' }),
});

const leadSchema = z
  .object({
    signal: z.looseObject({
      id: z.uuid(),
      name: z.string(),
      type: z.string(),
      last_signal: z.string(),
      last_signal_date: z.string(),
    }),
    contact: z.union([z.literal(''), z.looseObject({ lead_id: z.uuid(), created_at: z.string() })]),
    company: z.looseObject({ name: z.string() }),
  })
  .meta({ id: 'Lead', description: 'snake_case lead, identical to the webhook body' });

export const leadsPageSchema = z
  .object({
    signalId: z.uuid(),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
    leads: z.array(leadSchema),
  })
  .meta({ id: 'LeadsPage' });

export function leadRoutes(services: Services) {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/signals/{signalId}/leads',
      operationId: 'listSignalLeads',
      summary: "A signal's leads, newest first; free of charge",
      tags: ['leads'],
      access: { kind: 'apiKey', permission: 'read' },
      params: uuidParam('signalId'),
      query: leadsQuery,
      responses: {
        200: { description: 'Leads page', schema: leadsPageSchema },
        404: { description: 'Unknown signal, or one of another account (NOT_FOUND)', schema: errorEnvelope },
        ...authErrors,
      },
      handle: async ({ caller, params, query }) => {
        await services.signals.requireOwned(caller.accountId, params.signalId);
        const since = query.since ? new Date(query.since) : undefined;
        return new JsonText(await services.leads.pageJson(params.signalId, { since, limit: query.limit, offset: query.offset }));
      },
    }),
  ];
}
