/**
 * Set-based SQL, typed (docs/decisions/database.md). TypeORM's `query()` answers `any`; these
 * say what comes back. `Row` is the caller's interface of the row as pg returns it: snake_case
 * columns, bigint and numeric as string, timestamptz as Date, json and jsonb parsed.
 */

/** Whatever runs SQL the TypeORM way: a DataSource, an EntityManager (a transaction's too), a QueryRunner. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

/** A top-level UPDATE or DELETE, which TypeORM answers on PostgreSQL as `[rows, rowCount]`. */
export interface Changed<Row> {
  rows: Row[];
  count: number;
}

/** The rows of a statement that answers rows: SELECT, INSERT … RETURNING, WITH … SELECT. */
export async function rows<Row>(db: Queryable, text: string, params: readonly unknown[] = []): Promise<Row[]> {
  const answer = await db.query(text, [...params]);
  if (isChangedAnswer(answer)) throw new Error('An UPDATE or DELETE answers [rows, count]: run it with changed()');
  return answer as Row[];
}

/** The first row of a statement that answers rows, or undefined when there is none. */
export async function firstRow<Row>(
  db: Queryable,
  text: string,
  params: readonly unknown[] = [],
): Promise<Row | undefined> {
  const [row] = await rows<Row>(db, text, params);
  return row;
}

/** A top-level UPDATE or DELETE: its RETURNING rows (none without RETURNING) and how many rows it changed. */
export async function changed<Row = never>(
  db: Queryable,
  text: string,
  params: readonly unknown[] = [],
): Promise<Changed<Row>> {
  const answer = await db.query(text, [...params]);
  if (!isChangedAnswer(answer)) throw new Error('Only an UPDATE or DELETE answers [rows, count]: run it with rows()');
  return { rows: answer[0] as Row[], count: answer[1] };
}

/** A statement whose answer nobody reads (an INSERT, an UPDATE, a lock, a SET). */
export async function execute(db: Queryable, text: string, params: readonly unknown[] = []): Promise<void> {
  await db.query(text, [...params]);
}

/** pg answers rows as objects, so an array first element can only be TypeORM's UPDATE/DELETE pair. */
function isChangedAnswer(answer: unknown): answer is [unknown[], number] {
  return Array.isArray(answer) && answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number';
}
