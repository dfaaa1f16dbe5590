import { PERMISSIONS } from '../../src/db/entities/api-key';
import { rows } from '../../src/db/sql';
import type { Caller } from '../../src/services/api-keys';
import { LeadProduction, type EvaluationRead } from '../../src/services/leads/production';
import type { OpenWorld, World } from './world';
import type { Command, Scenario } from './scenario';

/**
 * The two sides of the comparison: two accounts with the same credits, each owning one signal
 * of the same config, one evaluated by reading the whole window each time and the other
 * incrementally. Every account- or signal-level command is applied to both, and every
 * evaluation runs both at the same instant of the one clock.
 */

/** One produceBatch answer, as far as the two reads must agree on it. */
export interface BatchOutcome {
  state: string;
  produced: number;
  deferredBy?: 'dailyLeadLimit' | 'credits';
  /** When passing time alone may next give a lead: both reads must answer the same. */
  nextDueAt?: string;
}

interface Twin {
  read: EvaluationRead;
  caller: Caller;
  signalId: string;
  production: LeadProduction;
  /** Suppression entries this twin added, in order (both twins add the same ones). */
  suppressions: string[];
}

/** What a twin's signal has after an evaluation: compared between the two as it is. */
export interface TwinOutcome {
  leads: string[];
  charges: { count: number; sum: number };
  balance: number;
  counters: Record<string, unknown>;
}

const productionFor = (open: OpenWorld, read: EvaluationRead): LeadProduction =>
  new LeadProduction(open.db, open.services.credits, open.clock, { read });

export class Twins {
  private constructor(
    private readonly open: OpenWorld,
    private readonly world: World,
    private readonly scenario: Scenario,
    readonly twins: [Twin, Twin],
  ) {}

  static async create(open: OpenWorld, world: World, scenario: Scenario): Promise<Twins> {
    const twin = async (read: EvaluationRead): Promise<Twin> => {
      const { services } = open;
      const account = await services.accounts.create(`${read} read`, scenario.credits);
      const key = await services.apiKeys.create(account.id);
      const caller: Caller = { keyId: key.id, accountId: account.id, permissions: [...PERMISSIONS] };
      const companies = scenario.watched.map((i) => world.company(i).domain);
      const signal = await services.signals.create(caller, scenario.kind, {
        name: `${scenario.kind} (${read})`,
        config: { ...scenario.config, ...(companies.length ? { companies } : {}) },
        dailyLeadLimit: scenario.dailyLeadLimit,
        duplicateHandling: scenario.duplicateHandling,
        status: 'active',
      });
      return { read, caller, signalId: signal.id, production: productionFor(open, read), suppressions: [] };
    };
    return new Twins(open, world, scenario, [await twin('full'), await twin('incremental')]);
  }

  /**
   * Applies an account- or signal-level command to both twins; what each answered (nothing, or
   * the error's message) must be the same, since the two accounts are alike.
   */
  async apply(command: Command): Promise<[string, string]> {
    const answers = [] as unknown as [string, string];
    for (const [i, twin] of this.twins.entries()) {
      answers[i] = await this.applyTo(twin, command).then(
        () => 'ok',
        (err: Error) => `${err.constructor.name}: ${err.message}`,
      );
    }
    return answers;
  }

