import { AppError } from '../errors';
import type { AttemptBudgets, Budget, Reservation } from './attempt-budgets';

/** Sign-ins allowed per email, and per client address, within the window (failures; a success is given back). */
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 20, windowSeconds: 15 * 60 } as const;
/** Sign-up attempts allowed per client address within the window, successful or not. */
export const SIGN_UP_LIMITS = { perAddress: 10, windowSeconds: 60 * 60 } as const;

const normalEmail = (email: string) => email.trim().toLowerCase();

const tooMany = (what: string, retryAfterMs: number) => {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new AppError(
    429,
    'RATE_LIMITED',
    `${what}; try again in ${Math.ceil(seconds / 60)} minute(s)`,
    {},
    { 'Retry-After': String(seconds) },
  );
};

/**
 * Slows password guessing and account enumeration in the dashboard. A sign-in spends one attempt
 * of its email's budget (one account guessed from many addresses) and of its client address's
 * (many accounts guessed from one) before the password is checked; over either, it answers 429
 * with Retry-After, even with the right password, until the window passes. A successful sign-in
 * refills its email and gives back its address's attempt. A sign-up spends one attempt of its
 * address's budget, because each one mails someone.
 */
export class SignInThrottle {
  constructor(private readonly budgets: AttemptBudgets) {}

  /** Spends a sign-in attempt; throws RATE_LIMITED when this email or address has none left. */
  async signIn(email: string, address: string): Promise<Reservation> {
    const result = await this.budgets.reserve([
      signInEmail(email),
      {
        kind: 'sign-in-address',
        owner: address,
        limit: SIGN_IN_LIMITS.perAddress,
        windowSeconds: SIGN_IN_LIMITS.windowSeconds,
      },
    ]);
    if (!result.ok) throw tooMany('Too many failed sign-ins', result.retryAfterMs);
    return result.reservation;
  }

  async succeeded(email: string, reservation: Reservation): Promise<void> {
    await this.budgets.clear(signInEmail(email));
    await this.budgets.giveBack(reservation, ['sign-in-address']);
  }

  /** Spends a sign-up attempt; throws RATE_LIMITED when this address has none left. */
  async signUp(address: string): Promise<void> {
    const result = await this.budgets.reserve([
      {
        kind: 'sign-up-address',
        owner: address,
        limit: SIGN_UP_LIMITS.perAddress,
        windowSeconds: SIGN_UP_LIMITS.windowSeconds,
      },
    ]);
    if (!result.ok) throw tooMany('Too many sign-ups from this address', result.retryAfterMs);
  }
}

const signInEmail = (email: string): Budget => ({
  kind: 'sign-in-email',
  owner: normalEmail(email),
  limit: SIGN_IN_LIMITS.perEmail,
  windowSeconds: SIGN_IN_LIMITS.windowSeconds,
});
