import { z } from 'zod';
import type { Signal } from '../../db/entities/signal';
import {
  DAY_MS,
  LEAD_FOR_EVENT,
  TRUSTED_COMPANY,
  companyFacets,
  companySizeClause,
  duplicateClause,
  industryClause,
  locationClause,
  locationCountries,
  occurredBetween,
  type EvaluationFilter,
  type EvaluationPlan,
  type PlaceColumns,
  type ReadColumns,
} from './evaluation-rules';
import { companyFilterFields, personaName, textList } from './config';
import { fieldUnused, reviewIndustries, type SettingsReview } from './settings-warnings';
import { signalWakeKeys, type WakeKey } from './wake-keys';

/**
 * What the market-wide types (fundraising, hiring) share: events of one kind at any company,
 * the company filters, and persona targeting (the lead names a person of a matching persona
 * at the company; without targeting it is company-level).
 */

/** Company filters and persona targeting, in each market-wide type's config. */
export const marketWideFields = {
  ...companyFilterFields,
  locations: textList.optional().meta({
    description: 'Company headquarters: country, region or city names; see GET /api/v1/enrichment/validate-location',
  }),
  targetPersonas: z.array(personaName).max(200).optional().meta({
    description:
      'Persona names; each lead then names a person of a matching persona at the company (without, leads are company-level)',
  }),
  getEmails: z
    .boolean()
    .optional()
    .meta({ description: 'Find the email of each person-level lead; 0.5 credit per email found' }),
  getPhones: z.boolean().optional().meta({ description: 'Include the phone of each person-level lead' }),
};

type MarketWideConfig = z.output<z.ZodObject<typeof marketWideFields>>;

const HEADQUARTERS: PlaceColumns = { country: 'c.hq_country_code', region: null, city: 'c.hq_city' };

export function marketWidePlan(
  signal: Signal,
  now: Date,
  eventType: string | readonly string[],
  maxAgeDays: number,
  ownFilters: (args: unknown[], age: EvaluationFilter) => EvaluationFilter[],
): EvaluationPlan {
  const config = signal.config as MarketWideConfig;
  const args: unknown[] = [signal.id];
  const eligibleSince = new Date(now.getTime() - maxAgeDays * DAY_MS);
  const personas = config.targetPersonas ?? [];
  const targeting = personas.length > 0;
  const personasArg = targeting ? `$${args.push(personas)}::text[]` : '';
  const personJoin = targeting
    ? `LEFT JOIN LATERAL (SELECT * FROM people x WHERE x.company_id = c.id AND x.persona = ANY(${personasArg}) ORDER BY x.id LIMIT 1) p ON TRUE`
    : `LEFT JOIN people p ON FALSE`;
  const subject = `CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END`;
  const age: EvaluationFilter = { field: '', sql: occurredBetween(args, eligibleSince, now) };
  const filters: EvaluationFilter[] = [
    ...ownFilters(args, age),
    {
      field: 'industryFilters',
      sql: config.industryFilters?.length ? industryClause(config.industryFilters, args) : 'TRUE',
    },
    {
      field: 'companySizeFilters',
      sql: config.companySizeFilters?.length ? companySizeClause(config.companySizeFilters, args) : 'TRUE',
    },
    {
      field: 'locations',
      sql: config.locations?.length ? locationClause(config.locations, args, HEADQUARTERS) : 'TRUE',
    },
    { field: 'targetPersonas', sql: targeting ? 'p.id IS NOT NULL' : 'TRUE' },
  ];
  return {
    joins: `JOIN companies c ON c.id = e.company_id ${personJoin}`,
    ...(targeting ? { namedPeople: (x: string) => `${x}.persona = ANY(${personasArg})` } : {}),
    kind:
      typeof eventType === 'string'
        ? `e.type = $${args.push(eventType)}`
        : `e.type = ANY($${args.push(eventType)}::text[])`,
    // Market-wide means the shared store: never a company only some account's claim names.
    watched: TRUSTED_COMPANY,
    filters,
    isLead: LEAD_FOR_EVENT,
    subjectAllowed: duplicateClause(signal, args, now, subject),
    subject,
    eligibleSince,
    maxAgeDays,
    args,
  };
}

/** What `marketWidePlan` reads: the company's trust, filters and headquarters; its people's company and persona. */
export const MARKET_WIDE_READS: ReadColumns = {
  companies: ['provenance', 'industry', 'size_band', 'hq_country_code', 'hq_city'],
  people: ['company_id', 'persona'],
};

/**
 * What wakes a market-wide signal: events of its kinds at companies of its industries, sizes and
 * headquarters countries; company changes; with persona targeting, a new person of its personas.
 */
export function marketWideWakeKeys(eventType: string | readonly string[], config: MarketWideConfig): WakeKey[] {
  const personas = config.targetPersonas ?? [];
  return signalWakeKeys({
    kinds: typeof eventType === 'string' ? [eventType] : eventType,
    events: {
      ...companyFacets(config),
      ...(config.locations?.length ? { hq: locationCountries(config.locations) } : {}),
    },
    ...(personas.length ? { people: { persona: personas } } : {}),
  });
}

/** Company-level leads unless targetPersonas names the people: getEmails and getPhones then act on nothing. */
export function reviewMarketWide(config: MarketWideConfig, review: SettingsReview): void {
  reviewIndustries(config.industryFilters ?? [], review);
  if ((config.targetPersonas?.length ?? 0) > 0) return;
  for (const field of ['getEmails', 'getPhones'] as const) {
    if (config[field])
      fieldUnused(field, 'no targetPersonas are set, so leads are company-level and carry no person', review);
  }
}
