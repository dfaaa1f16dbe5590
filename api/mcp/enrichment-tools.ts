import { z } from 'zod';
import type { Services } from '../../src/services';
import { ENRICHMENT_PRICES } from '../../src/services/enrichment/enrichment';
import { jobChangesConfig } from '../../src/signal-types/job-changes';
import { uuidParam } from '../schemas/common';
import { contactLookupQuery, contactReferenceBody, emailLookupQuery, firmographicQuery } from '../routes/enrichment';
import { companySearchQuery, peopleSearchQuery } from '../routes/search';
import { CHANGES, READS, defineTool, type AnyToolDef } from './tool';

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

const PAID_ONLY_WHEN_FOUND =
  'Nothing is charged when nothing is found; a balance below the price answers INSUFFICIENT_CREDITS before any lookup.';

/**
 * REST takes list filters as comma-separated query text; a tool takes JSON arrays, typed as
 * the signal configs type the same filters (a search previews what such a signal considers).
 */
const companyFilterLists = {
  industryFilters: jobChangesConfig.shape.industryFilters,
  companySizeFilters: jobChangesConfig.shape.companySizeFilters,
  locations: jobChangesConfig.shape.locations,
};

/** The enrichment lookups and the free searches: each calls what its REST twin calls. */
export function enrichmentTools(services: Pick<Services, 'enrichment' | 'search'>): AnyToolDef[] {
  const { enrichment, search } = services;
  return [
    defineTool({
      name: 'enrich_contact',
      twin: 'enrichContact',
      description:
        'Looks up a person by profile URL, or email, or firstName + lastName + companyDomain; answers {found, contact, company}. ' +
        `Costs ${credits(ENRICHMENT_PRICES.contact)} when found. ${PAID_ONLY_WHEN_FOUND} ` +
        'freshness "live" asks the source now: several seconds, and at most a few in flight per API key (TOO_MANY_CONCURRENT_REQUESTS with retryAfterSeconds beyond that).',
      input: contactLookupQuery,
      annotations: CHANGES,
      run: (caller, query, call) => enrichment.contact(caller, query, { signal: call.signal }),
    }),
    defineTool({
      name: 'enrich_company',
      twin: 'enrichCompany',
      description:
        'Looks up a company by domain, company page URL or name (a name must match one company only); answers {found, company} with firmographics. ' +
        `Costs ${credits(ENRICHMENT_PRICES.firmographic)} when found. ${PAID_ONLY_WHEN_FOUND} ` +
        'Always a live lookup: several seconds, concurrency-capped per API key (TOO_MANY_CONCURRENT_REQUESTS with retryAfterSeconds).',
      input: firmographicQuery,
      annotations: CHANGES,
      run: (caller, query, call) => enrichment.firmographic(caller, query, { signal: call.signal }),
    }),
    defineTool({
      name: 'find_email',
      twin: 'findEmail',
      description:
        'Finds the known work email of a person from firstName, lastName and the company domain (never guessed); answers {found, email}. ' +
        `Costs ${credits(ENRICHMENT_PRICES.email)} when found. ${PAID_ONLY_WHEN_FOUND}`,
      input: emailLookupQuery,
      annotations: CHANGES,
      run: (caller, query) => enrichment.findEmail(caller, query),
    }),
    defineTool({
      name: 'search_companies',
      twin: 'searchCompanies',
      description:
        'Searches companies by part of their name or domain (q) and the signal filters: industryFilters (names from list_industries), ' +
        'companySizeFilters, locations (of the headquarters). Paged by limit (1-100, default 25) and offset. Free.',
      input: companySearchQuery.extend(companyFilterLists),
      annotations: READS,
      run: (caller, query) => search.companies(caller, query),
    }),
    defineTool({
      name: 'search_people',
      twin: 'searchPeople',
      description:
        'Searches people by part of their name, title or company (q) and the signal filters: jobTitles (persona names from list_personas), ' +
        'customTitles, industryFilters, companySizeFilters, locations (where the person is). Emails and phones stay empty: they are the paid lookups ' +
        '(find_email, start_phone_lookup). Paged by limit (1-100, default 25) and offset. Free.',
      input: peopleSearchQuery.extend({
        ...companyFilterLists,
        jobTitles: jobChangesConfig.shape.jobTitles,
        customTitles: jobChangesConfig.shape.customTitles,
      }),
      annotations: READS,
      run: (caller, query) => search.people(caller, query),
    }),
    defineTool({
      name: 'start_phone_lookup',
      twin: 'startPhoneLookup',
      description:
        'Starts a phone lookup for a person (profile URL, or email, or firstName + lastName + companyDomain); answers {lookupId} at once. ' +
        `Read the result with get_phone_lookup_result. Costs ${credits(ENRICHMENT_PRICES.phone)} when a phone is found, charged when the lookup completes. ` +
        PAID_ONLY_WHEN_FOUND,
      // A fresh object schema: the REST body carries an OpenAPI id, which would turn the tool's root schema into a $ref.
      input: z.strictObject(contactReferenceBody.shape),
      annotations: CHANGES,
      run: (caller, reference) => enrichment.startPhoneLookup(caller, reference),
    }),
    defineTool({
      name: 'get_phone_lookup_result',
      twin: 'getPhoneLookupResult',
      description:
        'Reads a phone lookup started by start_phone_lookup: status pending, then completed (with found, and phone when found) or failed (with error). Free.',
      input: z.object({
        lookupId: uuidParam('lookupId').shape.lookupId.meta({
          description: 'The lookupId start_phone_lookup answered',
        }),
      }),
      annotations: READS,
      run: (caller, { lookupId }) => enrichment.phoneLookup(caller, lookupId),
    }),
  ];
}
