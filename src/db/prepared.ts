import type { DataSource } from 'typeorm';
import { Pool, types, type CustomTypesConfig } from 'pg';

export interface Statement {
  /** Unique per text: pg refuses a second text under a name a connection has already prepared. */
  name: string;
  /** Written to have one good plan whatever its parameters: it runs with a generic plan. */
  text: string;
  /**
   * `json` columns come back as the text PostgreSQL stored, unparsed. Cheaper on both sides
   * than `::text` in SQL, which PostgreSQL runs as an output-then-input conversion (two copies
   * of every value).
   */
  jsonAsText?: boolean;
}

const JSON_OID = 114;
const asIs = (value: string) => value;
const jsonAsText = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === JSON_OID ? asIs : types.getTypeParser(oid, format),
} as CustomTypesConfig;

/**
 * Hot reads run as named prepared statements on a pool of their own, beside TypeORM's, whose
 * sessions plan each statement once, generically (`plan_cache_mode=force_generic_plan`).
 * Left to choose, PostgreSQL planned the leads page again on every call, because a
 * `LIMIT $2` it cannot see makes any generic plan look costly, and that planning was about
 * 40 % of the page's PostgreSQL time (docs/performance.md). TypeORM's own queries stay on
 * their pool, planned for their values.
 */
const pools = new WeakMap<DataSource, Pool>();

function preparedPool(db: DataSource): Pool {
  let pool = pools.get(db);
  if (!pool) {
    const typeorm = (db.driver as unknown as { master: Pool }).master.options;
    pool = new Pool({
      ...typeorm,
      // Not enumerable in pg-pool's copy of the options, so not carried by the spread.
      password: typeorm.password,
      options: [typeorm.options, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' '),
    });
    // An idle connection lost (PostgreSQL restarted): the pool drops it and the next read opens another.
    pool.on('error', () => undefined);
    // And one passing between pool and query when PostgreSQL goes away (see data-source.ts).
    pool.on('connect', (client) => client.on('error', () => undefined));
    pools.set(db, pool);
  }
  return pool;
}

/** Closes the pool of `db`'s prepared reads if one was opened; the data source's destroy() calls it. */
export async function closePreparedPool(db: DataSource): Promise<void> {
  const pool = pools.get(db);
  pools.delete(db);
  await pool?.end();
}

/** Runs a statement of a hot read; its first run on a connection prepares it there. */
export async function runPrepared<Row>(db: DataSource, statement: Statement, values: unknown[]): Promise<Row[]> {
  const result = await preparedPool(db).query({
    name: statement.name,
    text: statement.text,
    values,
    ...(statement.jsonAsText ? { types: jsonAsText } : {}),
  });
  return result.rows as Row[];
}
