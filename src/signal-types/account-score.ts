import { z } from 'zod';
import type { Signal } from '../db/entities/signal';
import {
  DEFAULT_SCORING_MODEL,
  SCORED_EVENT_TYPES,
  accountScore,
  type ScoredEvent,
  type ScoringModel,
} from './kit/account-score';
import type { Candidate } from './kit/candidate';
import type { EvaluationPlan } from './kit/evaluation-rules';
import {
  MARKET_WIDE_READS,
  marketWideFields,
  marketWidePlan,
  marketWideWakeKeys,
  reviewMarketWide,
} from './kit/market-wide';
import { defineSignalType } from './kit/signal-type';

export const DEFAULT_THRESHOLD = 60;
export const DEFAULT_MIN_DISTINCT_TYPES = 2;
export const DEFAULT_COOLDOWN_DAYS = 30;
export const DEFAULT_CROSSING_AGE_DAYS = 30;

export const accountScoreConfig = z.strictObject({
  threshold: z
    .number()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: `Score (0–100) a company must reach for a lead (default ${DEFAULT_THRESHOLD})` }),
  minDistinctTypes: z
    .number()
    .int()
    .min(1)
    .max(SCORED_EVENT_TYPES.length)
    .optional()
    .meta({
      description: `Event types that must each give at least 1 point when it reaches the threshold (default ${DEFAULT_MIN_DISTINCT_TYPES})`,
    }),
  cooldownDays: z
    .number()
    .int()
    .min(0)
    .max(3650)
    .optional()
    .meta({
      description: `Days after a crossing before the company may cross again, having fallen below (default ${DEFAULT_COOLDOWN_DAYS})`,
    }),
  maxCrossingAgeDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .meta({ description: `Oldest crossing to report, in days (default ${DEFAULT_CROSSING_AGE_DAYS})` }),
  ...marketWideFields,
});
export type AccountScoreConfig = z.output<typeof accountScoreConfig>;

/** The settings a crossing is decided by, with the defaults filled in. */
export function crossingRuleOf(config: AccountScoreConfig) {
  return {
    threshold: config.threshold ?? DEFAULT_THRESHOLD,
    minDistinctTypes: config.minDistinctTypes ?? DEFAULT_MIN_DISTINCT_TYPES,
    cooldownDays: config.cooldownDays ?? DEFAULT_COOLDOWN_DAYS,
  };
}

/** The account's model as SQL: its own, else the defaults. */
function modelSql(signal: Signal, args: unknown[]): string {
  return `coalesce((SELECT sm.model FROM scoring_models sm WHERE sm.account_id = $${args.push(signal.accountId)}::uuid),
    $${args.push(JSON.stringify(DEFAULT_SCORING_MODEL))}::jsonb)`;
}

/**
 * A lead where a company's score crossed: the event with which it reached the threshold with
 * enough distinct types, after being below, and past the cooldown since its last crossing
 * (`account_score_crossings`, the SQL twin of `scoreCrossings`).
 */
function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as AccountScoreConfig;
  const rule = crossingRuleOf(config);
  const maxAgeDays = config.maxCrossingAgeDays ?? DEFAULT_CROSSING_AGE_DAYS;
  let model = '';
  const plan = marketWidePlan(signal, now, SCORED_EVENT_TYPES, maxAgeDays, (args, age) => {
    model = modelSql(signal, args);
    const scoreAfter = `account_score_at(c.id, ${model}, e.occurred_at, e.id, TRUE)`;
    const threshold = `$${args.push(rule.threshold)}::float8`;
    const minTypes = `$${args.push(rule.minDistinctTypes)}::int`;
    return [
      { ...age, field: 'maxCrossingAgeDays' },
      { field: 'threshold', sql: `(${scoreAfter}).score >= ${threshold}` },
      { field: 'minDistinctTypes', sql: `(${scoreAfter}).distinct_types >= ${minTypes}` },
      {
        field: 'cooldownDays',
        sql: `e.id = ANY(account_score_crossings(c.id, ${model}, ${threshold}, ${minTypes}, $${args.push(rule.cooldownDays)}::float8))`,
      },
    ];
  });
  // Constants of the catalogue, inlined: a bind value only leadData used would be untyped in the backlog's queries.
  const types = `ARRAY[${SCORED_EVENT_TYPES.map((type) => `'${type}'`).join(', ')}]::text[]`;
  return {
    ...plan,
    companyWide: true,
    // What the lead's breakdown is computed from: the company's events up to the crossing, and the model.
    leadData: `jsonb_build_object('model', ${model}, 'events', (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'id', x.id, 'type', x.type, 'at', x.occurred_at)), '[]'::jsonb) FROM events x
      WHERE x.company_id = c.id AND x.type = ANY(${types})
        AND (x.occurred_at < e.occurred_at OR (x.occurred_at = e.occurred_at AND x.id COLLATE "C" <= e.id))))`,
  };
}

