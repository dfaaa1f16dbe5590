import { isCategory, isKnownIndustry, redundantIndustryFilters, suggestIndustries } from '../../catalogue/industries';
import { enabledWatchlistEvents, isPersonLevelEvent } from '../../catalogue/watchlist-events';
import type { FundraisingConfig, HiringConfig, JobChangesConfig, StoredWatchlistConfig } from './config';

export interface SignalWarning {
  code: string;
  field: string;
  message: string;
  severity: 'info' | 'warning';
  values: string[];
}

export interface SettingsReview {
  applied: Record<string, unknown>;
  warnings: SignalWarning[];
}

export const MIN_JOB_AGE_DAYS = 180;

interface ReviewedSignal {
  signalTypeId: string;
  config: Record<string, unknown>;
  creditsExhaustedAt: Date | null;
}

function reviewJobChanges(config: JobChangesConfig, review: SettingsReview): void {
  if (config.maxJobAgeDays !== undefined && config.maxJobAgeDays < MIN_JOB_AGE_DAYS) {
    review.applied.maxJobAgeDays = MIN_JOB_AGE_DAYS;
    review.warnings.push({
      code: 'VALUE_BELOW_MINIMUM',
      field: 'maxJobAgeDays',
      severity: 'info',
      message: `maxJobAgeDays ${config.maxJobAgeDays} is below the minimum of ${MIN_JOB_AGE_DAYS} days; ${MIN_JOB_AGE_DAYS} is applied`,
      values: [String(config.maxJobAgeDays), String(MIN_JOB_AGE_DAYS)],
    });
  }
  reviewIndustries(config.industryFilters ?? [], review);
}

/** Unknown industries match nothing; a category with its own industries is redundant. */
function reviewIndustries(industries: string[], review: SettingsReview): void {
  const unknown = industries.filter((name) => !isKnownIndustry(name) && !isCategory(name));
  if (unknown.length > 0) {
    const hints = unknown
      .map((name) => [name, suggestIndustries(name)[0]] as const)
      .filter(([, hint]) => hint)
      .map(([name, hint]) => `"${name}" → "${hint}"?`);
    review.warnings.push({
      code: 'UNKNOWN_INDUSTRY',
      field: 'industryFilters',
      severity: 'warning',
      message: `Unknown industries match no company (matching is exact): ${unknown.join(', ')}${hints.length ? `. Did you mean ${hints.join(' ')}` : ''}`,
      values: unknown,
    });
  }
  for (const { category, industries: own } of redundantIndustryFilters(industries)) {
    review.warnings.push({
      code: 'CATEGORY_WITH_ITS_INDUSTRIES',
      field: 'industryFilters',
      severity: 'info',
      message: `The category "${category}" already covers ${own.join(', ')}; listing them as well changes nothing`,
      values: [category, ...own],
    });
  }
}

function fieldUnused(field: 'getEmails' | 'getPhones', why: string, review: SettingsReview): void {
  review.applied[field] = null;
  review.warnings.push({
    code: 'FIELD_UNUSED',
    field,
    severity: 'info',
    message: `${field} is unused: ${why}`,
    values: [],
  });
}

/** Market-wide fundraising and hiring: company-level leads unless targetPersonas names the people. */
function reviewMarketWide(config: FundraisingConfig | HiringConfig, review: SettingsReview): void {
  reviewIndustries(config.industryFilters ?? [], review);
  if ((config.targetPersonas?.length ?? 0) > 0) return;
  for (const field of ['getEmails', 'getPhones'] as const) {
    if (config[field])
      fieldUnused(field, 'no targetPersonas are set, so leads are company-level and carry no person', review);
  }
}

/** getEmails/getPhones only act on person-level leads; say so when this watchlist can produce none. */
function reviewWatchlist(config: StoredWatchlistConfig, review: SettingsReview): void {
  const events = enabledWatchlistEvents(config.sources);
  if (events.length === 0) {
    review.warnings.push({
      code: 'NO_SOURCES_ENABLED',
      field: 'sources',
      severity: 'warning',
      message: 'Every event source is disabled, so this watchlist produces no lead',
      values: [],
    });
  }
  const producesPeople = (config.targetPersonas?.length ?? 0) > 0 || events.some(isPersonLevelEvent);
  for (const field of ['getEmails', 'getPhones'] as const) {
    if (config[field] && !producesPeople) {
      fieldUnused(
        field,
        'the enabled events are company-level and no targetPersonas are set, so leads carry no person',
        review,
      );
    }
  }
}

/**
 * What runs differently from what is stored, computed from the stored config every time a
 * signal is read, so GET shows the same `applied` and `warnings` as creation did.
 */
export function reviewSettings(signal: ReviewedSignal): SettingsReview {
  const review: SettingsReview = { applied: {}, warnings: [] };
  if (signal.signalTypeId === 'job_changes') reviewJobChanges(signal.config as JobChangesConfig, review);
  if (signal.signalTypeId === 'account_watchlist') reviewWatchlist(signal.config as StoredWatchlistConfig, review);
  if (signal.signalTypeId === 'fundraising' || signal.signalTypeId === 'hiring') {
    reviewMarketWide(signal.config as FundraisingConfig | HiringConfig, review);
  }
  if (signal.creditsExhaustedAt) {
    review.warnings.push({
      code: 'CREDITS_EXHAUSTED',
      field: 'credits',
      severity: 'warning',
      message:
        'The account ran out of credits: production is paused and candidates are deferred until credits are added',
      values: [signal.creditsExhaustedAt.toISOString()],
    });
  }
  return review;
}
