import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { conflict, notFound } from '../errors';
import type { SourceCursor, SourceItemResult, SourceItemsPage, SourceRunStart } from '../temporal/contract';
import type { IntentSource } from './kit/intent-source';
import type { SourceSchedules } from './kit/schedules';
import { OfflineNotice, offlineLineOf } from './kit/fetch-problems';
import { AttemptCancelled, ItemAttempts, withinAttempt, type ParkedItem } from './kit/item-attempts';
import { execute, firstRow, rows } from '../db/sql';

export interface SourceStatus {
  name: string;
  enabled: boolean;
  /** Why the source does nothing though enabled (e.g. "off: no API key"), else null. */
  off: string | null;
  running: boolean;
  lastRunStartedAt: string | null;
  lastRunFinishedAt: string | null;
  nextRunAt: string | null;
  recordsIngested: number;
  recordsDropped: number;
  errors: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** The source's own line: off and why, what its last run cost (people-data-labs); null when it has none. */
  detail: string | null;
  /** Items a worker died on twice: runs skip them until the operator unparks them (or backfills). */
  parked: ParkedItem[];
}

interface SourceRow {
  name: string;
  enabled: boolean;
  state: { running?: boolean; cursor?: SourceCursor };
  last_run_started_at: Date | null;
  last_run_finished_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  records_ingested: string;
  records_dropped: string;
  errors_count: string;
}

/**
 * The intent sources and their state in PostgreSQL (table `sources`): whether each is enabled,
 * the cursor of its current run, its last run, records and errors. A run killed mid-way leaves
 * `running` and its cursor set, and the next run goes on from there.
 */