  private async applyTo(twin: Twin, command: Command): Promise<void> {
    const { services } = this.open;
    const { caller, signalId } = twin;
    switch (command.do) {
      case 'pause':
      case 'resume':
        await services.signals.setStatus(caller, signalId, command.do === 'pause' ? 'paused' : 'active');
        return;
      case 'configure':
        await services.signals.update(caller, signalId, {
          ...(command.config ? { config: command.config } : {}),
          ...(command.dailyLeadLimit !== undefined ? { dailyLeadLimit: command.dailyLeadLimit } : {}),
          ...(command.duplicateHandling !== undefined ? { duplicateHandling: command.duplicateHandling } : {}),
        });
        return;
      case 'topUp':
        await services.accounts.addCredits(caller.accountId, command.credits);
        return;
      case 'suppress': {
        const value =
          command.what === 'email'
            ? this.world.person(command.target)?.email
            : command.what === 'domain'
              ? this.world.company(command.target).domain
              : this.world.company(command.target).linkedinUrl;
        if (value === undefined) return;
        const { added } = await services.suppressions.add(caller.accountId, [
          { kind: command.what, value, signalId: command.scope === 'signal' ? signalId : null },
        ]);
        twin.suppressions.push(...added.map((entry) => entry.id));
        return;
      }
      case 'unsuppress': {
        if (twin.suppressions.length === 0) return;
        const [id] = twin.suppressions.splice(command.entry % twin.suppressions.length, 1);
        await services.suppressions.remove(caller.accountId, id);
        return;
      }
      // As the watchlist routes do: `add` (its own transaction, then the signal told), removal by identifier.
      case 'watch':
      case 'unwatch': {
        const entry =
          command.what === 'company'
            ? this.world.company(command.target).domain
            : this.world.person(command.target)?.linkedinUrl;
        if (!entry) return;
        if (command.do === 'watch') await services.watchlists.add(signalId, [entry]);
        else await services.watchlists.remove(signalId, { companies: [entry] });
        return;
      }
      default:
        throw new Error(`not a twin command: ${command.do}`);
    }
  }

  /** The incremental twin's signal: the one the wake-on-arrival mode lets sleep. */
  get incrementalSignalId(): string {
    return this.twins[1].signalId;
  }

  /**
   * One evaluation of each, as the signal workflow runs it: batches until `more` is false, the
   * leads recorded as handed off. Answers each twin's batches; with `fullOnly`, the incremental
   * twin sleeps through it (no wake came) and answers none.
   */
  async evaluate(options: { fullOnly?: boolean } = {}): Promise<[BatchOutcome[], BatchOutcome[]]> {
    const outcomes = [[], []] as [BatchOutcome[], BatchOutcome[]];
    for (const [i, twin] of this.twins.entries()) {
      if (options.fullOnly && twin.read !== 'full') continue;
      const batches: BatchOutcome[] = [];
      for (;;) {
        const batch = await twin.production.produceBatch(twin.signalId, this.scenario.batchSize);
        batches.push({
          state: batch.state,
          produced: batch.produced,
          ...(batch.deferredBy ? { deferredBy: batch.deferredBy } : {}),
          ...(batch.nextDueAt ? { nextDueAt: batch.nextDueAt } : {}),
        });
        await twin.production.recordHandOff(batch.leads.map((lead) => lead.leadId));
        if (!batch.more) break;
        if (batches.length > 200) throw new Error(`the ${twin.read} read never stops answering more`);
      }
      outcomes[i] = batches;
    }
    return outcomes;
  }

  /** Each twin's leads (event, subject, created at; sorted), ledger charges, balance and signal counters. */
  async outcomes(): Promise<[TwinOutcome, TwinOutcome]> {
    const read = async (twin: Twin): Promise<TwinOutcome> => {
      const { db, services } = this.open;
      const leads = await rows<{ lead: string }>(
        db,
        `SELECT event_id || ' ' || subject_key || ' ' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS lead
         FROM leads WHERE signal_id = $1 ORDER BY 1`,
        [twin.signalId],
      );
      const [charges] = await rows<{ count: number; sum: string | null }>(
        db,
        `SELECT count(*)::int AS count, sum(credits)::text AS sum FROM credit_ledger WHERE signal_id = $1`,
        [twin.signalId],
      );
      const [counters] = await rows<Record<string, unknown>>(
        db,
        `SELECT status, leads_today, leads_day::text AS leads_day, leads_total, last_lead_at, credits_exhausted_at
         FROM signals WHERE id = $1`,
        [twin.signalId],
      );
      return {
        leads: leads.map((row) => row.lead),
        charges: { count: charges.count, sum: Number(charges.sum ?? 0) },
        balance: await services.credits.balance(twin.caller.accountId),
        counters,
      };
    };
    return [await read(this.twins[0]), await read(this.twins[1])];
  }
}
