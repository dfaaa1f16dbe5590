import { z } from 'zod';
import { notFound } from '../../src/errors';
import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, pageQuery, uuidParam } from '../schemas/common';
import { defineRoute, JsonText } from '../route';

export const leadsQuery = pageQuery.extend({
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Keeps leads produced at or after this instant' }),
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

/** ISO 8601: a timestamp with its offset, or a date (midnight UTC). */
const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

export const funnelQuery = z.object({
  from: instant
    .optional()
    .meta({ description: 'Start of the window, inclusive (event time); default 30 days before `to`' }),
  to: instant.optional().meta({ description: 'End of the window, exclusive (event time); default now' }),
});

export const funnelSchema = z
  .object({
    signalId: z.uuid(),
    from: z.string(),
    to: z.string(),
    candidates: z.number().int().meta({
      description:
        "Events of the signal's kind (watchlist: at a watched company or of a watched person) that occurred in [from, to)",
    }),
    stages: z.array(
      z.object({
        filter: z.string().meta({
          description:
            'job changes: jobTitles, companySizeFilters, industryFilters, locations, maxJobAgeDays; account watchlist: sources, firstRunLookbackDays, targetPersonas; then duplicate, dailyLeadLimit, credits',
        }),
        removed: z.number().int(),
        remaining: z.number().int(),
      }),
    ),
    leads: z.number().int().meta({ description: "The signal's leads whose event occurred in [from, to)" }),
  })
  .meta({
    id: 'Funnel',
    description:
      'Stages are cumulative, in evaluation order; a filter the signal does not set removes 0. A candidate that is already a lead passes ' +
      'every stage. `duplicate` removes candidates whose person or company the duplicate rule refuses; `dailyLeadLimit` removes those ' +
      "beyond today's remaining cap (deferred to later days, oldest first); `credits` removes those deferred while the signal is out of " +
      'credits. `remaining` after `credits` = `leads` + the candidates the next evaluation of the active signal produces.',
  });

const listSignalLeadsRoute = ({ leads }: Pick<Services, 'leads'>) =>
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
      const since = query.since ? new Date(query.since) : undefined;
      // Ownership is checked inside the page's query: one round trip per page.
      const page = await leads.ownedPageJson(caller.accountId, params.signalId, {
        since,
        limit: query.limit,
        offset: query.offset,
      });
      if (page === null) throw notFound('Signal');
      return new JsonText(page);
    },
  });

const getSignalFunnelRoute = ({ signals, funnel }: Pick<Services, 'signals' | 'funnel'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/signals/{signalId}/funnel',
    operationId: 'getSignalFunnel',
    summary: "How many of a signal's candidates each filter removes, over a window of event time",
    tags: ['leads'],
    access: { kind: 'apiKey', permission: 'read' },
    params: uuidParam('signalId'),
    query: funnelQuery,
    responses: {
      200: {
        description:
          "Per-stage counts. `remaining` after the last stage (`credits`) counts the candidates that are leads or that the signal's " +
          'next evaluation produces; the candidates removed by `dailyLeadLimit` and `credits` are deferred, not dropped.',
        schema: funnelSchema,
      },
      400: {
        description: 'Invalid `from` or `to`, or `from` not before `to` (INVALID_REQUEST)',
        schema: errorEnvelope,
      },
      404: { description: 'Unknown signal, or one of another account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: async ({ caller, params, query }) => {
      const signal = await signals.requireOwned(caller.accountId, params.signalId);
      return funnel.ofSignal(signal, {
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      });
    },
  });

export function leadRoutes(services: Services) {
  return [listSignalLeadsRoute(services), getSignalFunnelRoute(services)];
}
