import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The find-a-tender source's part of the configuration (environment variables), read by src/config.ts. */
export const findATenderSettings = (_production: boolean) => ({
  /** How often the find-a-tender source reads the awards published or updated since its last read. */
  FIND_A_TENDER_INTERVAL: duration('6h'),
  /** The days before now a first run, and a backfill, read. */
  FIND_A_TENDER_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Releases per page (the API allows 1 to 100). */
  FIND_A_TENDER_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** Time between two requests to Find a Tender: it answers 429 after about 12 quick ones. */
  FIND_A_TENDER_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
});

export type FindATenderConfig = SettingsOf<typeof findATenderSettings>;
