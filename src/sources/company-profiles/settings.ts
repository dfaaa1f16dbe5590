import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The company-profiles source's part of the configuration (environment variables), read by src/config.ts. */
export const companyProfilesSettings = (_production: boolean) => ({
  /** How often the company-profiles source looks for sites due (new companies, weekly refreshes). */
  COMPANY_PROFILES_INTERVAL: duration('15m'),
  /** Sites one account's watchlists (or the store's unwatched companies) get read per company-profiles run, at most. */
  COMPANY_PROFILES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(200),
});

export type CompanyProfilesConfig = SettingsOf<typeof companyProfilesSettings>;
