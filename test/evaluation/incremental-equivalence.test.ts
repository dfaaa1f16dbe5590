import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { SIGNAL_TYPES } from '../../src/signal-types/registry';
import { scenarioOf, type Command, type Scenario, type SignalKind } from './scenario';
import { Twins, type BatchOutcome } from './twins';
import { EXAMPLES } from './examples';
import { World, emptyWorld, openWorld, type OpenWorld } from './world';

/**
 * Issue 26, deliver 2: incremental evaluation produces exactly the leads a full evaluation
 * would, with the same charges and the same deferrals. fast-check generates a world, a signal
 * config and a sequence of commands (events, late and early ones, some committed only after an
 * evaluation began; people and companies that change, people who opt out; clock moves;
 * pauses; config, cap and duplicate changes; credits; suppressions; watched companies and
 * people); two accounts own one signal each, evaluated one with `read: 'full'` and one with
 * `read: 'incremental'`, and after every evaluation their batches, leads, ledger charges,
 * balances and counters must be the same. Written scenarios (examples.ts) keep the cases
 * that were hard to generate.
 *
 * Runs are seeded; the seed is printed, and FC_SEED replays one (FC_RUNS sets the runs per type).
 *
 * Wake on arrival (docs/decisions/wake-on-arrival.md) runs the same property with the
 * incremental twin evaluating only when woken, as its workflow would: when the rows the
 * commands wrote (announced by the real writers, matched by the real index) name its keys, when
 * a service tells it of a change no row announces (credits granted, a suppression removed,
 * watched entries added or removed), when a command sends its workflow a message (configure,
 * resume), or when the clock has reached the `nextDueAt` its last evaluation answered (passing
 * time: a cap day that ends, an event dated ahead, a duplicate window that runs out). A clock
 * move wakes nothing by itself. At an evaluation it sleeps through, the full read must produce
 * nothing, and every outcome must still be the same (FC_WAKE_RUNS runs per type); a suppression
 * added tells nobody.
 */

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FC_RUNS ?? 40);
const WAKE_RUNS = Number(process.env.FC_WAKE_RUNS ?? 10);
const MAX_COMMANDS = 30;

let open: OpenWorld;
let run = 0;
/** The real instant the file started: every run's clock starts from it, so runs are alike. */
const started = Date.now();

beforeAll(async () => {
  open = await openWorld();
  console.log(`incremental-equivalence: seed ${SEED} (FC_SEED=${SEED} replays), ${RUNS} runs per type`);
});
afterAll(() => open?.close());

/** Throws with the step and both values when the full and the incremental read disagree. */
function same(what: string, step: number, full: unknown, incremental: unknown): void {
  if (isDeepStrictEqual(full, incremental)) return;
  throw new Error(
    `step ${step}: ${what} differ\n  full:        ${JSON.stringify(full)}\n  incremental: ${JSON.stringify(incremental)}`,
  );
}

/** What the runs of one type exercised, printed after it: a property that never defers proves little. */
const tally = () => ({
  runs: 0,
  evaluations: 0,
  leads: 0,
  credits: 0,
  dailyLeadLimit: 0,
  paused: 0,
  /** Wake-on-arrival mode: evaluations the incremental twin slept through. */
  slept: 0,
  /** Wake-on-arrival mode: evaluations only the clock reaching the last `nextDueAt` woke it for. */
  timed: 0,
  refused: new Map<string, number>(),
});
const seen = tally();

async function evaluateBoth(twins: Twins, step: number, wake?: Wakefulness): Promise<void> {
  const [full, incremental] = await twins.evaluate();
  same('the batches (state, produced, deferredBy, nextDueAt)', step, full, incremental);
  wake?.evaluated(incremental);
  seen.evaluations++;
  for (const batch of full) {
    seen.leads += batch.produced;
    if (batch.deferredBy) seen[batch.deferredBy]++;
    if (batch.state === 'paused') seen.paused++;
  }
  const [fullSide, incrementalSide] = await twins.outcomes();
  same('the leads (event, subject, created at)', step, fullSide.leads, incrementalSide.leads);
  same('the ledger charges (count, sum)', step, fullSide.charges, incrementalSide.charges);
  same('the balances', step, fullSide.balance, incrementalSide.balance);
  same("the signals' counters", step, fullSide.counters, incrementalSide.counters);
}

type Mode = 'every evaluation' | 'wake on arrival';

/** Commands after which the signals service messages the workflow. */
const MESSAGE_COMMANDS = new Set(['configure', 'resume']);

/**
 * Whether the incremental twin is awake at an evaluation: told by the arrivals announcer (the
 * rows the commands wrote, after it flushed), by a message, or due by time: the clock reached
 * the `nextDueAt` its last evaluation answered (the workflow's timer waits for it). No other
 * timer stands in: passing time (caps, dates, duplicate windows) must be answered for.
 */
class Wakefulness {
  /** Activation evaluates at once. */
  private due = true;
  /** The `nextDueAt` of the incremental twin's last evaluation (its last batch's), in ms. */
  private dueAt: number | null = null;

  constructor(private readonly signalId: string) {}

  after(command: Command): void {
    if (MESSAGE_COMMANDS.has(command.do)) this.due = true;
  }

  async take(): Promise<boolean> {
    await open.services.arrivals.flush();
    const told = open.woken.delete(this.signalId);
    const timed = this.dueAt !== null && open.clock.now().getTime() >= this.dueAt;
    const awake = told || this.due || timed;
    if (timed && !told && !this.due) seen.timed++;
    this.due = false;
    return awake;
  }