interface ScoreLeadData {
  model: ScoringModel;
  events: { id: string; type: string; at: string }[];
}

/** The score as it stood at the crossing event, from what the plan selected. */
export function scoreAtCrossing(candidate: Pick<Candidate, 'lead_data' | 'occurred_at'>) {
  const data = candidate.lead_data as ScoreLeadData | undefined;
  if (!data) return undefined;
  const events: ScoredEvent[] = data.events.map((x) => ({ id: x.id, type: x.type, occurredAt: new Date(x.at) }));
  return accountScore(events, data.model, candidate.occurred_at);
}

export const ACCOUNT_SCORE_LAST_SIGNAL_LABEL = 'Account Score Crossed';

export const accountScoreSignal = defineSignalType<AccountScoreConfig>({
  signalTypeId: 'account_score',
  name: 'Account score',
  description:
    "Companies whose account score (0–100 from their events, by the account's scoring model) crosses a threshold with enough distinct event types; again only after falling below and a cooldown. Filters: industry, size and location; with targetPersonas, the people to contact there.",
  createPath: 'account-score',
  operationName: 'AccountScore',
  createSummary: (price) => `Create an account-score signal: companies whose score crosses a threshold (${price})`,
  toolConfigHint:
    'optional threshold (1–100, default 60), minDistinctTypes (default 2), cooldownDays (default 30), maxCrossingAgeDays (default 30), company filters, targetPersonas, getEmails.',
  configSchema: accountScoreConfig,
  pricingModel: 'per_lead: 3 credits per lead, plus 0.5 credit for each email found when getEmails is on',
  creditsPerLead: 3,
  creditsPerEmailFound: 0.5,
  // The cooldown is the type's own repeat rule.
  defaultDuplicateHandling: 'allow',
  leadFields: ['score', 'grade', 'distinct_types', 'score_breakdown'],
  lastSignalLabel: () => ACCOUNT_SCORE_LAST_SIGNAL_LABEL,
  leadValues: (c) => {
    const score = scoreAtCrossing(c);
    return score
      ? {
          score: score.score,
          grade: score.grade,
          distinct_types: score.distinctTypes,
          score_breakdown: score.breakdown,
        }
      : {};
  },
  missingForActivation: () => [],
  reviewSettings: reviewMarketWide,
  evaluationPlan,
  reads: MARKET_WIDE_READS,
  // A crossing depends on all the company's scored events: any of their kinds.
  wakeKeys: (config) => marketWideWakeKeys(SCORED_EVENT_TYPES, config),
  testSendSample: {
    event_type: 'fundraising',
    data: {
      score: 72.4,
      grade: 'B',
      distinct_types: 2,
      score_breakdown: [
        {
          event_id: 'sample-round',
          type: 'fundraising',
          date: '2026-11-20T00:00:00.000Z',
          weight: 30,
          decay: 0.9576,
          contribution: 28.73,
        },
        {
          event_id: 'sample-leader',
          type: 'new_decision_makers',
          date: '2026-11-02T00:00:00.000Z',
          weight: 15,
          decay: 0.7937,
          contribution: 11.91,
        },
      ],
    },
  },
  dashboardForm: {
    fields: [
      { input: 'number', name: 'threshold', label: 'Score threshold', hint: '1–100, default 60', min: 1, max: 100 },
      {
        input: 'number',
        name: 'minDistinctTypes',
        label: 'Distinct event types at least',
        hint: 'default 2',
        min: 1,
        max: SCORED_EVENT_TYPES.length,
      },
      { input: 'number', name: 'cooldownDays', label: 'Cooldown, in days', hint: 'default 30', min: 0, max: 3650 },
      { input: 'sizeBands', name: 'companySizeFilters', legend: 'Company sizes' },
      { input: 'industries', name: 'industryFilters' },
      {
        input: 'lines',
        name: 'locations',
        label: 'Headquarters locations',
        hint: 'countries, regions or cities, one per line; checked on save',
      },
      { input: 'personas', name: 'targetPersonas', label: 'People to contact (personas)' },
      { input: 'flag', name: 'getEmails', label: 'Find emails (0.5 credit per email found)' },
    ],
  },
});
