import { signalType } from '../../signal-types/registry';
import type { SettingsReview } from '../../signal-types/kit/settings-warnings';

interface ReviewedSignal {
  signalTypeId: string;
  config: Record<string, unknown>;
  creditsExhaustedAt: Date | null;
}

/**
 * What runs differently from what is stored, computed from the stored config every time a
 * signal is read, so GET shows the same `applied` and `warnings` as creation did.
 */
export function reviewSettings(signal: ReviewedSignal): SettingsReview {
  const review: SettingsReview = { applied: {}, warnings: [] };
  signalType(signal.signalTypeId).reviewSettings(signal.config, review);
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
