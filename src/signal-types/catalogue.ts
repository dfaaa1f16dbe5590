import { z } from 'zod';
import { COMMON_SIGNAL_FIELDS } from '../catalogue/watchlist-events';
import { SIGNAL_TYPES, type SignalType } from './registry';

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

/** The REST route that creates a signal of the type. */
export const createEndpointOf = (type: SignalType) => `POST /api/v1/signals/${type.createPath}`;

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

/** What GET /api/v1/signal-types and list_signal_types answer, one entry per registered type. */
export function signalTypeCatalogue() {
  return SIGNAL_TYPES.map((type) => ({
    signalTypeId: type.signalTypeId,
    name: type.name,
    description: type.description,
    createEndpoint: createEndpointOf(type),
    configParameters: configParameters(type),
    pricingModel: type.pricingModel,
    creditsPerLead: type.creditsPerLead,
    outputFields: {
      signal: [...COMMON_SIGNAL_FIELDS, ...type.leadFields],
      contact: CONTACT_FIELDS,
      company: COMPANY_FIELDS,
    },
  }));
}
