import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The news source's part of the configuration (environment variables), read by src/config.ts. */
export const newsSettings = (production: boolean) => ({
  /** How often the news source reads every company's feeds and searches GDELT for every watched one. */
  NEWS_INTERVAL: duration('6h'),
  /** The least time between two GDELT requests, across every worker: GDELT asks for 5 s; tests shorten it. */
  NEWS_GDELT_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(production ? 5000 : 0)
    .default(5000),
});

export type NewsConfig = SettingsOf<typeof newsSettings>;