export class Sources {
  private readonly byName: ReadonlyMap<string, IntentSource>;
  private readonly offlineNotice: OfflineNotice;
  private readonly attempts: ItemAttempts;

  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
    readonly schedules: SourceSchedules,
    sources: readonly IntentSource[],
    /** How long a status waits for Temporal to describe a schedule (TEMPORAL_ANSWER_WAIT_MS). */
    private readonly answerWaitMs: number,
  ) {
    this.byName = new Map(sources.map((source) => [source.name, source]));
    this.offlineNotice = new OfflineNotice(db, logger);
    this.attempts = new ItemAttempts(db);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  async list(): Promise<SourceStatus[]> {
    const known = await rows<SourceRow>(this.db, `SELECT * FROM sources WHERE name = ANY($1::text[]) ORDER BY name`, [
      this.names,
    ]);
    return Promise.all(
      known.map(async (row) =>
        statusOf(
          row,
          await this.nextRunOf(row.name),
          await this.detailOf(row.name),
          this.offReason(row.name),
          await this.attempts.parked(row.name),
        ),
      ),
    );
  }

  async get(name: string): Promise<SourceStatus> {
    const row = await this.row(name);
    const parked = await this.attempts.parked(name);
    return statusOf(row, await this.nextRunOf(name), await this.detailOf(name), this.offReason(name), parked);
  }

  /**
   * The next run from the source's schedule. The status is read from PostgreSQL, so a Temporal
   * server that is slow or down costs the answer its next run (null, logged), never the answer.
   */
  private async nextRunOf(name: string): Promise<Date | null> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.answerWaitMs} ms`)), this.answerWaitMs);
    });
    try {
      return await Promise.race([this.schedules.nextRunAt(name), timedOut]);
    } catch (err) {
      this.logger.warn(
        { source: name, err: err instanceof Error ? err.message : String(err) },
        'next run unknown: the schedule did not answer',
      );
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private async detailOf(name: string): Promise<string | null> {
    return (await this.byName.get(name)?.detail?.()) ?? null;
  }

  private offReason(name: string): string | null {
    return this.byName.get(name)?.off?.() ?? null;
  }

  /** Pauses or resumes the source's schedule as well; a run under way finds out at its next start. */
  async setEnabled(name: string, enabled: boolean): Promise<SourceStatus> {
    await this.row(name);
    await execute(this.db, `UPDATE sources SET enabled = $2, updated_at = now() WHERE name = $1`, [name, enabled]);
    await this.schedules.setPaused(name, !enabled);
    return this.get(name);
  }

  /**
   * Starts a run now through the source's schedule (so it shows there), with every item due.
   * A disabled or off source is refused here, with the reason: its run would do nothing.
   */
  async runNow(name: string): Promise<SourceStatus> {
    this.assertCanRun(await this.row(name));
    await this.source(name).dueNow?.();
    await this.schedules.trigger(name);
    return this.get(name);
  }

  /** Forgets the cursor of an unfinished run: the next run starts from the first item again (the diff keeps it idempotent), with what the source's own backfill adds. */
  async backfill(name: string): Promise<SourceStatus> {
    this.assertCanRun(await this.row(name));
    // A backfill is a fresh start: parked items are tried again too.
    await this.attempts.unpark(name);
    await this.source(name).backfill?.();
    await execute(this.db, `UPDATE sources SET state = '{}', updated_at = now() WHERE name = $1`, [name]);
    await this.source(name).dueNow?.();
    await this.schedules.trigger(name);
    return this.get(name);
  }

  /** A run's start: a fresh one, or the unfinished one's cursor. */
  async beginRun(name: string): Promise<SourceRunStart> {
    const row = await this.row(name);
    if (!row.enabled || this.offReason(name)) return { enabled: false, cursor: null };
    if (row.state.running) return { enabled: true, cursor: row.state.cursor ?? null };
    await execute(
      this.db,
      `UPDATE sources SET state = '{"running": true, "cursor": null}', last_run_started_at = now(), updated_at = now() WHERE name = $1`,
      [name],
    );
    return { enabled: true, cursor: null };
  }

  /** The source's items after the cursor, less the parked ones (the page's `next` is the source's). */
  async items(name: string, after: SourceCursor): Promise<SourceItemsPage> {
    const page = await this.source(name).items(after);
    const parked = await this.attempts.parkedAmong(name, page.items);
    return parked.size ? { ...page, items: page.items.filter((item) => !parked.has(item)) } : page;
  }

  /** Tries a parked item again at the next run (all of the source's parked items without `item`). */
  async unpark(name: string, item?: string): Promise<SourceStatus> {
    await this.row(name);
    const unparked = await this.attempts.unpark(name, item);
    if (item !== undefined && unparked === 0) throw notFound('Parked item');
    return this.get(name);
  }

  /**
   * One item synced, its records and error counted, and the cursor moved past it. The attempt
   * is counted as started in PostgreSQL first, so one lost with its worker is known to the next;
   * `cancelled` (the activity's cancellation) aborts its requests, and a cancelled attempt
   * writes no result.
   */
  async syncItem(
    name: string,
    item: string,
    progress?: (detail: unknown) => void,
    cancelled?: AbortSignal,
  ): Promise<SourceItemResult> {
    const source = this.source(name);
    const { parked } = await this.attempts.start(name, item);
    if (parked) {
      await this.recordError(name, item, parked);
      this.logger.error({ source: name, item, reason: parked }, 'source item parked');
      return { records: 0, error: `${item}: ${parked}` };
    }
    let result: SourceItemResult;
    try {
      result = await withinAttempt(cancelled, () => source.sync(item, progress));
      if (cancelled?.aborted) throw new AttemptCancelled(cancelled.reason);
    } finally {
      await this.attempts.finish(name, item);
    }
    const offline = offlineLineOf(result.error);
    await execute(
      this.db,
      `UPDATE sources SET records_ingested = records_ingested + $2,
         errors_count = errors_count + $3,
         last_error = CASE WHEN $4::text IS NULL THEN last_error ELSE $4 END,
         last_error_at = CASE WHEN $4::text IS NULL THEN last_error_at ELSE now() END,
         state = jsonb_set(state, '{cursor}', to_jsonb($5::text)),
         records_dropped = records_dropped + $6, updated_at = now()
       WHERE name = $1`,
      [name, result.records, result.error ? 1 : 0, offline ?? result.error ?? null, item, result.dropped ?? 0],
    );
    if (offline) await this.offlineNotice.tell(name, offline);
    else if (result.error) this.logger.warn({ source: name, item, error: result.error }, 'source item failed');
    return result;
  }

  /** An item that failed after every retry (a host throttling us for long): recorded, and the run goes on. */
  async recordError(name: string, item: string, error: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE sources SET errors_count = errors_count + 1, last_error = $3, last_error_at = now(),
         state = jsonb_set(state, '{cursor}', to_jsonb($2::text)), updated_at = now()
       WHERE name = $1`,
      [name, item, `${item}: ${error}`],
    );
  }

  async finishRun(name: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE sources SET state = '{"running": false, "cursor": null}', last_run_finished_at = now(), updated_at = now() WHERE name = $1`,
      [name],
    );
  }

  private assertCanRun(row: SourceRow): void {
    if (!row.enabled) {
      throw conflict(
        'SOURCE_DISABLED',
        `The source "${row.name}" is disabled, so a run would do nothing; enable it first (POST /admin/v1/sources/${row.name}/enable, or npm run admin -- enable-source ${row.name})`,
      );
    }
    const off = this.offReason(row.name);
    if (off) throw conflict('SOURCE_OFF', `The source "${row.name}" is ${off}`);
  }

  private source(name: string): IntentSource {
    const source = this.byName.get(name);
    if (!source) throw notFound('Source');
    return source;
  }

  private async row(name: string): Promise<SourceRow> {
    this.source(name);
    const row = await firstRow<SourceRow>(this.db, `SELECT * FROM sources WHERE name = $1`, [name]);
    if (!row) throw notFound('Source');
    return row;
  }
}

function statusOf(
  row: SourceRow,
  nextRunAt: Date | null,
  detail: string | null,
  off: string | null,
  parked: ParkedItem[],
): SourceStatus {
  return {
    name: row.name,
    enabled: row.enabled,
    off,
    running: row.state.running === true,
    lastRunStartedAt: row.last_run_started_at?.toISOString() ?? null,
    lastRunFinishedAt: row.last_run_finished_at?.toISOString() ?? null,
    nextRunAt: row.enabled ? (nextRunAt?.toISOString() ?? null) : null,
    recordsIngested: Number(row.records_ingested),
    recordsDropped: Number(row.records_dropped),
    errors: Number(row.errors_count),
    lastError: row.last_error,
    lastErrorAt: row.last_error_at?.toISOString() ?? null,
    detail,
    parked,
  };
}
