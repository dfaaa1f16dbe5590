import { z } from 'zod';
import { JOB_CHANGE_LAST_SIGNAL_LABEL, JOB_CHANGE_SIGNAL_FIELDS } from '../catalogue/watchlist-events';
import type { Signal } from '../db/entities/signal';
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
  titleClause,
  type EvaluationFilter,
  type EvaluationPlan,
  type ReadColumns,
} from './kit/evaluation-rules';
import { companyFilterFields, personaName, textList } from './kit/config';
import { reviewIndustries, type SettingsReview } from './kit/settings-warnings';
import { defineSignalType } from './kit/signal-type';
import { signalWakeKeys, type Facets, type WakeKey } from './kit/wake-keys';

export const MIN_JOB_AGE_DAYS = 180;

export const jobChangesConfig = z.strictObject({
  jobTitles: z.array(personaName).max(200).optional().meta({ description: 'Persona names from GET /api/v1/personas' }),
  customTitles: textList.optional().meta({ description: 'Free job titles; an empty array clears the list' }),
  ...companyFilterFields,
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

/** Job changes: people who started a job matching titles, company size, industry and location, within the age window. */
function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as JobChangesConfig;
  const args: unknown[] = [signal.id];
  const maxAgeDays = Math.max(config.maxJobAgeDays ?? MIN_JOB_AGE_DAYS, MIN_JOB_AGE_DAYS);
  const eligibleSince = new Date(now.getTime() - maxAgeDays * DAY_MS);
  const subject = `'person:' || p.id`;
  // A filter the signal does not set keeps every row (TRUE), so the funnel's stages have a stable shape.
  const filters: EvaluationFilter[] = [
    { field: 'jobTitles', sql: titleClause(config, args) },
    {
      field: 'companySizeFilters',
      sql: config.companySizeFilters?.length ? companySizeClause(config.companySizeFilters, args) : 'TRUE',
    },
    {
      field: 'industryFilters',
      sql: config.industryFilters?.length ? industryClause(config.industryFilters, args) : 'TRUE',
    },
    { field: 'locations', sql: config.locations?.length ? locationClause(config.locations, args) : 'TRUE' },
    { field: 'maxJobAgeDays', sql: occurredBetween(args, eligibleSince, now) },
  ];
  return {
    joins: `JOIN people p ON p.id = e.person_id JOIN companies c ON c.id = e.company_id`,
    kind: `e.type = 'job_change'`,
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

/** The plan above: the company's trust, size and industry; the person's persona, title and place. */
const reads: ReadColumns = {
  companies: ['provenance', 'size_band', 'industry'],
  people: ['persona', 'title', 'country_code', 'region_code', 'city'],
};

/**
 * What wakes a job-changes signal: a job change at a company of its industries and sizes, by a
 * person of its personas (unless free titles are set: a title is matched by words, not keyed)
 * and countries; a new person of those (their job change may be stored already).
 */
function wakeKeys(config: JobChangesConfig): WakeKey[] {
  const person: Facets = {
    ...(config.customTitles?.length ? {} : { persona: config.jobTitles ?? [] }),
    ...(config.locations?.length ? { personCountry: locationCountries(config.locations) } : {}),
  };
  return signalWakeKeys({ kinds: ['job_change'], events: { ...companyFacets(config), ...person }, people: person });
}

function reviewSettings(config: JobChangesConfig, review: SettingsReview): void {
  if (config.maxJobAgeDays !== undefined && config.maxJobAgeDays < MIN_JOB_AGE_DAYS) {
    review.applied.maxJobAgeDays = MIN_JOB_AGE_DAYS;
    review.warnings.push({
      code: 'VALUE_BELOW_MINIMUM',
      field: 'maxJobAgeDays',
      severity: 'info',
      message: `maxJobAgeDays ${config.maxJobAgeDays} is below the minimum of ${MIN_JOB_AGE_DAYS} days; ${MIN_JOB_AGE_DAYS} is applied`,
      values: [String(config.maxJobAgeDays), String(MIN_JOB_AGE_DAYS)],
    });
  }
  reviewIndustries(config.industryFilters ?? [], review);
}

export const jobChanges = defineSignalType<JobChangesConfig>({
  signalTypeId: 'job_changes',
  name: 'Job changes',
  description:
    'People who recently started a new job matching the titles, company sizes, industries and locations you choose.',
  createPath: 'job-changes',
  operationName: 'JobChanges',
  createSummary: (price) => `Create a job-changes signal (${price})`,
  toolConfigHint: 'jobTitles (persona names from list_personas) or customTitles, plus optional filters.',
  configSchema: jobChangesConfig,
  pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
  creditsPerLead: 2,
  creditsPerEmailFound: 0.5,
  defaultDuplicateHandling: 'refuse',
  leadFields: JOB_CHANGE_SIGNAL_FIELDS,
  lastSignalLabel: () => JOB_CHANGE_LAST_SIGNAL_LABEL,
  missingForActivation: (config) =>
    config.jobTitles?.length || config.customTitles?.length
      ? []
      : [{ field: 'config.jobTitles', label: 'Job titles (jobTitles or customTitles)' }],
  reviewSettings,
  evaluationPlan,
  reads,
  wakeKeys,
  testSendSample: {
    event_type: 'job_change',
    data: {
      previous_title: 'VP Engineering',
      previous_company: 'Northwind Labs',
      new_title: 'Chief Technology Officer',
      new_company: 'Acme Analytics',
      new_job_started_on: '10/2026',
      new_job_start_month: '2026-10',
      change_type: 'company',
    },
  },
  dashboardForm: {
    fields: [
      { input: 'personas', name: 'jobTitles', label: 'Personas (job titles)' },
      { input: 'lines', name: 'customTitles', label: 'Custom job titles', hint: 'one per line' },
      { input: 'sizeBands', name: 'companySizeFilters', legend: 'Company sizes' },
      { input: 'industries', name: 'industryFilters' },
      {
        input: 'lines',
        name: 'locations',
        label: 'Locations',
        hint: 'countries, regions or cities, one per line; checked on save',
      },
      {
        input: 'number',
        name: 'maxJobAgeDays',
        label: 'Oldest job change, in days',
        hint: 'optional; below 180 counts as 180',
        min: 1,
        max: 3650,
      },
      { input: 'flag', name: 'getEmails', label: 'Find emails (0.5 credit per email found)' },
    ],
  },
});
