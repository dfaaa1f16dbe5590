import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The sec-filings source's part of the configuration (environment variables), read by src/config.ts. */
export const secFilingsSettings = (_production: boolean) => ({
  /** How often the sec-filings source reads EDGAR's current filings of its forms; a backfill reads the daily indexes of the last SEC_FILINGS_BACKFILL_DAYS days. */
  SEC_FILINGS_INTERVAL: duration('10m'),
  SEC_FILINGS_BACKFILL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Pages of 100 filings a run reads of each form's current feed at most (it stops at the first filing it knows). */
  SEC_FILINGS_FEED_PAGES: z.coerce.number().int().min(1).max(20).default(3),
  /** Pages of an owner's own Form 3 filings read to find their previous company (the newest first). */
  SEC_FILINGS_OWNER_PAGES: z.coerce.number().int().min(1).max(10).default(3),
});

export type SecFilingsConfig = SettingsOf<typeof secFilingsSettings>;
