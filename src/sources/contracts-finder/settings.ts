import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The contracts-finder source's part of the configuration (environment variables), read by src/config.ts. */
export const contractsFinderSettings = (_production: boolean) => ({
  /** How often the contracts-finder source reads the awards published since its last read. */
  CONTRACTS_FINDER_INTERVAL: duration('6h'),
  /** The days before now a first run, and a backfill, read. */
  CONTRACTS_FINDER_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Releases per page (the API allows 1 to 100). */
  CONTRACTS_FINDER_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** Time between two requests to Contracts Finder. */
  CONTRACTS_FINDER_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
  /** How long nothing goes to Contracts Finder after it refuses us with a 403 (its rate answer: "wait 5 minutes"). */
  CONTRACTS_FINDER_REFUSED_WAIT: duration('5m'),
});

export type ContractsFinderConfig = SettingsOf<typeof contractsFinderSettings>;
