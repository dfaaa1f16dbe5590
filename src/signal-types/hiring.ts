import { z } from 'zod';
import { HIRING_EVENT_TYPE, HIRING_LAST_SIGNAL_LABEL, HIRING_SIGNAL_FIELDS } from '../catalogue/market-signals';
import { DEPARTMENTS, SENIORITIES } from '../catalogue/personas';
import type { Signal } from '../db/entities/signal';
import { escapeRegex, locationClause, type EvaluationPlan, type PlaceColumns } from './kit/evaluation-rules';
import { textList } from './kit/config';
import {
  MARKET_WIDE_READS,
  marketWideFields,
  marketWidePlan,
  marketWideWakeKeys,
  reviewMarketWide,
} from './kit/market-wide';
import { defineSignalType } from './kit/signal-type';

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

export const DEFAULT_POSTING_AGE_DAYS = 30;

const JOB_PLACE: PlaceColumns = { country: 'e.job_country_code', region: 'e.job_region_code', city: 'e.job_city' };
const POSTING_TEXT = `coalesce(e.data->>'job_offer_title', '') || ' ' || coalesce(e.data->>'job_offer_description', '')`;

/** Hiring: job postings at any company whose title or description matches a keyword. */
function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as HiringConfig;
  const maxAgeDays = config.maxPostingAgeDays ?? DEFAULT_POSTING_AGE_DAYS;
  const keywords = config.keywords ?? [];
  let matchedKeywords = `''`;
  const plan = marketWidePlan(signal, now, HIRING_EVENT_TYPE, maxAgeDays, (args, age) => {
    const keywordsArg = `$${args.push(keywords)}::text[]`;
    const patternsArg = `$${args.push(keywords.map((k) => `\\m${escapeRegex(k)}`))}::text[]`;
    const matching = `FROM unnest(${keywordsArg}, ${patternsArg}) AS kw(keyword, pattern) WHERE (${POSTING_TEXT}) ~* kw.pattern`;
    matchedKeywords = `array_to_string(ARRAY(SELECT kw.keyword ${matching}), ', ')`;
    return [
      // Like titles for job changes: a signal without keywords matches no posting.
      { field: 'keywords', sql: `EXISTS (SELECT 1 ${matching})` },
      {
        field: 'departments',
        sql: config.departments?.length ? `e.job_department = ANY($${args.push(config.departments)}::text[])` : 'TRUE',
      },
      {
        field: 'seniorities',
        sql: config.seniorities?.length ? `e.job_seniority = ANY($${args.push(config.seniorities)}::text[])` : 'TRUE',
      },
      {
        field: 'jobLocations',
        sql: config.jobLocations?.length ? locationClause(config.jobLocations, args, JOB_PLACE) : 'TRUE',
      },
      { ...age, field: 'maxPostingAgeDays' },
    ];
  });
  return { ...plan, matchedKeywords };
}

export const hiring = defineSignalType<HiringConfig>({
  signalTypeId: 'hiring',
  name: 'Hiring',
  description:
    "Companies posting jobs whose title or description matches your keywords, by department, seniority and the job's location, and by industry, size and headquarters; with targetPersonas, the people to contact there.",
  createPath: 'hiring',
  operationName: 'Hiring',
  createSummary: (price) => `Create a hiring signal: job postings matching keywords anywhere in the data (${price})`,
  toolConfigHint:
    'keywords (required to activate), optional departments, seniorities, jobLocations, maxPostingAgeDays, company filters, targetPersonas.',
  configSchema: hiringConfig,
  pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
  creditsPerLead: 2,
  creditsPerEmailFound: 0.5,
  // A company posting many matching jobs at once is one lead a month, not one per posting.
  defaultDuplicateHandling: '30d',
  leadFields: HIRING_SIGNAL_FIELDS,
  lastSignalLabel: () => HIRING_LAST_SIGNAL_LABEL,
  // The keywords of this signal that the posting matched, not whatever the provider listed.
  leadValues: (c) => ({ matched_keywords: c.matched_keywords ?? '' }),
  missingForActivation: (config) => (config.keywords?.length ? [] : [{ field: 'config.keywords', label: 'Keywords' }]),
  reviewSettings: reviewMarketWide,
  evaluationPlan,
  reads: MARKET_WIDE_READS,
  wakeKeys: (config) => marketWideWakeKeys(HIRING_EVENT_TYPE, config),
  testSendSample: {
    event_type: 'job_offers',
    data: {
      job_offer_url: 'https://careers.acme-analytics.example/jobs/data-engineer',
      job_offer_title: 'Senior Data Engineer',
      job_offer_location: 'Austin, Texas, United States',
      job_offer_description: 'Build our Snowflake and dbt pipelines.',
      job_offer_source: 'company website',
      job_offer_date: '2026-11-20',
      job_offer_published_date: '2026-11-20',
    },
    matched_keywords: 'data engineer, snowflake',
  },
});
