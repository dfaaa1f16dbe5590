import { z } from 'zod';
import { COMPANY_SIZE_BANDS } from '../../catalogue/company-sizes';
import { DEPARTMENTS, SENIORITIES, isKnownPersona } from '../../catalogue/personas';
import { FUNDING_STAGES } from '../../catalogue/market-signals';
import { WATCHLIST_EVENT_KEYS } from '../../catalogue/watchlist-events';

const personaName = z.string().refine(isKnownPersona, 'is not a persona name; use a `name` from GET /api/v1/personas');
const textList = z.array(z.string().trim().min(1).max(255)).max(500);

export const jobChangesConfig = z.strictObject({
  jobTitles: z.array(personaName).max(200).optional().meta({ description: 'Persona names from GET /api/v1/personas' }),
  customTitles: textList.optional().meta({ description: 'Free job titles; an empty array clears the list' }),
  companySizeFilters: z.array(z.enum(COMPANY_SIZE_BANDS)).optional().meta({ description: 'Company size bands' }),
  industryFilters: textList
    .optional()
    .meta({ description: 'Names copied verbatim from GET /api/v1/signals/industries; matching is exact' }),
  locations: textList
    .optional()
    .meta({ description: 'Country, region or city names; see GET /api/v1/enrichment/validate-location' }),
  getEmails: z.boolean().optional().meta({ description: 'Find the email of each lead; 0.5 credit per email found' }),
  maxJobAgeDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .meta({ description: 'Oldest job change to report, in days; values below 180 are applied as 180' }),
});
export type JobChangesConfig = z.output<typeof jobChangesConfig>;

/** Company filters and persona targeting, shared by the market-wide fundraising and hiring signals. */
const marketWideFields = {
  companySizeFilters: jobChangesConfig.shape.companySizeFilters,
  industryFilters: jobChangesConfig.shape.industryFilters,
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

const usd = z.number().min(0).max(1e12);

export const fundraisingConfig = z
  .strictObject({
    fundingStages: z
      .array(z.enum(FUNDING_STAGES))
      .max(50)
      .optional()
      .meta({ description: 'Round stages; all when absent or empty' }),
    minAmountUsd: usd
      .optional()
      .meta({ description: 'Smallest round amount in USD (rounds of unknown amount are then left out)' }),
    maxAmountUsd: usd
      .optional()
      .meta({ description: 'Largest round amount in USD (rounds of unknown amount are then left out)' }),
    maxAnnouncementAgeDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .optional()
      .meta({ description: 'Oldest announcement to report, in days (default 90)' }),
    ...marketWideFields,
  })
  .refine((c) => c.minAmountUsd === undefined || c.maxAmountUsd === undefined || c.minAmountUsd <= c.maxAmountUsd, {
    path: ['maxAmountUsd'],
    message: 'must not be below minAmountUsd',
  });
export type FundraisingConfig = z.output<typeof fundraisingConfig>;

export const hiringConfig = z.strictObject({
  keywords: textList.max(100).optional().meta({
    description:
      'Words or phrases; a posting matches when its title or description contains one (whole-word start, any case)',
  }),
  departments: z
    .array(z.enum(DEPARTMENTS))
    .optional()
    .meta({ description: "The posting's department, read from its title" }),
  seniorities: z
    .array(z.enum(SENIORITIES))
    .optional()
    .meta({ description: "The posting's seniority, read from its title" }),
  jobLocations: textList.optional().meta({
    description: 'Where the job is: country, region or city names; see GET /api/v1/enrichment/validate-location',
  }),
  maxPostingAgeDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .meta({ description: 'Oldest posting to report, in days (default 30)' }),
  ...marketWideFields,
});
export type HiringConfig = z.output<typeof hiringConfig>;

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
    description:
      'Company names, domains, company page URLs or {name, domain, linkedinUrl} objects; consumed into the watchlist, never echoed',
  }),
  sources: watchlistSources
    .optional()
    .meta({ description: 'Per event `{enabled}`; every event is on by default except company_news' }),
  firstRunLookbackDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .meta({ description: 'How far back the first check reaches, in days (default 180)' }),
  targetPersonas: z
    .array(personaName)
    .max(200)
    .optional()
    .meta({ description: 'Persona names; each event then names a matching person at the company' }),
  getEmails: z.boolean().optional().meta({ description: 'Find the email of each person-level lead' }),
  getPhones: z.boolean().optional().meta({ description: 'Include the phone of each person-level lead' }),
});
export type AccountWatchlistConfig = z.output<typeof accountWatchlistConfig>;

/** What is stored for a watchlist: the config minus the consumed companies. */
export type StoredWatchlistConfig = Omit<AccountWatchlistConfig, 'companies'>;
