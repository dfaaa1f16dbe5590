import { z } from 'zod';
import type { Services } from '../../src/services';
import { isKnownIndustry } from '../../src/catalogue/industries';
import { resolveLocation } from '../../src/catalogue/locations';
import { authErrors, errorEnvelope, pageEnvelope, pageQuery } from '../schemas/common';
import { defineRoute } from '../route';
import { companySchema } from './enrichment';

/** Parts one list value may span: "Museums, Historical Sites, and Zoos", "Austin, Texas, United States". */
const MAX_PARTS = 4;
const MAX_VALUES = 200;

/**
 * Comma-separated values where a name may itself hold commas: consecutive parts are joined
 * back when together they form a known name (longest first), so
 * `Austin, Texas, France` is two places and `Bars, Taverns, and Nightclubs` one industry.
 */
export function splitList(value: string, isName: (candidate: string) => boolean = () => false): string[] {
  const names: string[] = [];
  const parts = value.split(',').map((part) => part.trim());
  for (let i = 0; i < parts.length;) {
    let taken = 1;
    for (let n = Math.min(MAX_PARTS, parts.length - i); n > 1; n--) {
      if (parts.slice(i, i + n).every(Boolean) && isName(parts.slice(i, i + n).join(', '))) {
        taken = n;
        break;
      }
    }
    const name = parts.slice(i, i + taken).join(', ');
    if (name) names.push(name);
    i += taken;
  }
  return names;
}

/** A repeated parameter is read value by value, each whole: the way to send a free title holding a comma. */
function listOf(value: string | string[], isName?: (candidate: string) => boolean): string[] {
  if (Array.isArray(value)) return value.map((v) => v.trim()).filter(Boolean);
  return splitList(value, isName);
}

const listParameter = (description: string, isName?: (candidate: string) => boolean) =>
  z
    .union([z.string().max(10_000), z.array(z.string().max(10_000)).max(MAX_VALUES)])
    .optional()
    .transform((value) => (value === undefined ? undefined : listOf(value, isName)))
    .meta({ description: `${description}; comma-separated, or the parameter repeated` });

const q = z.string().trim().max(200).optional();

const companyFilters = {
  industryFilters: listParameter(
    'Industry names from GET /api/v1/signals/industries (exact; a category covers its industries)',
    isKnownIndustry,
  ),
  companySizeFilters: listParameter(
    'Size bands: Self-employed, 1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5001-10000, 10001+',
  ),
  locations: listParameter('Country, region or city names', (candidate) => resolveLocation(candidate) !== undefined),
};

export const companySearchQuery = pageQuery.extend({
  q: q.meta({ description: 'Part of the company name or domain' }),
  ...companyFilters,
});

export const peopleSearchQuery = pageQuery.extend({
  q: q.meta({ description: "Part of the person's name, title or company name" }),
  jobTitles: listParameter('Persona names from GET /api/v1/personas'),
  customTitles: listParameter('Free titles, matched at word starts in the job title'),
  ...companyFilters,
});

const personSchema = z
  .object({
    contact: z
      .looseObject({ first_name: z.string(), last_name: z.string(), title: z.string(), matched_persona: z.string() })
      .meta({
        description: 'The contact block; email and phone stay empty (they are the paid lookups)',
      }),
    company: companySchema,
  })
  .meta({ id: 'PersonSearchItem' });

const errors = {
  400: {
    description: 'Unknown size band or persona (INVALID_REQUEST), unrecognised location (INVALID_LOCATION)',
    schema: errorEnvelope,
  },
  ...authErrors,
};

const searchCompaniesRoute = ({ search }: Pick<Services, 'search'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/companies/search',
    operationId: 'searchCompanies',
    summary: 'Companies by name or domain and the signal filters (industry, size, headquarters location); free',
    tags: ['search'],
    access: { kind: 'apiKey', permission: 'read' },
    query: companySearchQuery,
    responses: {
      200: { description: 'Companies page', schema: z.object({ items: z.array(companySchema), ...pageEnvelope }) },
      ...errors,
    },
    handle: ({ caller, query }) => search.companies(caller, query),
  });

const searchPeopleRoute = ({ search }: Pick<Services, 'search'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/people/search',
    operationId: 'searchPeople',
    summary:
      'People by name, title or company and the signal filters (personas, titles, industry, size, location); free',
    tags: ['search'],
    access: { kind: 'apiKey', permission: 'read' },
    query: peopleSearchQuery,
    responses: {
      200: { description: 'People page', schema: z.object({ items: z.array(personSchema), ...pageEnvelope }) },
      ...errors,
    },
    handle: ({ caller, query }) => search.people(caller, query),
  });

/** Free search of the store with the signal configs' filters; `locations` means headquarters for companies. */
export function searchRoutes(services: Services) {
  return [searchCompaniesRoute(services), searchPeopleRoute(services)];
}
