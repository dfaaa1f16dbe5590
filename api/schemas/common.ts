import { z } from 'zod';

export const errorEnvelope = z
  .object({
    error: z.looseObject({
      code: z.string(),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error', description: 'Every error: `{"error": {"code", "message", ...extra}}`' });

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});

export const pageEnvelope = {
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  hasMore: z.boolean(),
};

export const uuidParam = <K extends string>(name: K) => z.object({ [name]: z.uuid() } as Record<K, z.ZodUUID>);

/** Standard error answers of an authenticated route, so each route lists only its own. */
export const authErrors = {
  401: { description: 'Missing, invalid or revoked API key (UNAUTHORIZED / INVALID_API_KEY)', schema: errorEnvelope },
  403: { description: 'The key lacks the permission (FORBIDDEN)', schema: errorEnvelope },
  429: { description: 'Over the per-key request rate (RATE_LIMITED), see Retry-After', schema: errorEnvelope },
};
