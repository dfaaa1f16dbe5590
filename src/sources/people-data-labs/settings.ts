import { z } from 'zod';
import { duration, optionalText, type SettingsOf } from '../../settings-fields';

/** The people-data-labs source's part of the configuration (environment variables), read by src/config.ts. */
export const peopleDataLabsSettings = (_production: boolean) => ({
  /** The people-data-labs source's API key (the customer's or the operator's); unset, the source is off. */
  PEOPLE_DATA_LABS_API_KEY: optionalText,
  /** PDL's current monthly release ("28.2"), compared with the one before it; set it when PDL publishes one. */
  PEOPLE_DATA_LABS_VERSION: optionalText.pipe(
    z
      .string()
      .regex(/^\d+\.[0-2]$/, 'must be a PDL monthly release such as "28.2"')
      .optional(),
  ),
  /** How often the people-data-labs source looks for a release it has not compared yet. */
  PEOPLE_DATA_LABS_INTERVAL: duration('1d'),
  /** What one PDL credit costs under the key's plan, in USD, for the cost in the source's status (0: credits only). */
  PEOPLE_DATA_LABS_CREDIT_PRICE_USD: z.coerce.number().min(0).max(1000).default(0),
});

export type PeopleDataLabsConfig = SettingsOf<typeof peopleDataLabsSettings>;
