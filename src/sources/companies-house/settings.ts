import { z } from 'zod';
import { duration, optionalText, type SettingsOf } from '../../settings-fields';

/** The companies-house source's part of the configuration (environment variables), read by src/config.ts. */
export const companiesHouseSettings = (_production: boolean) => ({
  /** The companies-house source's REST key (HTTP Basic user name); without it the source is off. */
  COMPANIES_HOUSE_API_KEY: optionalText,
  /** The key of Companies House's streaming API (a separate key); without it the officers stream is not read. */
  COMPANIES_HOUSE_STREAM_KEY: optionalText,
  /** How often the companies-house source runs: a bounded read of the officers stream, then matching and filings. */
  COMPANIES_HOUSE_INTERVAL: duration('5m'),
  /** How long one run reads the officers stream at most (the activity allows 5 minutes). */
  COMPANIES_HOUSE_STREAM_READ_SECONDS: z.coerce.number().int().min(1).max(240).default(120),
  /** Stream events one run reads at most. */
  COMPANIES_HOUSE_STREAM_MAX_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  /** How often a linked company's capital filings are read again. */
  COMPANIES_HOUSE_FILINGS_INTERVAL: duration('24h'),
  /** The fixed rate turning a GBP statement of capital into `funding_amount_usd`; 0 leaves GBP amounts empty. */
  COMPANIES_HOUSE_GBP_USD_RATE: z.coerce.number().min(0).max(100).default(1.27),
});

export type CompaniesHouseConfig = SettingsOf<typeof companiesHouseSettings>;
