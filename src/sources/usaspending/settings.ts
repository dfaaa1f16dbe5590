import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The usaspending source's part of the configuration (environment variables), read by src/config.ts. */
export const usaspendingSettings = (_production: boolean) => ({
  /** How often the usaspending source reads the contract awards new since its last read. */
  USASPENDING_INTERVAL: duration('24h'),
  /** The days before now a first run, and a backfill, read. */
  USASPENDING_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /**
   * The days each read reaches back before the last one's end: agencies report awards to FPDS
   * days after they are made, so a window of award dates is read again until these have passed.
   */
  USASPENDING_LATE_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  /** Awards per page (the API allows 1 to 100). */
  USASPENDING_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
});

export type UsaspendingConfig = SettingsOf<typeof usaspendingSettings>;
