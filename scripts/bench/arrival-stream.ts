/**
 * Arrivals while signals run, shared by the scale-data and scale-signals sections: new events
 * through `POST /admin/v1/ingest` at a rate (and the people and companies a source updates
 * meanwhile, in SQL), and the signals put in steady state after a bulk load.
 */
import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { In, type DataSource } from 'typeorm';
import { Signal } from '../../src/db/entities/signal';
import { evaluationBasis } from '../../src/services/leads/evaluation-backlog';
import { call } from './http';
import { applyUpdates, arrivalsOf, seededRandom, type StoreShape, type StoreSize } from './scale-data-store';
import type { BenchStack } from './stack';

const DAY_MS = 86_400_000;
/** Arrivals are sent this often, each tick the rate's share. */
const TICK_MS = 5_000;

/** Arrivals at a rate, every tick through the ingest endpoint, until stopped. */
export class ArrivalStream {
  private perMs = 0;
  private owed = 0;
  private last = performance.now();
  private timer?: NodeJS.Timeout;
  private busy?: Promise<void>;
  readonly seq = { next: 0 };
  readonly random = seededRandom(26);
  events = 0;
  late = 0;
  latenciesMs: number[] = [];
  failures = 0;
  /** Called with each accepted batch's event ids and the moment the ingest endpoint answered (performance.now()). */
  onIngested?: (eventIds: string[], at: number) => void;

  constructor(
    private readonly stack: BenchStack,
    private readonly db: PgClient,
    private readonly shape: StoreShape,
    private readonly size: StoreSize,
    private readonly log: (line: string) => void,
  ) {}

  /** Events a day at this compression, as events per ms of bench time. */
  setRate(eventsPerDay: number, compression: number): void {
    this.perMs = (eventsPerDay * compression) / DAY_MS;
  }

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => {
      if (this.busy) return; // a slow tick is caught up by the next one's share
      this.busy = this.tick().finally(() => (this.busy = undefined));
    }, TICK_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.busy;
  }

  /** Sends `count` events now (a probe's fixed batch), or the share owed since the last tick. */
  async send(count?: number): Promise<void> {
    const now = performance.now();
    if (count === undefined) {
      this.owed += (now - this.last) * this.perMs;
      count = Math.floor(this.owed);
      this.owed -= count;
    }
    this.last = now;
    if (count <= 0) return;
    const arrivals = await arrivalsOf(this.shape, this.size, count, this.seq, this.random, async (ids) => {
      const { rows } = await this.db.query<{ id: string; company_id: string }>(
        `SELECT id, company_id FROM people WHERE id = ANY($1::text[])`,
        [ids],
      );
      return new Map(rows.map((r) => [r.id, r.company_id]));
    });
    const started = performance.now();
    const answer = await call(`${this.stack.apiUrl}/admin/v1/ingest`, {
      token: this.stack.adminToken,
      rawBody: arrivals.ndjson,
      contentType: 'application/x-ndjson',
    });
    const answered = performance.now();
    this.latenciesMs.push(answered - started);
    if (answer.status !== 200 || (answer.body as { rejected: number }).rejected > 0) {
      this.failures++;
      if (this.failures <= 3) this.log(`  ingest answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    } else this.onIngested?.(arrivals.eventIds, answered);
    await applyUpdates(this.db, this.shape, arrivals);
    this.events += arrivals.events;
    this.late += arrivals.late;
  }

  private async tick(): Promise<void> {
    try {
      await this.send();
    } catch (err) {
      this.failures++;
      if (this.failures <= 3) this.log(`  arrivals failed: ${(err as Error).message}`);
    }
  }
}

/** Whether the service keeps evaluation watermarks (incremental evaluation, issue #26). */
export async function tracksChanges(db: PgClient): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM information_schema.columns WHERE table_name = 'signals' AND column_name = 'evaluated_xid'`,
  );
  return rows.length > 0;
}

/**
 * Marks the signals as evaluated up to now, as they would be after their first full read
 * (measured separately on a sample): the watermark at the current snapshot, no backlog.
 * Without watermarks (the full evaluation), there is nothing to set.
 */
export async function putInSteadyState(db: PgClient, dataSource: DataSource, ids: string[]): Promise<void> {
  const signals = await dataSource.getRepository(Signal).findBy({ id: In(ids) });
  await db.query('BEGIN');
  try {
    await db.query(
      `UPDATE signals s SET evaluated_xid = pg_snapshot_xmin(pg_current_snapshot()), evaluated_at = now(),
         evaluation_basis = x.basis, full_read_at = NULL, full_read_event_id = NULL
       FROM unnest($1::uuid[], $2::text[]) AS x(id, basis) WHERE s.id = x.id`,
      [signals.map((s) => s.id), signals.map((s) => evaluationBasis(s))],
    );
    await db.query(`DELETE FROM signal_backlog WHERE signal_id = ANY($1::uuid[])`, [ids]);
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
}

/** Waits (15 minutes at most) until `count` signals named `${namePrefix} …` made their first evaluation. */
export async function waitForFirstEvaluations(
  db: PgClient,
  namePrefix: string,
  count: number,
  log: (line: string) => void,
): Promise<void> {
  const deadline = performance.now() + 15 * 60_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM signals WHERE first_evaluated_at IS NOT NULL AND name LIKE $1`,
      [`${namePrefix} %`],
    );
    if (rows[0]!.n >= count) return;
    if (performance.now() > deadline) {
      log(`  only ${rows[0]!.n} of ${count} signals evaluated on activation; going on`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
