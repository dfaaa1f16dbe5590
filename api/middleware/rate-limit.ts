import type { Middleware } from 'koa';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { rateLimited } from '../../src/errors';
import type { AppState } from '../context';

type StoreOptions = { keyPrefix: string; points: number; duration: number };

/**
 * Per-key request limit over a sliding one-second window: never more than `perSecond`
 * requests of a key in any second, wherever the second starts.
 *
 * Built from rate-limiter-flexible's limiters as a sliding log of `perSecond` slots: each
 * accepted request holds one slot for a second (a one-point, one-second limiter per slot), and
 * a key's requests take the slots in turn (a counter limiter hands out the turns), so a request
 * is accepted only when its slot's last holder is over a second old. Fixed windows (one limiter
 * of `perSecond` points) let up to twice the budget through across a window boundary.
 *
 * In memory by default; with RATE_LIMIT_STORE=postgres both limiters live in PostgreSQL so
 * that several API processes share one budget per key. The tool server consumes from the
 * same limit.
 */
export class RequestRateLimit {
  private constructor(
    private readonly perSecond: number,
    private readonly turns: RateLimiterAbstract,
    private readonly slots: RateLimiterAbstract,
  ) {}

  static async create(options: {
    perSecond: number;
    store: 'memory' | 'postgres';
    db?: DataSource;
  }): Promise<RequestRateLimit> {
    // The turn counter restarts once a day: a restart sends a key's next requests back to the first
    // slots, which may still be held, so it could refuse a few too early then (never let more
    // through). A counter that never restarts would overflow PostgreSQL's integer column.
    const turns: StoreOptions = { keyPrefix: 'api-turn', points: 2 ** 31 - 1, duration: 86_400 };
    const slots: StoreOptions = { keyPrefix: 'api-slot', points: 1, duration: 1 };
    if (options.store === 'memory' || !options.db) {
      return new RequestRateLimit(options.perSecond, new RateLimiterMemory(turns), new RateLimiterMemory(slots));
    }
    const pool = (options.db.driver as unknown as { master: unknown }).master;
    const inPostgres = (store: StoreOptions) =>
      new Promise<RateLimiterPostgres>((resolve, reject) => {
        const created: RateLimiterPostgres = new RateLimiterPostgres(
          { ...store, storeClient: pool, storeType: 'pool', tableName: 'rate_limits' },
          (err?: Error) => (err ? reject(err) : resolve(created)),
        );
      });
    const turnLimiter = await inPostgres(turns);
    return new RequestRateLimit(options.perSecond, turnLimiter, await inPostgres(slots));
  }

  /** Throws RATE_LIMITED (Retry-After: 1) when the key already made `perSecond` requests in the last second. */
  async consume(keyId: string): Promise<void> {
    try {
      const turn = await this.turns.consume(keyId);
      await this.slots.consume(`${keyId}:${turn.consumedPoints % this.perSecond}`);
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
