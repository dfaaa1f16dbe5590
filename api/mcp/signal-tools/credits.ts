import { z } from 'zod';
import type { Services } from '../../../src/services';
import { creditUsageQuery } from '../../routes/credits';
import { READS, defineTool } from '../tool';

export const getCreditBalanceTool = ({ credits }: Pick<Services, 'credits'>) =>
  defineTool({
    name: 'get_credit_balance',
    twin: 'getCreditBalance',
    description: 'Reads the account’s credit balance. Free.',
    input: z.object({}),
    annotations: READS,
    run: async (caller) => ({ balance: await credits.balance(caller.accountId) }),
  });

export const getCreditUsageTool = ({ credits }: Pick<Services, 'credits'>) =>
  defineTool({
    name: 'get_credit_usage',
    twin: 'getCreditUsage',
    description:
      'Lists credit movements, newest first: grants (positive) and charges (negative: lead, email_found, enrichment lookups). ' +
      'Filter by from/to (ISO 8601) and signalId; paged by limit and offset. Free.',
    input: creditUsageQuery,
    annotations: READS,
    run: (caller, { from, to, signalId, limit, offset }) =>
      credits.usage(caller.accountId, {
        from: from ? new Date(from) : undefined,
        to: to ? new Date(to) : undefined,
        signalId,
        limit,
        offset,
      }),
  });
