import { z } from 'zod';
import type { Services } from '../../src/services';
import { errorEnvelope } from '../schemas/common';
import { defineRoute } from '../route';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const backtestQuery = z.strictObject({
  from: z.string().regex(DAY, 'must be a day "YYYY-MM-DD"').meta({ description: 'First day replayed (UTC)' }),
  to: z.string().regex(DAY, 'must be a day "YYYY-MM-DD"').meta({ description: 'Last day replayed, inclusive' }),
  step: z
    .enum(['day', 'week'], { error: 'must be "day" or "week"' })
    .optional()
    .meta({ description: 'Replay as of the end of every day, or of every 7th day from `from` (default)' }),
});

const ruleBacktest = z.object({
  rule: z.string(),
  version: z.number(),
  eventType: z.string(),
  horizonDays: z.number(),
  cameTrueWhen: z.string(),
  forecasts: z.number(),
  cameTrue: z.number(),
  missed: z.number().meta({ description: 'Horizon over, nothing came' }),
  open: z.number().meta({ description: 'Horizon not over yet, nothing came so far' }),
  share: z.number().nullable().meta({ description: 'cameTrue / (cameTrue + missed)' }),
  medianLeadDays: z.number().nullable(),
});

const adminBacktestForecastsRoute = ({ forecastBacktest }: Pick<Services, 'forecastBacktest'>) =>
  defineRoute({
    method: 'get',
    path: '/admin/v1/forecasts/backtest',
    operationId: 'adminBacktestForecasts',
    summary:
      'Replay the stored history day by day (or week by week): per forecast rule, forecasts made, come true, share and median lead time',
    tags: ['operator'],
    access: { kind: 'admin' },
    query: backtestQuery,
    responses: {
      200: {
        description: 'Per rule',
        schema: z.object({
          from: z.string(),
          to: z.string(),
          step: z.enum(['day', 'week']),
          daysReplayed: z.number(),
          rules: z.array(ruleBacktest),
        }),
      },
      400: { description: 'Bad days, or a range too long', schema: errorEnvelope },
      401: { description: 'Missing or wrong admin token', schema: errorEnvelope },
    },
    handle: ({ query }) => forecastBacktest.run(query),
  });

/** The forecast rules' backtest over the stored history (docs/decisions/forecasts.md). */
export function adminForecastRoutes(services: Services) {
  return [adminBacktestForecastsRoute(services)];
}
