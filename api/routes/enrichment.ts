import { z } from 'zod';
import type { Services } from '../../src/services';
import { ENRICHMENT_PRICES, MAX_BULK_CONTACTS } from '../../src/services/enrichment/enrichment';
import { authErrors, errorEnvelope, uuidParam } from '../schemas/common';
import { defineRoute } from '../route';
import type { AppContext } from '../context';

const tags = ['enrichment'];
const enrich = { kind: 'apiKey', permission: 'enrich' } as const;

const text = (max: number, description: string) => z.string().trim().max(max).optional().meta({ description });

const contactReferenceFields = {
  linkedinUrl: text(500, 'Profile URL (https://www.linkedin.com/in/<slug>); the strongest identifier'),
  email: text(320, 'Email address, when no profile URL is given'),
  firstName: text(200, 'With lastName and companyDomain, when neither URL nor email is given'),
  lastName: text(200, 'With firstName and companyDomain'),
  companyDomain: text(500, 'Domain of the person\'s company, e.g. "acme.com"'),
};
const freshness = z.enum(['cached', 'live']).meta({
  description:
    '`cached` (default) answers from what is known; `live` asks the source now: several seconds, counted against the per-key concurrency cap',
});

export const contactLookupQuery = z.object({ ...contactReferenceFields, freshness: freshness.default('cached') });
export const firmographicQuery = z.object({
  domain: text(500, 'Company domain, e.g. "acme.com"'),
  linkedinUrl: text(500, 'Company page URL (https://www.linkedin.com/company/<slug>)'),
  name: text(500, 'Company name; answers only when exactly one company has it'),
});
export const emailLookupQuery = z.object({
  firstName: z.string().trim().min(1).max(200),
  lastName: z.string().trim().min(1).max(200),
  domain: z.string().trim().min(1).max(500).meta({ description: 'The company domain, e.g. "acme.com"' }),
});
export const contactReferenceBody = z.strictObject(contactReferenceFields).meta({
  id: 'ContactReference',
  description: 'linkedinUrl, or email, or firstName + lastName + companyDomain',
});
export const bulkContactsBody = z
  .strictObject({
    contacts: z
      .array(z.strictObject({ ...contactReferenceFields, freshness: freshness.optional() }))
      .min(1)
      .max(MAX_BULK_CONTACTS)
      .meta({ description: `1 to ${MAX_BULK_CONTACTS} contact references, each as in the single contact lookup` }),
  })
  .meta({ id: 'BulkContactsRequest' });

const contactSchema = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string().meta({ description: 'Always empty here: phones are the separate phone lookup' }),
    title: z.string(),
    location: z.string(),
    city: z.string(),
    country_code: z.string(),
    linkedin_profile_url: z.string(),
    sales_navigator_profile_url: z.string(),
    matched_persona: z.string(),
  })
  .meta({
    id: 'EnrichedContact',
    description: "The lead's contact block without lead_id and created_at; unknown values are empty strings",
  });

const emptyOr = <T extends z.ZodType>(schema: T) => z.union([schema, z.literal('')]);

export const companySchema = z
  .object({
    name: z.string(),
    website: z.string(),
    linkedin_url: z.string(),
    hq_country_code: z.string(),
    hq_city: z.string(),
    tech_stack: emptyOr(z.array(z.string())),
    homepage_title: z.string(),
    meta_description: z.string(),
    description: z.string(),
    industry: z.string(),
    location: z.string(),
    employee_count: emptyOr(z.number().int()),
    employee_range: z.string(),
    headquarters: z.string(),
    company_type: z.string(),
    founded_year: emptyOr(z.number().int()),
  })
  .meta({ id: 'EnrichedCompany', description: "The lead's company block; unknown values are empty strings" });

const contactResult = z
  .object({ found: z.boolean(), contact: contactSchema.nullable(), company: companySchema.nullable() })
  .meta({ id: 'ContactEnrichment' });

const problem = z.object({ code: z.string(), message: z.string() });

const errors = {
  400: { description: 'Missing or malformed lookup parameters (INVALID_REQUEST)', schema: errorEnvelope },
  402: {
    description: 'The balance does not cover the price (INSUFFICIENT_CREDITS); nothing was looked up',
    schema: errorEnvelope,
  },
  ...authErrors,
};
const slowErrors = {
  ...errors,
  429: {
    description:
      'RATE_LIMITED (per-second limit) or TOO_MANY_CONCURRENT_REQUESTS (the key already has its cap of slow lookups in flight; answered at once). Wait Retry-After seconds and resend.',
    schema: errorEnvelope,
  },
};
const bodyErrors = {
  422: { description: 'Invalid body (VALIDATION_ERROR)', schema: errorEnvelope },
  402: errors[402],
  503: {
    description: 'Background lookups unreachable (TEMPORAL_UNAVAILABLE); nothing was charged, resend',
    schema: errorEnvelope,
  },
  ...authErrors,
};

