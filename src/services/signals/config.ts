import { z } from 'zod';
import { COMPANY_SIZE_BANDS } from '../../catalogue/company-sizes';
import { isKnownPersona } from '../../catalogue/personas';
import { WATCHLIST_EVENT_KEYS } from '../../catalogue/watchlist-events';

const personaName = z.string().refine(isKnownPersona, 'is not a persona name; use a `name` from GET /api/v1/personas');
const textList = z.array(z.string().trim().min(1).max(255)).max(500);

export const jobChangesConfig = z.strictObject({
  jobTitles: z.array(personaName).max(200).optional().meta({ description: 'Persona names from GET /api/v1/personas' }),
  customTitles: textList.optional().meta({ description: 'Free job titles; an empty array clears the list' }),
  companySizeFilters: z.array(z.enum(COMPANY_SIZE_BANDS)).optional().meta({ description: 'Company size bands' }),
  industryFilters: textList.optional().meta({ description: 'Names copied verbatim from GET /api/v1/signals/industries; matching is exact' }),
  locations: textList.optional().meta({ description: 'Country, region or city names; see GET /api/v1/enrichment/validate-location' }),
  getEmails: z.boolean().optional().meta({ description: 'Find the email of each lead; 0.5 credit per email found' }),
  maxJobAgeDays: z.number().int().min(1).max(3650).optional().meta({ description: 'Oldest job change to report, in days; values below 180 are applied as 180' }),
});
export type JobChangesConfig = z.output<typeof jobChangesConfig>;

const companyObject = z.strictObject({
  name: z.string().trim().max(255).nullish(),
  domain: z.string().trim().max(255).nullish(),
  linkedinUrl: z.string().trim().max(500).nullish(),
});
export const companyEntry = z.union([z.string().trim().max(500), companyObject]);
export type CompanyEntry = z.output<typeof companyEntry>;

export const companyEntries = z.array(companyEntry).max(10_000);

const sourceSetting = z.strictObject({ enabled: z.boolean() });
export const watchlistSources = z.strictObject(
  Object.fromEntries(WATCHLIST_EVENT_KEYS.map((key) => [key, sourceSetting.optional()])) as Record<
    (typeof WATCHLIST_EVENT_KEYS)[number],
    z.ZodOptional<typeof sourceSetting>
  >,
);

export const accountWatchlistConfig = z.strictObject({
  companies: companyEntries.optional().meta({
    description: 'Company names, domains, company page URLs or {name, domain, linkedinUrl} objects; consumed into the watchlist, never echoed',
  }),
  sources: watchlistSources.optional().meta({ description: 'Per event `{enabled}`; every event is on by default except company_news' }),
  firstRunLookbackDays: z.number().int().min(1).max(3650).optional().meta({ description: 'How far back the first check reaches, in days (default 180)' }),
  targetPersonas: z.array(personaName).max(200).optional().meta({ description: 'Persona names; each event then names a matching person at the company' }),
  getEmails: z.boolean().optional().meta({ description: 'Find the email of each person-level lead' }),
  getPhones: z.boolean().optional().meta({ description: 'Include the phone of each person-level lead' }),
});
export type AccountWatchlistConfig = z.output<typeof accountWatchlistConfig>;

/** What is stored for a watchlist: the config minus the consumed companies. */
export type StoredWatchlistConfig = Omit<AccountWatchlistConfig, 'companies'>;
