import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The sec-form-d source's part of the configuration (environment variables), read by src/config.ts. */
export const secFormDSettings = (_production: boolean) => ({
  /** How often the sec-form-d source reads EDGAR's current Form D filings; a backfill reads the daily indexes of the last SEC_FORM_D_BACKFILL_DAYS days. */
  SEC_FORM_D_INTERVAL: duration('10m'),
  SEC_FORM_D_BACKFILL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Pages of 100 filings a run reads of the current feed at most (it stops at the first filing it knows). */
  SEC_FORM_D_FEED_PAGES: z.coerce.number().int().min(1).max(20).default(5),
});

export type SecFormDConfig = SettingsOf<typeof secFormDSettings>;
