import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { rateLimited } from '../../src/errors';
import type { AppState } from '../context';

/**
 * Per-key request limit over a one-second window. In memory by default; with
 * RATE_LIMIT_STORE=postgres the counters live in PostgreSQL so that several API processes
 * share one budget per key. The tool server consumes from the same limiter.
 */
export class RequestRateLimit {
  private constructor(private readonly limiter: RateLimiterAbstract) {}

  static async create(options: { perSecond: number; store: 'memory' | 'postgres'; db?: DataSource }): Promise<RequestRateLimit> {
    if (options.store === 'memory' || !options.db) {
      return new RequestRateLimit(new RateLimiterMemory({ points: options.perSecond, duration: 1, keyPrefix: 'api' }));
    }
    const pool = (options.db.driver as unknown as { master: unknown }).master;
    const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
      const created: RateLimiterPostgres = new RateLimiterPostgres(
        { storeClient: pool, storeType: 'pool', points: options.perSecond, duration: 1, tableName: 'rate_limits', keyPrefix: 'api' },
        (err?: Error) => (err ? reject(err) : resolve(created)),
      );
    });
    return new RequestRateLimit(limiter);
  }

  /** Throws RATE_LIMITED (Retry-After: 1) when the key has used its budget for the current window. */
  async consume(keyId: string): Promise<void> {
    try {
      await this.limiter.consume(keyId);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw rateLimited(1);
      throw rejection;
    }
  }

  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      if (ctx.state.caller) await this.consume(ctx.state.caller.keyId);
      await next();
    };
  }
}
