import { AppError, insufficientCredits } from '../../errors';
import type { HiringConfig, JobChangesConfig } from './config';
import { signalType } from './signal-types';

interface Candidate {
  signalTypeId: string;
  config: Record<string, unknown>;
}

/**
 * Fields a signal needs before it may be active: job changes need titles, a watchlist needs
 * entries, hiring needs keywords. A fundraising signal without filters watches every round.
 */
export function missingForActivation(candidate: Candidate, watchedCount: number): { field: string; label: string }[] {
  if (candidate.signalTypeId === 'job_changes') {
    const config = candidate.config as JobChangesConfig;
    if (!config.jobTitles?.length && !config.customTitles?.length) {
      return [{ field: 'config.jobTitles', label: 'Job titles (jobTitles or customTitles)' }];
    }
  }
  if (candidate.signalTypeId === 'hiring' && !(candidate.config as HiringConfig).keywords?.length) {
    return [{ field: 'config.keywords', label: 'Keywords' }];
  }
  if (candidate.signalTypeId === 'account_watchlist' && watchedCount === 0) {
    return [{ field: 'config.companies', label: 'Watched companies' }];
  }
  return [];
}

/** The checks creation and every move into `active` share: 400 MISSING_REQUIRED_FIELDS, then 402. */
export function assertActivatable(candidate: Candidate, watchedCount: number, balance: number): void {
  const missing = missingForActivation(candidate, watchedCount);
  if (missing.length > 0) {
    throw new AppError(
      400,
      'MISSING_REQUIRED_FIELDS',
      `Cannot activate: missing ${missing.map((m) => m.label).join(', ')}`,
      {
        missing_fields: missing.map((m) => m.field),
        missing_field_labels: missing.map((m) => m.label),
      },
    );
  }
  const price = signalType(candidate.signalTypeId).creditsPerLead;
  if (balance < price) {
    throw insufficientCredits(
      `The account has ${balance} credits; a lead of this signal costs ${price}. Add credits to activate it`,
    );
  }
}
