import { z } from 'zod';
import { listPersonas } from '../../src/catalogue/personas';
import { listIndustries } from '../../src/catalogue/industries';
import { validateLocations } from '../../src/catalogue/locations';
import { listTechnographicTools } from '../../src/catalogue/technographics';
import { signalTypeCatalogue } from '../../src/signal-types/catalogue';
import { authErrors } from '../schemas/common';
import { defineRoute } from '../route';

const read = { kind: 'apiKey', permission: 'read' } as const;
const searchQuery = z.object({ search: z.string().trim().max(200).optional() });

export const validateLocationQuery = z.object({
  locations: z
    .string()
    .min(1)
    .max(10_000)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .meta({ description: 'Comma-separated location names' }),
});

const signalTypeSchema = z
  .object({
    signalTypeId: z.string(),
    name: z.string(),
    description: z.string(),
    createEndpoint: z.string(),
    configParameters: z.array(
      z.looseObject({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() }),
    ),
    pricingModel: z.string(),
    creditsPerLead: z.number(),
    outputFields: z.record(z.string(), z.array(z.string())),
  })
  .meta({ id: 'SignalType' });

const resolvedLocation = z.looseObject({
  input: z.string(),
  name: z.string(),
  kind: z.enum(['country', 'region', 'city']),
});

/** Everything a client needs to build a valid signal. Static data: cheap, no database. */
export function catalogueRoutes() {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/signal-types',
      operationId: 'listSignalTypes',
      summary: 'Signal types with their creation endpoint, config parameters, pricing and output fields',
      tags: ['catalogue'],
      access: read,
      responses: {
        200: { description: 'Catalogue', schema: z.object({ signalTypes: z.array(signalTypeSchema) }) },
        ...authErrors,
      },
      handle: () => ({ signalTypes: signalTypeCatalogue() }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/personas',
      operationId: 'listPersonas',
      summary: 'Buyer personas; each `name` is usable in jobTitles and targetPersonas',
      tags: ['catalogue'],
      access: read,
      query: searchQuery,
      responses: {
        200: {
          description: 'Personas',
          schema: z.object({
            personas: z.array(
              z.looseObject({
                name: z.string(),
                department: z.string(),
                seniority: z.string(),
                titles: z.array(z.string()),
              }),
            ),
          }),
        },
        ...authErrors,
      },
      handle: ({ query }) => {
        const needle = query.search?.toLowerCase();
        const personas = listPersonas().filter(
          (p) =>
            !needle || p.name.toLowerCase().includes(needle) || p.titles.some((t) => t.toLowerCase().includes(needle)),
        );
        return { personas };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/signals/industries',
      operationId: 'listIndustries',
      summary:
        'Industry taxonomy; names are used verbatim in industryFilters (a category name covers all its industries)',
      tags: ['catalogue'],
      access: read,
      query: searchQuery,
      responses: {
        200: {
          description: 'Industries',
          schema: z.object({ industries: z.array(z.object({ name: z.string(), category: z.string() })) }),
        },
        ...authErrors,
      },
      handle: ({ query }) => ({ industries: listIndustries(query.search) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/enrichment/validate-location',
      operationId: 'validateLocations',
      summary: 'Checks location names before use in a signal, with suggestions for near misses',
      tags: ['catalogue'],
      access: read,
      query: validateLocationQuery,
      responses: {
        200: {
          description: 'Validation',
          schema: z.object({
            valid: z.array(resolvedLocation),
            invalid: z.array(z.object({ input: z.string(), suggestions: z.array(z.string()) })),
          }),
        },
        ...authErrors,
      },
      handle: ({ query }) => validateLocations(query.locations),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/technographics',
      operationId: 'listTechnographicTools',
      summary: 'Technologies companies are known to use',
      tags: ['catalogue'],
      access: read,
      query: searchQuery,
      responses: {
        200: {
          description: 'Tools',
          schema: z.object({ tools: z.array(z.object({ name: z.string(), category: z.string() })) }),
        },
        ...authErrors,
      },
      handle: ({ query }) => ({ tools: listTechnographicTools(query.search) }),
    }),
  ];
}
