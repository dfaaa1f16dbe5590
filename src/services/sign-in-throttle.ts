import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { AppError } from '../errors';

/** Wrong passwords allowed per email, and per client address, within the window. */
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 20, windowSeconds: 15 * 60 } as const;

/**
 * Slows password guessing: failed sign-ins are counted per email (one account guessed from many
 * addresses) and per client address (many accounts guessed from one). Over either budget,
 * sign-in answers 429 with Retry-After until the window passes, even with the right password.
 * A successful sign-in clears its email's count. Shared through PostgreSQL when
 * RATE_LIMIT_STORE=postgres, like the API's rate limit.
 */
export class SignInThrottle {
  private limiters?: Promise<{ email: RateLimiterAbstract; address: RateLimiterAbstract }>;

  constructor(
    private readonly db: DataSource,
    private readonly store: 'memory' | 'postgres',
  ) {}

  /** Throws RATE_LIMITED when this email or address has no attempts left. */
  async check(email: string, address: string): Promise<void> {
    const { email: byEmail, address: byAddress } = await this.ready();
    const [e, a] = await Promise.all([byEmail.get(email.trim().toLowerCase()), byAddress.get(address)]);
    const blocked = [
      e && e.consumedPoints >= SIGN_IN_LIMITS.perEmail ? e.msBeforeNext : 0,
      a && a.consumedPoints >= SIGN_IN_LIMITS.perAddress ? a.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...blocked);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError(
        429,
        'RATE_LIMITED',
        `Too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} minute(s)`,
        {},
        { 'Retry-After': String(seconds) },
      );
    }
  }

  async failed(email: string, address: string): Promise<void> {
    const { email: byEmail, address: byAddress } = await this.ready();
    // Penalty, not consume: it counts without throwing once the budget is spent.
    await Promise.all([byEmail.penalty(email.trim().toLowerCase(), 1), byAddress.penalty(address, 1)]);
  }

  async succeeded(email: string): Promise<void> {
    const { email: byEmail } = await this.ready();
    await byEmail.delete(email.trim().toLowerCase());
  }

  private ready() {
    return (this.limiters ??= this.create());
  }

  private async create() {
    const make = async (keyPrefix: string, points: number): Promise<RateLimiterAbstract> => {
      const options = { points, duration: SIGN_IN_LIMITS.windowSeconds, keyPrefix };
      if (this.store === 'memory') return new RateLimiterMemory(options);
      const pool = (this.db.driver as unknown as { master: unknown }).master;
      return new Promise<RateLimiterPostgres>((resolve, reject) => {
        const created: RateLimiterPostgres = new RateLimiterPostgres(
          { ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits' },
          (err?: Error) => (err ? reject(err) : resolve(created)),
        );
      });
    };
    const [email, address] = await Promise.all([
      make('sign-in-email', SIGN_IN_LIMITS.perEmail),
      make('sign-in-address', SIGN_IN_LIMITS.perAddress),
    ]);
    return { email, address };
  }
}
