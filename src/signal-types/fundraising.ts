import { z } from 'zod';
import {
  FUNDING_STAGES,
  FUNDRAISING_EVENT_TYPE,
  FUNDRAISING_LAST_SIGNAL_LABEL,
  FUNDRAISING_SIGNAL_FIELDS,
} from '../catalogue/market-signals';
import type { Signal } from '../db/entities/signal';
import type { EvaluationPlan } from './kit/evaluation-rules';
import {
  MARKET_WIDE_READS,
  marketWideFields,
  marketWidePlan,
  marketWideWakeKeys,
  reviewMarketWide,
} from './kit/market-wide';
import { defineSignalType } from './kit/signal-type';

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

export const DEFAULT_ANNOUNCEMENT_AGE_DAYS = 90;

/** The round's stage: `funding_stage` when the provider gives it, else its `funding_type`. */
export const FUNDING_STAGE_SQL = `coalesce(nullif(e.data->>'funding_stage', ''), e.data->>'funding_type')`;

/** A number in the event's data, or NULL when absent or not a number. */
const dataNumber = (field: string) =>
  `CASE WHEN jsonb_typeof(e.data->'${field}') = 'number' THEN (e.data->>'${field}')::numeric END`;

/** Fundraising: rounds announced at any company, by stage, amount and age. */
function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as FundraisingConfig;
  const maxAgeDays = config.maxAnnouncementAgeDays ?? DEFAULT_ANNOUNCEMENT_AGE_DAYS;
  return marketWidePlan(signal, now, FUNDRAISING_EVENT_TYPE, maxAgeDays, (args, age) => {
    const amount = dataNumber('funding_amount_usd');
    return [
      {
        field: 'fundingStages',
        sql: config.fundingStages?.length
          ? `lower(${FUNDING_STAGE_SQL}) = ANY($${args.push(config.fundingStages.map((stage) => stage.toLowerCase()))}::text[])`
          : 'TRUE',
      },
      {
        field: 'minAmountUsd',
        sql: config.minAmountUsd !== undefined ? `${amount} >= $${args.push(config.minAmountUsd)}` : 'TRUE',
      },
      {
        field: 'maxAmountUsd',
        sql: config.maxAmountUsd !== undefined ? `${amount} <= $${args.push(config.maxAmountUsd)}` : 'TRUE',
      },
      { ...age, field: 'maxAnnouncementAgeDays' },
    ];
  });
}

export const fundraising = defineSignalType<FundraisingConfig>({
  signalTypeId: 'fundraising',
  name: 'Fundraising',
  description:
    'Companies anywhere in the data that announced a funding round, by round stage, amount (USD), announcement age, industry, size and location; with targetPersonas, the people to contact there.',
  createPath: 'fundraising',
  operationName: 'Fundraising',
  createSummary: (price) => `Create a fundraising signal: rounds announced anywhere in the data (${price})`,
  toolConfigHint:
    'optional fundingStages, minAmountUsd, maxAmountUsd, maxAnnouncementAgeDays, company filters, targetPersonas.',
  configSchema: fundraisingConfig,
  pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
  creditsPerLead: 2,
  creditsPerEmailFound: 0.5,
  // Each round is news of its own, so a company that raises again is a lead again.
  defaultDuplicateHandling: 'allow',
  leadFields: FUNDRAISING_SIGNAL_FIELDS,
  lastSignalLabel: () => FUNDRAISING_LAST_SIGNAL_LABEL,
  // Providers name the stage `funding_type` (as watchlist leads carry it) or `funding_stage`; the round is the announcement.
  leadValues: (c) => ({
    funding_stage: c.data.funding_stage || c.data.funding_type,
    announcement_date: c.data.announcement_date || c.occurred_at.toISOString().slice(0, 10),
  }),
  // Without filters it reports every round.
  missingForActivation: () => [],
  reviewSettings: reviewMarketWide,
  evaluationPlan,
  reads: MARKET_WIDE_READS,
  wakeKeys: (config) => marketWideWakeKeys(FUNDRAISING_EVENT_TYPE, config),
  testSendSample: {
    event_type: 'fundraising',
    data: { funding_stage: 'Series B', funding_amount_usd: 25_000_000, announcement_date: '2026-11-20' },
  },
});
