import { z } from 'zod';
import { accountWatchlistConfig, fundraisingConfig, hiringConfig, jobChangesConfig } from './config';
import {
  COMMON_SIGNAL_FIELDS,
  JOB_CHANGE_SIGNAL_FIELDS,
  WATCHLIST_SIGNAL_FIELDS,
} from '../../catalogue/watchlist-events';
import { FUNDRAISING_SIGNAL_FIELDS, HIRING_SIGNAL_FIELDS } from '../../catalogue/market-signals';

export const SIGNAL_TYPE_IDS = ['job_changes', 'account_watchlist', 'fundraising', 'hiring'] as const;
export type SignalTypeId = (typeof SIGNAL_TYPE_IDS)[number];

export const CONTACT_FIELDS = [
  'lead_id',
  'created_at',
  'first_name',
  'last_name',
  'email',
  'phone',
  'title',
  'location',
  'city',
  'country_code',
  'linkedin_profile_url',
  'sales_navigator_profile_url',
  'matched_persona',
] as const;

export const COMPANY_FIELDS = [
  'name',
  'website',
  'linkedin_url',
  'hq_country_code',
  'hq_city',
  'tech_stack',
  'homepage_title',
  'meta_description',
  'description',
  'industry',
  'location',
  'employee_count',
  'employee_range',
  'headquarters',
  'company_type',
  'founded_year',
] as const;

export interface SignalType {
  signalTypeId: SignalTypeId;
  name: string;
  description: string;
  createEndpoint: string;
  configSchema: z.ZodObject;
  pricingModel: string;
  creditsPerLead: number;
  /** Charged on top of the lead when `getEmails` finds an email; 0 where the lead's price covers it. */
  creditsPerEmailFound: number;
  /** `refuse`, `allow` or `<X>d`. */
  defaultDuplicateHandling: string;
  signalFields: readonly string[];
}

export const SIGNAL_TYPES: Record<SignalTypeId, SignalType> = {
  job_changes: {
    signalTypeId: 'job_changes',
    name: 'Job changes',
    description:
      'People who recently started a new job matching the titles, company sizes, industries and locations you choose.',
    createEndpoint: 'POST /api/v1/signals/job-changes',
    configSchema: jobChangesConfig,
    pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
    creditsPerLead: 2,
    creditsPerEmailFound: 0.5,
    defaultDuplicateHandling: 'refuse',
    signalFields: [...COMMON_SIGNAL_FIELDS, ...JOB_CHANGE_SIGNAL_FIELDS],
  },
  account_watchlist: {
    signalTypeId: 'account_watchlist',
    name: 'Account watchlist',
    description:
      'Events at the companies you watch: funding, deals, hiring, new decision makers, social activity, news and forecasts.',
    createEndpoint: 'POST /api/v1/signals/account-watchlist',
    configSchema: accountWatchlistConfig,
    pricingModel: 'per_lead: 3 credits per lead, any event',
    creditsPerLead: 3,
    creditsPerEmailFound: 0,
    defaultDuplicateHandling: 'allow',
    signalFields: [...COMMON_SIGNAL_FIELDS, ...WATCHLIST_SIGNAL_FIELDS],
  },
  fundraising: {
    signalTypeId: 'fundraising',
    name: 'Fundraising',
    description:
      'Companies anywhere in the data that announced a funding round, by round stage, amount (USD), announcement age, industry, size and location; with targetPersonas, the people to contact there.',
    createEndpoint: 'POST /api/v1/signals/fundraising',
    configSchema: fundraisingConfig,
    pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
    creditsPerLead: 2,
    creditsPerEmailFound: 0.5,
    // Each round is news of its own, so a company that raises again is a lead again.
    defaultDuplicateHandling: 'allow',
    signalFields: [...COMMON_SIGNAL_FIELDS, ...FUNDRAISING_SIGNAL_FIELDS],
  },
  hiring: {
    signalTypeId: 'hiring',
    name: 'Hiring',
    description:
      "Companies posting jobs whose title or description matches your keywords, by department, seniority and the job's location, and by industry, size and headquarters; with targetPersonas, the people to contact there.",
    createEndpoint: 'POST /api/v1/signals/hiring',
    configSchema: hiringConfig,
    pricingModel: 'per_lead: 2 credits per lead, plus 0.5 credit for each email found when getEmails is on',
    creditsPerLead: 2,
    creditsPerEmailFound: 0.5,
    // A company posting many matching jobs at once is one lead a month, not one per posting.
    defaultDuplicateHandling: '30d',
    signalFields: [...COMMON_SIGNAL_FIELDS, ...HIRING_SIGNAL_FIELDS],
  },
};

export function signalType(id: string): SignalType {
  const type = SIGNAL_TYPES[id as SignalTypeId];
  if (!type) throw new Error(`unknown signal type ${id}`);
  return type;
}

interface JsonSchemaProperty {
  type?: string;
  description?: string;
  enum?: unknown[];
  items?: JsonSchemaProperty & { anyOf?: JsonSchemaProperty[] };
  default?: unknown;
}

/** The type's config parameters, read off the same zod schema that validates them. */
export function configParameters(type: SignalType) {
  const schema = z.toJSONSchema(type.configSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, JsonSchemaProperty>;
    required?: string[];
  };
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    type:
      property.type === 'array'
        ? `array of ${property.items?.type ?? 'string or object'}`
        : (property.type ?? 'object'),
    required: (schema.required ?? []).includes(name),
    description: property.description ?? '',
    ...(property.enum ? { allowedValues: property.enum } : {}),
    ...(property.items?.enum ? { allowedValues: property.items.enum } : {}),
    ...(property.default !== undefined ? { default: property.default } : {}),
  }));
}

export function signalTypeCatalogue() {
  return Object.values(SIGNAL_TYPES).map((type) => ({
    signalTypeId: type.signalTypeId,
    name: type.name,
    description: type.description,
    createEndpoint: type.createEndpoint,
    configParameters: configParameters(type),
    pricingModel: type.pricingModel,
    creditsPerLead: type.creditsPerLead,
    outputFields: {
      signal: type.signalFields,
      contact: CONTACT_FIELDS,
      company: COMPANY_FIELDS,
    },
  }));
}
