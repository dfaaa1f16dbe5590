import { z } from 'zod';
import { duration, int, type SettingsOf } from '../../settings-fields';

/** The forecasts source's part of the configuration (environment variables), read by src/config.ts. */
export const forecastsSettings = (_production: boolean) => ({
  /** How often the forecast rules look at the companies whose events changed. */
  FORECASTS_INTERVAL: duration('6h'),
  /** Companies one rule looks at per query. */
  FORECASTS_BATCH: z.coerce.number().int().min(1).max(50_000).default(2000),
  /** How long one rule's run may go on; the companies left wait for the next run (an activity has 5 minutes). */
  FORECASTS_RUN_BUDGET_MS: int(180_000),
});

export type ForecastsConfig = SettingsOf<typeof forecastsSettings>;
