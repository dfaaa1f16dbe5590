import type { DataSource } from 'typeorm';
import type { Logger } from '../../logger';
import { notFound } from '../../errors';
import type { SourceCursor, SourceItemResult, SourceItemsPage, SourceRunStart } from '../../temporal/contract';
import type { IntentSource } from './intent-source';
import type { SourceSchedules } from './schedules';
import { OfflineNotice, offlineLineOf } from './fetch-problems';
import { execute, firstRow, rows } from '../../db/sql';

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

  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
    readonly schedules: SourceSchedules,
    sources: readonly IntentSource[],
  ) {
    this.byName = new Map(sources.map((source) => [source.name, source]));
    this.offlineNotice = new OfflineNotice(db, logger);
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
          await this.schedules.nextRunAt(row.name),
          await this.detailOf(row.name),
          this.offReason(row.name),
        ),
      ),
    );
  }

  async get(name: string): Promise<SourceStatus> {
    const row = await this.row(name);
    return statusOf(row, await this.schedules.nextRunAt(name), await this.detailOf(name), this.offReason(name));
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
   * Starts a run now through the source's schedule (so it shows there), with every item due;
   * a disabled source is refused by its workflow.
   */
  async runNow(name: string): Promise<SourceStatus> {
    await this.row(name);
    await this.source(name).dueNow?.();
    await this.schedules.trigger(name);
    return this.get(name);
  }

  /** Forgets the cursor of an unfinished run: the next run starts from the first item again (the diff keeps it idempotent), with what the source's own backfill adds. */
  async backfill(name: string): Promise<SourceStatus> {
    await this.row(name);
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

  async items(name: string, after: SourceCursor): Promise<SourceItemsPage> {
    return this.source(name).items(after);
  }

  /** One item synced, its records and error counted, and the cursor moved past it. */
  async syncItem(name: string, item: string, progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    const result = await this.source(name).sync(item, progress);
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

function statusOf(row: SourceRow, nextRunAt: Date | null, detail: string | null, off: string | null): SourceStatus {
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
  };
}
