import { createHash } from 'node:crypto';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import type { AnyRoute } from './route';

function operationFor(route: AnyRoute) {
  const content = (schema: z.ZodType) => ({ 'application/json': { schema } });
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, spec]) => [
      status,
      spec.schema
        ? { description: spec.description, content: content(spec.schema) }
        : { description: spec.description },
    ]),
  );
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    ...(route.access.kind === 'public' ? { security: [] } : {}),
    ...(route.query || route.params
      ? {
          requestParams: {
            ...(route.query ? { query: route.query as z.ZodObject } : {}),
            ...(route.params ? { path: route.params as z.ZodObject } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: { required: true, content: content(route.body) } } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1.0 document, generated from the same schemas that validate requests.
 * `info.version` is an opaque revision id: a hash of the document's own content.
 */
export function buildOpenApiDocument(routes: AnyRoute[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operationFor(route) };
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Intent-signal lead service',
      version: 'pending',
      description:
        'Signals produce leads from intent events, billed in credits and handed over by webhook, polling, CRM or sequencer.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer USR_...' } },
    },
    security: [{ apiKey: [] }],
    paths,
  });
  const revision = createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 12);
  return { ...document, info: { ...document.info, version: revision } };
}
