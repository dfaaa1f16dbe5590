import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The ted source's part of the configuration (environment variables), read by src/config.ts. */
export const tedSettings = (_production: boolean) => ({
  /** How often the ted source reads TED's contract award notices (TED publishes once per working day). */
  TED_INTERVAL: duration('6h'),
  /** The publication days each ted run makes sure are read: today and the days before it. */
  TED_RECENT_DAYS: z.coerce.number().int().min(1).max(31).default(3),
  /** The days before today a ted backfill reads again. */
  TED_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Notices per page of a TED search (the API allows 250). */
  TED_PAGE_SIZE: z.coerce.number().int().min(1).max(250).default(100),
});

export type TedConfig = SettingsOf<typeof tedSettings>;
