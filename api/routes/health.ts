import { z } from 'zod';
import { hasRecentPoller } from '../../src/temporal/client';
import type { Services } from '../../src/services';
import { AppError } from '../../src/errors';
import { rows } from '../../src/db/sql';
import { defineRoute } from '../route';

const readiness = z.object({ postgres: z.boolean(), temporal: z.boolean(), worker: z.boolean() });

async function probe(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}

const healthRoute = defineRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'health',
  summary: 'The API process is up',
  tags: ['operations'],
  access: { kind: 'public' },
  responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  handle: () => ({ status: 'ok' }),
});

const readinessRoute = ({ temporal, config, db }: Pick<Services, 'temporal' | 'config' | 'db'>) =>
  defineRoute({
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'PostgreSQL and Temporal reachable, and a worker polling the signal task queue',
    tags: ['operations'],
    access: { kind: 'public' },
    responses: {
      200: { description: 'Ready', schema: readiness },
      503: { description: 'Not ready; the body says which part is missing', schema: readiness },
    },
    handle: async () => {
      const [postgres, temporalUp, worker] = await Promise.all([
        probe(async () => (await rows<{ ok: number }>(db, 'SELECT 1 AS ok'))[0].ok === 1),
        probe(async () => Boolean(temporal && (await temporal.workflowService.getSystemInfo({})))),
        probe(async () => Boolean(temporal && (await hasRecentPoller(temporal, config.TEMPORAL_TASK_QUEUE)))),
      ]);
      const state = { postgres, temporal: temporalUp, worker };
      if (!postgres || !temporalUp || !worker) {
        throw new AppError(503, 'NOT_READY', 'Not ready', state);
      }
      return state;
    },
  });

export function healthRoutes(services: Services) {
  return [healthRoute, readinessRoute(services)];
}
