import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppError } from '../errors';
import { closeWith, openDatabase } from './data-source';

export interface AnalysisPoolSettings {
  /** Connections of the pool: what previews and funnels may hold at once, across every account. */
  size: number;
  /** How long a request waits for one of them before it is told to come back. */
  waitMs: number;
}

const opened = new WeakMap<DataSource, Promise<DataSource>>();

/**
 * Cost previews and funnels read a signal's whole window (seconds on a large store); on the
 * API's own pool, a few dozen of them took every connection and plain requests of every
 * account waited behind them. They get a small pool of their own beside `db`'s, opened at
 * first use and closed with `db` (data-source.ts), so the API's connections stay with ordinary
 * requests however many analyses run.
 */
export function analysisDatabase(db: DataSource, settings: AnalysisPoolSettings): Promise<DataSource> {
  let database = opened.get(db);
  if (!database) {
    const opening = openDatabase((db.options as PostgresConnectionOptions).url as string, settings.size, {
      connectionTimeoutMillis: settings.waitMs,
    });
    database = opening;
    // A failed open is not kept: the next analysis tries again.
    opening.catch(() => opened.delete(db));
    opened.set(db, opening);
    closeWith(db, async () => {
      opened.delete(db);
      await (await opening.catch(() => undefined))?.destroy();
    });
  }
  return database;
}

/** pg-pool's refusal when no connection freed up within `waitMs`. */
const isPoolWait = (err: unknown) =>
  err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message);

/** Every connection of the analysis pool stayed busy: the request comes back shortly rather than queueing. */
export function analysisBusy(err: unknown): AppError | undefined {
  if (!isPoolWait(err)) return undefined;
  return new AppError(
    503,
    'ANALYSIS_BUSY',
    'Every connection for previews and funnels is busy; wait Retry-After seconds and resend',
    {},
    { 'Retry-After': '2' },
  );
}
