import type { Middleware } from 'koa';
import { z } from 'zod';
import { invalidRequest } from '../../src/errors';
import type { Services } from '../../src/services';
import { errorEnvelope } from '../schemas/common';
import type { AppContext, AppState } from '../context';
import { defineRoute } from '../route';
import { readBody } from '../raw-body';

export const INGEST_PATH = '/admin/v1/ingest';

/** Provider files are large; the app-wide JSON limit (5 MB) is for API calls, not data loads. */
const INGEST_BODY_LIMIT = 50 * 1024 * 1024;

const NDJSON_TYPES = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'text/plain',
];
const JSON_TYPES = ['application/json'];

/**
 * Goes before the app's body parser: this route reads its own body, with its own limit and only
 * once the operator token has been checked, instead of having a 50 MB body buffered for anyone.
 */
export const ingestBodyPassThrough: Middleware<AppState> = async (ctx, next) => {
  if (ctx.path.replace(/\/+$/, '') === INGEST_PATH)
    (ctx as AppContext & { disableBodyParser?: boolean }).disableBodyParser = true;
  await next();
};

const ingestResult = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});

const adminIngestRoute = ({ ingestion }: Pick<Services, 'ingestion'>) =>
  defineRoute({
    method: 'post',
    path: INGEST_PATH,
    operationId: 'adminIngest',
    summary: 'Ingest company, person and event records (NDJSON or a JSON array); bad lines are reported, the rest kept',
    tags: ['operator'],
    access: { kind: 'admin' },
    responses: {
      200: { description: 'Counts and the rejected lines', schema: ingestResult },
      400: {
        description: 'Empty body, unsupported content type or a JSON body that is not an array',
        schema: errorEnvelope,
      },
      401: { description: 'Missing or wrong admin token', schema: errorEnvelope },
      413: { description: 'Body over 50 MB', schema: errorEnvelope },
    },
    handle: async ({ ctx }) => {
      const type = ctx.request.is([...NDJSON_TYPES, ...JSON_TYPES]);
      // null: the request has no body at all.
      if (type === null) throw invalidRequest('The body holds no records');
      if (!type) {
        throw invalidRequest(
          `Send the records as application/x-ndjson (one JSON object a line) or as an application/json array`,
        );
      }
      const text = await readBody(ctx.req, INGEST_BODY_LIMIT);
      if (!text.trim()) throw invalidRequest('The body holds no records');
      if (JSON_TYPES.includes(type)) {
        let records: unknown;
        try {
          records = JSON.parse(text);
        } catch {
          throw invalidRequest('Request body is not valid JSON');
        }
        if (!Array.isArray(records))
          throw invalidRequest(
            'An application/json body must be an array of records; use application/x-ndjson for one record a line',
          );
        if (records.length === 0) throw invalidRequest('The body holds no records');
        return ingestion.ingest(records);
      }
      return ingestion.ingest(text);
    },
  });

export function adminIngestRoutes(services: Services) {
  return [adminIngestRoute(services)];
}
