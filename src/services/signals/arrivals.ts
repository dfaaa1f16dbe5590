import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import type { Logger } from '../../logger';
import { signalsWatchingArrivals } from '../../signal-types/watched-companies';
import {
  arrivedRowKeys,
  facetedKind,
  watchedKey,
  type ArrivedRow,
  type RowFacts,
  type WakeKey,
} from '../../signal-types/kit/wake-keys';

/** Tells one signal's workflow that rows it may want arrived; throws when it could not. */
export type WakeSignal = (signalId: string) => Promise<void>;

/** Who is told of a change no written row announces: some signals, or an account's active ones (of one type). */
export type Addressees = { signalIds: readonly string[] } | { accountId: string; signalTypeId?: string };

/** What writers are given: announce after the rows committed. */
export interface ArrivalAnnouncements {
  announce(rows: readonly ArrivedRow[]): void;
  /** A change that concerns these signals and that no row announces (credits, entries, suppressions). */
  tell(addressees: Addressees): void;
}

export interface ArrivalOptions {
  /** Keys announced within this window go out together: a burst wakes each signal once. */
  windowMs: number;
  /** Messages in flight at once. */
  sendsAtOnce: number;
  /** A signal told is not told again sooner than this: a busy stream wakes each signal at most once per gap. */
  gapMs: number;
  /**
   * Of the signals that inserted events' keys found, the ones the events may concern (their plans
   * pass one): only those are told. Without it, all are.
   */
  screen?: ScreenArrivals;
}

/** An event just inserted, as the screen reads it. */
export interface InsertedEvent {
  id: string;
  companyId: string;
  occurredAt: string;
}
export type ScreenArrivals = (signalIds: string[], events: InsertedEvent[]) => Promise<Set<string>>;

/** Faceted rows held for one flush; past it, a row is announced by its kind alone (coarse, never lost). */
const MAX_PENDING_ROWS = 20_000;

/**
 * Wake on arrival (docs/decisions/wake-on-arrival.md): collects what committed rows announce
 * for a short window, then reads the company and person of each inserted row, finds the active
 * signals whose wake keys overlap the rows' keys (or that have none, or whose watched entries
 * name the row's company or person) and tells each workflow, a bounded number at a time. A
 * signal told within the gap waits for its end. Best effort: a send that fails is logged and
 * the signal's timed evaluation still comes.
 */
