import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { SIGNAL_TYPES } from '../../src/signal-types/registry';
import { scenarioOf, type Scenario, type SignalKind } from './scenario';
import { Twins } from './twins';
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
 */

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FC_RUNS ?? 40);
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
  refused: new Map<string, number>(),
});
const seen = tally();

async function evaluateBoth(twins: Twins, step: number): Promise<void> {
  const [full, incremental] = await twins.evaluate();
  same('the batches (state, produced, deferredBy)', step, full, incremental);
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

async function play(scenario: Scenario): Promise<void> {
  run++;
  seen.runs++;
  await emptyWorld(open.db);
  open.clock.startAt(started + scenario.startMinutes * 60_000);
  const world = new World(open, `r${run}`);
  await world.addCompanies(scenario.companies);
  await world.addPeople(scenario.people);
  await world.addEvents(scenario.events);
  const twins = await Twins.create(open, world, scenario);
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
          await evaluateBoth(twins, step);
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
        await evaluateBoth(twins, step);
        break;
      default: {
        const [full, incremental] = await twins.apply(command);
        same(`the answers to ${command.do}`, step, full, incremental);
        if (full !== 'ok') seen.refused.set(full, (seen.refused.get(full) ?? 0) + 1);
      }
    }
  }
  await evaluateBoth(twins, scenario.commands.length);
}

/** fast-check's run, with a failure message that names the seed, the shrunk scenario and the difference. */
async function check(kind: SignalKind): Promise<void> {
  Object.assign(seen, tally());
  const details = await fc.check(fc.asyncProperty(scenarioOf(kind, { maxCommands: MAX_COMMANDS }), play), {
    seed: SEED,
    numRuns: RUNS,
  });
  const { refused, ...counts } = seen;
  console.log(`${kind}: ${JSON.stringify(counts)}; commands refused alike: ${JSON.stringify([...refused])}`);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `${kind}: the incremental read differs from the full read after ${details.numRuns} runs, ${details.numShrinks} shrinks ` +
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

describe('written scenarios', () => {
  test.each(EXAMPLES)('$name', async ({ scenario }) => {
    await play(scenario).catch((err: Error) => {
      throw new Error(`${err.message}\n${described(scenario)}`);
    });
  });
});
