import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import type { Logger } from '../../logger';
import { arrivedRowKeys, type ArrivedRow, type WakeKey } from '../../signal-types/kit/wake-keys';

/** Tells one signal's workflow that rows it may want arrived; throws when it could not. */
export type WakeSignal = (signalId: string) => Promise<void>;

/** What writers of events, people and companies are given: announce after the rows committed. */
export interface ArrivalAnnouncements {
  announce(rows: readonly ArrivedRow[]): void;
}

export interface ArrivalOptions {
  /** Keys announced within this window go out together: a burst wakes each signal once. */
  windowMs: number;
  /** Messages in flight at once. */
  sendsAtOnce: number;
}

/**
 * Wake on arrival (docs/decisions/wake-on-arrival.md): collects the keys of committed rows for a
 * short window, then finds the active signals whose wake keys overlap them (or that have none)
 * and tells each workflow, a bounded number at a time. Best effort: a send that fails is logged
 * and the signal's timed evaluation still comes.
 */
export class ArrivalAnnouncer implements ArrivalAnnouncements {
  private pending = new Set<WakeKey>();
  private timer: NodeJS.Timeout | undefined;
  /** Flushes run one after another, so `close` waits for the last. */
  private flushing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
    private readonly wake: WakeSignal | undefined,
    private readonly options: ArrivalOptions,
  ) {}

  announce(arrived: readonly ArrivedRow[]): void {
    // A process that can tell no workflow has nothing to collect.
    if (!this.wake) return;
    for (const row of arrived) for (const key of arrivedRowKeys(row)) this.pending.add(key);
    if (this.pending.size === 0 || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.options.windowMs);
    this.timer.unref();
  }

  /** Tells the signals concerned by what is pending now; answers their ids. */
  flush(): Promise<string[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const keys = [...this.pending];
    this.pending = new Set();
    const run = this.flushing.then(() => this.wakeConcerned(keys));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** Sends what is pending and waits for every send under way (shutdown). */
  async close(): Promise<void> {
    await this.flush();
  }

  /** The active signals that rows of these keys may concern: overlapping wake keys, or none stored. */
  async concerned(keys: readonly WakeKey[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const found = await rows<{ id: string }>(
      this.db,
      `SELECT id FROM signals WHERE wake_keys && $1::text[] AND status = 'active' AND deleted_at IS NULL
       UNION
       SELECT id FROM signals WHERE wake_keys IS NULL AND status = 'active' AND deleted_at IS NULL`,
      [keys],
    );
    return found.map((row) => row.id);
  }

  private async wakeConcerned(keys: WakeKey[]): Promise<string[]> {
    const wake = this.wake;
    if (!wake || keys.length === 0) return [];
    let signalIds: string[];
    try {
      signalIds = await this.concerned(keys);
    } catch (err) {
      this.logger.warn(
        { err, keys },
        'could not find the signals that arrived rows concern; their timed evaluation reads them',
      );
      return [];
    }
    let next = 0;
    const sender = async () => {
      while (next < signalIds.length) {
        const signalId = signalIds[next++];
        await wake(signalId).catch((err: unknown) =>
          this.logger.warn(
            { err, signalId },
            'could not wake a signal for arrived rows; its timed evaluation reads them',
          ),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.sendsAtOnce, signalIds.length) }, sender));
    return signalIds;
  }
}