export class ArrivalAnnouncer implements ArrivalAnnouncements {
  private coarse = new Set<WakeKey>();
  private faceted = new Map<string, ArrivedRow>();
  private signalIds = new Set<string>();
  private accounts = new Set<string>();
  /** When each recently told signal was told. */
  private readonly told = new Map<string, number>();
  /** Signals concerned while within their gap, and when it ends. */
  private readonly waiting = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  /** Flushes run one after another, so `close` waits for the last. */
  private flushing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
    private readonly wake: WakeSignal | undefined,
    private readonly options: ArrivalOptions,
    private readonly now: () => number = Date.now,
  ) {}

  announce(arrived: readonly ArrivedRow[]): void {
    // A process that can tell no workflow has nothing to collect.
    if (!this.wake) return;
    for (const row of arrived) {
      const kind = facetedKind(row);
      if (kind !== undefined && this.faceted.size < MAX_PENDING_ROWS) {
        // One entry per event (the screen reads each), per person, or per kind and company.
        const id = row.table === 'events' ? row.id : row.table === 'people' ? row.personId : undefined;
        this.faceted.set(JSON.stringify([kind, id ?? '', 'companyId' in row ? (row.companyId ?? '') : '']), row);
      } else for (const key of arrivedRowKeys(row)) this.coarse.add(key);
    }
    this.schedule(this.options.windowMs);
  }

  tell(addressees: Addressees): void {
    if (!this.wake) return;
    if ('signalIds' in addressees) for (const id of addressees.signalIds) this.signalIds.add(id);
    else this.accounts.add(JSON.stringify([addressees.accountId, addressees.signalTypeId ?? null]));
    this.schedule(this.options.windowMs);
  }

  /** Tells the signals concerned by what is pending now (and whose gap ended); answers their ids. */
  flush(): Promise<string[]> {
    return this.flushWith(false);
  }

  /** Sends what is pending, the signals waiting out their gap too, and waits for every send under way (shutdown). */
  async close(): Promise<void> {
    await this.flushWith(true);
  }

  private schedule(delayMs: number): void {
    const at = this.now() + delayMs;
    if (this.empty() || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private empty(): boolean {
    return !this.coarse.size && !this.faceted.size && !this.signalIds.size && !this.accounts.size && !this.waiting.size;
  }

  private flushWith(all: boolean): Promise<string[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    const pending = {
      coarse: [...this.coarse],
      faceted: [...this.faceted.values()],
      signalIds: [...this.signalIds],
      accounts: [...this.accounts].map((json) => JSON.parse(json) as [string, string | null]),
    };
    this.coarse = new Set();
    this.faceted = new Map();
    this.signalIds = new Set();
    this.accounts = new Set();
    const run = this.flushing.then(() => this.wakeConcerned(pending, all));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /**
   * The active signals pending rows and addressees concern. Inserted events (with their ids) go
   * through the screen: a signal only their keys found is told when one of them passes its plan.
   */
  async concerned(pending: Pending): Promise<string[]> {
    if (!pending.coarse.length && !pending.faceted.length && !pending.signalIds.length && !pending.accounts.length)
      return [];
    const facts = await this.factsOf(pending.faceted);
    const told = { keys: new Set(pending.coarse), watched: new Set<WakeKey>() };
    const screened = { keys: new Set<WakeKey>(), watched: new Set<WakeKey>() };
    const inserted: InsertedEvent[] = [];
    for (const row of pending.faceted) {
      const rowFacts = facts.of(row);
      const screenable = this.options.screen && rowFacts && row.table === 'events' && row.id && row.occurredAt;
      const into = screenable ? screened : told;
      for (const key of arrivedRowKeys(row, rowFacts)) into.keys.add(key);
      if (rowFacts) into.watched.add(watchedKey(facetedKind(row)!));
      if (screenable) inserted.push({ id: row.id!, companyId: row.companyId!, occurredAt: row.occurredAt! });
    }
    const arrived = told.keys.size + screened.keys.size > 0;
    const [certain, found] = await Promise.all([
      this.select(told, arrived, facts, pending.signalIds, pending.accounts),
      screened.keys.size ? this.select(screened, false, facts, [], []) : Promise.resolve([]),
    ]);
    const concerned = new Set(certain);
    // A signal held for its gap is told at its end anyway: not screened again.
    const toScreen = found.filter((id) => !concerned.has(id) && !this.waiting.has(id));
    for (const id of found) if (this.waiting.has(id)) concerned.add(id);
    if (toScreen.length) {
      const passing = await this.options.screen!(toScreen, inserted).catch((err: unknown) => {
        this.logger.warn({ err }, 'could not screen the signals arrived events may concern; all are told');
        return new Set(toScreen);
      });
      for (const id of passing) concerned.add(id);
    }
    return [...concerned];
  }

  /** The active signals whose keys overlap, whose entries watch the rows, without keys (`unkeyed`), or addressed. */
  private async select(
    keys: { keys: Set<WakeKey>; watched: Set<WakeKey> },
    unkeyed: boolean,
    facts: Facts,
    signalIds: string[],
    accounts: [string, string | null][],
  ): Promise<string[]> {
    const active = `status = 'active' AND deleted_at IS NULL`;
    const found = await rows<{ id: string }>(
      this.db,
      `SELECT id FROM signals WHERE wake_keys && $1::text[] AND ${active}
       UNION SELECT id FROM signals WHERE wake_keys IS NULL AND ${active} AND $8::boolean
       UNION SELECT id FROM signals WHERE wake_keys && $2::text[] AND ${active}
         AND id IN (${signalsWatchingArrivals('$3', '$4')})
       UNION SELECT id FROM signals WHERE id::text = ANY($5::text[]) AND ${active}
       UNION SELECT id FROM signals WHERE ${active} AND (account_id::text = ANY($6::text[])
         OR account_id::text || ' ' || signal_type_id = ANY($7::text[]))`,
      [
        [...keys.keys],
        [...keys.watched],
        [...facts.companyIds],
        [...facts.personIds],
        signalIds,
        accounts.filter(([, type]) => type === null).map(([account]) => account),
        accounts.filter(([, type]) => type !== null).map(([account, type]) => `${account} ${type}`),
        unkeyed,
      ],
    );
    return found.map((row) => row.id);
  }

  /** The company and person values of faceted rows, read now (a row whose company is gone has none). */
  private async factsOf(faceted: readonly ArrivedRow[]): Promise<Facts> {
    const companyIds = new Set<string>();
    const personIds = new Set<string>();
    for (const row of faceted) {
      if (row.table === 'companies') continue;
      if (row.companyId) companyIds.add(row.companyId);
      if (row.personId) personIds.add(row.personId);
    }
    const companies = new Map<string, RowFacts>();
    const people = new Map<string, RowFacts & { companyId: string }>();
    if (companyIds.size) {
      const found = await rows<{ id: string; industry: string | null; size: string | null; hq: string | null }>(
        this.db,
        `SELECT id, industry, size_band AS size, hq_country_code AS hq FROM companies WHERE id = ANY($1::text[])`,
        [[...companyIds]],
      );
      for (const { id, ...values } of found) companies.set(id, values);
    }
    if (personIds.size) {
      const found = await rows<{ id: string; persona: string | null; country: string | null; company: string }>(
        this.db,
        `SELECT id, persona, country_code AS country, company_id AS company FROM people WHERE id = ANY($1::text[])`,
        [[...personIds]],
      );
      for (const row of found)
        people.set(row.id, { persona: row.persona, personCountry: row.country, companyId: row.company });
    }
    return {
      companyIds: new Set([...companies.keys(), ...[...people.values()].map((person) => person.companyId)]),
      personIds: new Set(people.keys()),
      of(row) {
        if (row.table === 'companies') return undefined;
        const person = row.personId ? people.get(row.personId) : undefined;
        // A person row is faceted by the person's own values only: their company may not be their event's.
        if (row.table === 'people') return person && { persona: person.persona, personCountry: person.personCountry };
        const company = row.companyId ? companies.get(row.companyId) : undefined;
        if (!company || (row.personId && !person)) return undefined;
        return { ...company, ...(person ? { persona: person.persona, personCountry: person.personCountry } : {}) };
      },
    };
  }

  private async wakeConcerned(pending: Pending, all: boolean): Promise<string[]> {
    const wake = this.wake;
    if (!wake) return [];
    let concerned: string[];
    try {
      concerned = await this.concerned(pending);
    } catch (err) {
      this.logger.warn(
        { err, keys: pending.coarse },
        'could not find the signals that arrived rows concern; their timed evaluation reads them',
      );
      concerned = [];
    }
    const signalIds = this.outOfGap(concerned, all);
    let next = 0;
    const sender = async () => {
      while (next < signalIds.length) {
        const signalId = signalIds[next++];
        await wake(signalId).catch((err: unknown) => {
          // Tried again at the end of a gap, until it goes through or the process stops.
          this.logger.warn({ err, signalId }, 'could not wake a signal for arrived rows; trying again after the gap');
          this.told.delete(signalId);
          if (!this.waiting.has(signalId)) this.waiting.set(signalId, this.now() + this.options.gapMs);
          this.schedule(this.options.gapMs);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.sendsAtOnce, signalIds.length) }, sender));
    return signalIds;
  }

  /**
   * Of the concerned signals and those whose gap has ended, the ones to tell now (marked told);
   * the rest wait for the end of their gap, and a flush is due then.
   */
  private outOfGap(concerned: string[], all: boolean): string[] {
    const now = this.now();
    const { gapMs } = this.options;
    for (const [id, at] of this.told) if (now - at >= gapMs) this.told.delete(id);
    for (const id of concerned) {
      const at = this.told.get(id);
      if (at === undefined || all) this.waiting.set(id, now);
      else if (!this.waiting.has(id)) this.waiting.set(id, at + gapMs);
    }
    const due: string[] = [];
    let nextDue = Infinity;
    for (const [id, at] of this.waiting) {
      if (at <= now || all) {
        due.push(id);
        this.waiting.delete(id);
        this.told.set(id, now);
      } else nextDue = Math.min(nextDue, at);
    }
    if (nextDue < Infinity) this.schedule(nextDue - now);
    return due;
  }
}

interface Pending {
  coarse: WakeKey[];
  faceted: ArrivedRow[];
  signalIds: string[];
  /** [account id, signal type id or null]. */
  accounts: [string, string | null][];
}

interface Facts {
  /** The companies of the faceted rows that are stored, the people's companies too (watched entries name them). */
  companyIds: Set<string>;
  personIds: Set<string>;
  of(row: ArrivedRow): RowFacts | undefined;
}