/** Aborts when the client disconnects before the answer, so a slow lookup gives its slot back at once. */
function clientGone(ctx: AppContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

const enrichContactRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/enrichment/contact',
    operationId: 'enrichContact',
    summary: `Contact by profile URL, email, or name at a company domain; ${ENRICHMENT_PRICES.contact} credit when found`,
    tags,
    access: enrich,
    query: contactLookupQuery,
    responses: {
      200: { description: '`found` false (and nothing charged) when nobody matches', schema: contactResult },
      ...slowErrors,
    },
    handle: ({ caller, query, ctx }) => enrichment.contact(caller, query, { signal: clientGone(ctx) }),
  });

const enrichCompanyRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/enrichment/firmographic',
    operationId: 'enrichCompany',
    summary: `Company by domain, page URL or name; slow and concurrency-capped; ${ENRICHMENT_PRICES.firmographic} credit when found`,
    tags,
    access: enrich,
    query: firmographicQuery,
    responses: {
      200: {
        description: '`found` false (and nothing charged) when no company matches',
        schema: z.object({ found: z.boolean(), company: companySchema.nullable() }),
      },
      ...slowErrors,
    },
    handle: ({ caller, query, ctx }) => enrichment.firmographic(caller, query, { signal: clientGone(ctx) }),
  });

const findEmailRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/enrichment/email',
    operationId: 'findEmail',
    summary: `A person's known email by name and company domain (never guessed); ${ENRICHMENT_PRICES.email} credit when found`,
    tags,
    access: enrich,
    query: emailLookupQuery,
    responses: {
      200: {
        description: '`found` false (and nothing charged) when no email is known',
        schema: z.object({ found: z.boolean(), email: z.string().nullable() }),
      },
      ...errors,
    },
    handle: ({ caller, query }) => enrichment.findEmail(caller, query),
  });

const startBulkContactEnrichmentRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/enrichment/contacts/bulk',
    operationId: 'startBulkContactEnrichment',
    summary: `Up to ${MAX_BULK_CONTACTS} contacts looked up in the background, ten at a time; ${ENRICHMENT_PRICES.contact} credit per contact found`,
    tags,
    access: enrich,
    body: bulkContactsBody,
    responses: {
      202: { description: 'Job accepted; poll its status', schema: z.object({ jobId: z.uuid() }) },
      ...bodyErrors,
    },
    handle: ({ caller, body }) => enrichment.startBulkContacts(caller, body.contacts),
  });

const getBulkContactEnrichmentRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/enrichment/contacts/bulk/{jobId}',
    operationId: 'getBulkContactEnrichment',
    summary: 'Progress and results of a bulk job; `done` rises while it runs',
    tags,
    access: enrich,
    params: uuidParam('jobId'),
    responses: {
      200: {
        description: 'Results so far, by input index',
        schema: z
          .object({
            status: z.enum(['running', 'completed', 'failed']),
            total: z.number().int(),
            done: z.number().int(),
            results: z.array(
              z.object({
                index: z.number().int().meta({ description: 'Position in the submitted `contacts`' }),
                found: z.boolean(),
                contact: contactSchema.nullable(),
                company: companySchema.nullable(),
                error: problem
                  .optional()
                  .meta({ description: 'INSUFFICIENT_CREDITS when found after the credits ran out' }),
              }),
            ),
          })
          .meta({ id: 'BulkContactEnrichment' }),
      },
      404: { description: 'Unknown job, or one of another account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, params }) => enrichment.bulkStatus(caller, params.jobId),
  });

const startPhoneLookupRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/enrichment/phone',
    operationId: 'startPhoneLookup',
    summary: `Starts a phone lookup for a contact reference; ${ENRICHMENT_PRICES.phone} credits when a phone is found`,
    tags,
    access: enrich,
    body: contactReferenceBody,
    responses: {
      202: { description: 'Lookup accepted; poll its result', schema: z.object({ lookupId: z.uuid() }) },
      ...bodyErrors,
    },
    handle: ({ caller, body }) => enrichment.startPhoneLookup(caller, body),
  });

const getPhoneLookupResultRoute = ({ enrichment }: Pick<Services, 'enrichment'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/enrichment/phone/{lookupId}',
    operationId: 'getPhoneLookupResult',
    summary: 'Result of a phone lookup',
    tags,
    access: enrich,
    params: uuidParam('lookupId'),
    responses: {
      200: {
        description: '`pending`, then `completed` (with `found`, and `phone` when found) or `failed` (with `error`)',
        schema: z
          .object({
            status: z.enum(['pending', 'completed', 'failed']),
            found: z.boolean().optional(),
            phone: z.string().optional(),
            error: problem.optional(),
          })
          .meta({ id: 'PhoneLookup' }),
      },
      404: { description: 'Unknown lookup, or one of another account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, params }) => enrichment.phoneLookup(caller, params.lookupId),
  });

export function enrichmentRoutes(services: Services) {
  return [
    enrichContactRoute(services),
    enrichCompanyRoute(services),
    findEmailRoute(services),
    startBulkContactEnrichmentRoute(services),
    getBulkContactEnrichmentRoute(services),
    startPhoneLookupRoute(services),
    getPhoneLookupResultRoute(services),
  ];
}
