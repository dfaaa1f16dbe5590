import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { signalWorkflowId } from '../../src/temporal/contract';
import {
  client,
  company,
  createSignal,
  event,
  ingest,
  settled,
  uid,
  waitFor,
  waitForLeadTotal,
  workflowState,
  type Client,
} from '../leads/fixtures';

/**
 * Passing time on the real stack (docs/decisions/wake-on-arrival.md): signals evaluate once a
 * day and wake on arrival, so a round dated a few seconds ahead is read by the evaluation its
 * ingest wakes, which finds no lead yet and answers the round's date as `nextDueAt`; the
 * workflow wakes at that date, with no message and no new row, and the lead follows.
 */

const AHEAD_MS = 10_000;

let stack: Stack;
let api: Client;

beforeAll(async () => {
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1d',
      SIGNAL_WAKE_ON_ARRIVAL: 'true',
      SIGNAL_WAKE_WINDOW: '500ms',
      SIGNAL_WAKE_GAP: '1s',
      RATE_LIMIT_PER_SECOND: '100000',
    },
  });
  api = client(stack, await createAccount(stack, { credits: 1_000 }));
});
afterAll(() => stack?.stop());

/** The messages in one run's history. */
async function messages(signalId: string, runId: string): Promise<string[]> {
  const history = await stack.temporal.workflow.getHandle(signalWorkflowId(signalId), runId).fetchHistory();
  return (history.events ?? []).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
}

test('a round dated a few seconds ahead becomes a lead shortly after its date, woken by no message and no row', async () => {
  const rounds = await createSignal(api, 'fundraising', {
    name: 'rounds ahead',
    status: 'active',
    dailyLeadLimit: 50,
    config: {},
  });
  await settled(stack, rounds.id, 1);

  const co = company(uid('ahead'));
  const dated = Date.now() + AHEAD_MS;
  const round = event(uid('round'), 'fundraising', new Date(dated).toISOString(), co.id, {
    data: { funding_type: 'Series A', funding_amount_usd: 5_000_000 },
  });
  await ingest(stack, [co, round]);

  // The ingest wakes it; the round is not yet due, and the evaluation says when it will be.
  const woken = await waitFor(
    'the evaluation the ingest woke',
    () => workflowState(stack, rounds.id),
    (state) => (state?.evaluations ?? 0) >= 2 && !state?.evaluating && state?.nextEvaluationAt !== null,
  );
  expect(Date.now()).toBeLessThan(dated);
  expect(await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [rounds.id])).toEqual([]);
  // The daily slot is hours away; the wake is set for the round's date.
  expect(Date.parse(woken!.nextEvaluationAt!)).toBe(dated);
  const { runId } = await stack.temporal.workflow.getHandle(signalWorkflowId(rounds.id)).describe();
  const told = await messages(rounds.id, runId);

  await waitForLeadTotal(api, rounds.id, 1, AHEAD_MS + 20_000);
  const [lead] = await stack.db.query<{ event_id: string; created_at: Date }[]>(
    `SELECT event_id, created_at FROM leads WHERE signal_id = $1`,
    [rounds.id],
  );
  expect(lead.event_id).toBe(round.id);
  expect(lead.created_at.getTime()).toBeGreaterThanOrEqual(dated);
  // The run that waited produced the lead (then continued as new): no message came to it meanwhile.
  expect(await messages(rounds.id, runId)).toEqual(told);
});
