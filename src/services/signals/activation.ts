import { AppError, insufficientCredits } from '../../errors';
import { signalType, type MissingField } from '../../signal-types/registry';

interface Candidate {
  signalTypeId: string;
  config: Record<string, unknown>;
}

/** Fields the signal's type needs before it may be active (a watchlist: companies to watch). */
export function missingForActivation(candidate: Candidate, watchedCount: number): MissingField[] {
  return signalType(candidate.signalTypeId).missingForActivation(candidate.config, watchedCount);
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