  /** What the evaluation it was woken for answered: the last batch's, as the workflow keeps it. */
  evaluated(batches: BatchOutcome[]): void {
    const last = batches.at(-1)?.nextDueAt;
    this.dueAt = last ? Date.parse(last) : null;
  }
}

/** One evaluation step: both twins, or with wake on arrival only the full read when the incremental twin sleeps. */
async function evaluateStep(twins: Twins, step: number, wake: Wakefulness | undefined): Promise<void> {
  if (!wake || (await wake.take())) return evaluateBoth(twins, step, wake);
  seen.slept++;
  const [full] = await twins.evaluate({ fullOnly: true });
  same('the leads a full read produced while the signal slept', step, 0, sum(full));
  const [fullSide, incrementalSide] = await twins.outcomes();
  same('the leads (event, subject, created at)', step, fullSide.leads, incrementalSide.leads);
  same('the ledger charges (count, sum)', step, fullSide.charges, incrementalSide.charges);
  same('the balances', step, fullSide.balance, incrementalSide.balance);
  same("the signals' counters", step, fullSide.counters, incrementalSide.counters);
}

const sum = (batches: { produced: number }[]) => batches.reduce((total, batch) => total + batch.produced, 0);

async function play(scenario: Scenario, mode: Mode = 'every evaluation'): Promise<void> {
  run++;
  seen.runs++;
  await emptyWorld(open.db);
  open.clock.startAt(started + scenario.startMinutes * 60_000);
  const world = new World(open, `r${run}`);
  await world.addCompanies(scenario.companies);
  await world.addPeople(scenario.people);
  await world.addEvents(scenario.events);
  const twins = await Twins.create(open, world, scenario);
  await open.services.arrivals.flush();
  open.woken.clear();
  const wake = mode === 'wake on arrival' ? new Wakefulness(twins.incrementalSignalId) : undefined;
  for (const [step, command] of scenario.commands.entries()) {
    switch (command.do) {
      case 'addCompany':
        await world.addCompanies([command.company]);
        break;
      case 'addPerson':
        await world.addPeople([command.person]);
        break;
      case 'changeCompany':
        await world.changeCompany(command.company, command);
        break;
      case 'changePerson':
        await world.changePerson(command.person, command);
        break;
      case 'ingest':
        await world.addEvents(command.events);
        break;
      case 'ingestAcrossEvaluation': {
        const held = await world.holdEvents(command.events);
        try {
          await evaluateStep(twins, step, wake);
          await held.commit();
        } finally {
          await held.end();
        }
        break;
      }
      case 'forgetPerson':
        await world.forgetPerson(command.person);
        break;
      case 'revise':
        await world.reviseEvent(command.event, command.variant);
        break;
      case 'advance':
        open.clock.advance(command.minutes * 60_000);
        break;
      case 'evaluate':
        await evaluateStep(twins, step, wake);
        break;
      default: {
        const [full, incremental] = await twins.apply(command);
        same(`the answers to ${command.do}`, step, full, incremental);
        if (full !== 'ok') seen.refused.set(full, (seen.refused.get(full) ?? 0) + 1);
      }
    }
    wake?.after(command);
  }
  await evaluateStep(twins, scenario.commands.length, wake);
}

/** fast-check's run, with a failure message that names the seed, the shrunk scenario and the difference. */
async function check(kind: SignalKind, mode: Mode = 'every evaluation'): Promise<void> {
  Object.assign(seen, tally());
  const details = await fc.check(
    fc.asyncProperty(scenarioOf(kind, { maxCommands: MAX_COMMANDS }), (scenario) => play(scenario, mode)),
    { seed: SEED, numRuns: mode === 'wake on arrival' ? WAKE_RUNS : RUNS },
  );
  const { refused, ...counts } = seen;
  console.log(`${kind} (${mode}): ${JSON.stringify(counts)}; commands refused alike: ${JSON.stringify([...refused])}`);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `${kind} (${mode}): the incremental read differs from the full read after ${details.numRuns} runs, ${details.numShrinks} shrinks ` +
      `(seed ${details.seed}, path "${details.counterexamplePath}")\n${cause}\n${described(details.counterexample?.[0])}`,
  );
}

/** The scenario as one line of setup and one line per command, numbered as the steps are. */
function described(scenario: Scenario | undefined): string {
  if (!scenario) return '';
  const { commands, ...setup } = scenario;
  const steps = commands.map((command, step) => `  ${step}: ${JSON.stringify(command)}`);
  steps.push(`  ${commands.length}: the final evaluation`);
  return [`scenario: ${JSON.stringify(setup)}`, 'commands:', ...steps].join('\n');
}

// Every registered type: one without a scenario (scenario.ts) fails here, naming itself.
describe.each(SIGNAL_TYPES.map((type) => type.signalTypeId))('%s', (kind) => {
  test('incremental evaluation produces the leads, charges and deferrals of a full one', () => check(kind));
});

describe.each(SIGNAL_TYPES.map((type) => type.signalTypeId))('%s, waking on arrival', (kind) => {
  test('an incremental evaluation woken by arrivals produces the leads, charges and deferrals of a full one', () =>
    check(kind, 'wake on arrival'));
});

describe.each(['every evaluation', 'wake on arrival'] as const)('written scenarios, %s', (mode) => {
  test.each(EXAMPLES)('$name', async ({ scenario }) => {
    await play(scenario, mode).catch((err: Error) => {
      throw new Error(`${err.message}\n${described(scenario)}`);
    });
  });
});
