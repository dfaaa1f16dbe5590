// The SDK's own class: `@temporalio/workflow` 1.24 does not re-export it, and common is what its sandbox throws.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  AccountIdKey,
  LeadIdKey,
  RoutesKey,
  SignalIdKey,
  SignalTypeKey,
  leadWorkflowId,
  signalWorkflowMessages,
  signalWorkflowStateQuery,
  type DeliveryRetrySettings,
  type ProducedLead,
  type SignalWorkflowInput,
} from '../src/temporal/contract';
import { leadWorkflow } from './lead';
import { SignalRun } from './signal-run';

const { produceLeads } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats every second: a batch of a worker that died is retried by another
  // worker within seconds, not after the start-to-close timeout.
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// Local: made in the workflow task that sees the starts, with no round trip through the server.
const { recordHandOff } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * `signal:{signalId}`, from the signal's first activation until its deletion. Waits for its
 * next slot or a message; evaluates by producing leads a batch per PostgreSQL transaction (each
 * lead billed with its row), and hands each batch off: a `lead:{leadId}` workflow started per
 * lead, in one workflow task, abandoned so that a lead retried for a day never keeps this run
 * open. Continues as new once it started leads or its history grows long, carrying what it
 * must; keeps the SignalStatus search attribute true.
 */
export async function signalWorkflow(input: SignalWorkflowInput): Promise<void> {
  const run = new SignalRun(input);

  setHandler(signalWorkflowMessages.pause, () => run.pause());
  setHandler(signalWorkflowMessages.resume, () => run.resume());
  setHandler(signalWorkflowMessages.configChanged, () => run.wake());
  setHandler(signalWorkflowMessages.evaluateNow, () => run.wake());
  setHandler(signalWorkflowMessages.eventsArrived, () => run.wake());
  setHandler(signalWorkflowMessages.delete, () => run.delete());
  setHandler(signalWorkflowStateQuery, () => run.state());

  // Evaluate when an evaluation is due; move on to a new run once this one started leads (their
  // completions then find no open parent to wake) or grew long; wait for the next slot or message.
  while (!run.deleted) {
    if (run.due) await evaluate(run, input);
    if (run.deleted) return;
    if (run.leadsStartedThisRun > 0 || run.mustContinueAsNew()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof signalWorkflow>({ ...input, carried: run.carried() });
    }
    await run.waitForWork();
  }
}

/**
 * Batches until the candidates, the day's cap or the credits run out, or the signal is paused
 * or deleted; a run that must move on half-way leaves the rest to the next run.
 */
async function evaluate(run: SignalRun, input: SignalWorkflowInput): Promise<void> {
  let slotAt = run.evaluationStarted();
  let batchAt: number;
  for (;;) {
    const batch = await produceLeads(input.signalId, slotAt);
    // Read as an activity (not a local one) resolves: the task its completion began, on replay too.
    // eslint-disable-next-line no-restricted-syntax -- documented exception (docs/decisions/delivery.md)
    batchAt = Date.now();
    slotAt = null;
    if (batch.state === 'deleted') {
      run.delete();
      return;
    }
    // A pause that came while the batch's transaction ran wins over the `active` it read.
    const paused = batch.state !== 'active' || run.phase === 'pausing';
    run.showStatus(paused ? 'paused' : batch.deferredBy === 'credits' ? 'credits_exhausted' : 'active');
    run.batchAnswered(batch.nextDueAt);
    await handOff(run, input, batch.leads, batch.retry);
    if (!batch.more || run.phase !== 'evaluating') break;
    if (run.mustContinueAsNew()) {
      run.evaluationInterrupted();
      return;
    }
  }
  run.evaluationFinished(batchAt);
}

/**
 * Hands a batch off: one workflow task starts every lead's workflow (only the starts are
 * awaited: ABANDON), then the batch is recorded as handed off (`RecordHandOff` in the contract).
 */
async function handOff(
  run: SignalRun,
  input: SignalWorkflowInput,
  leads: ProducedLead[],
  retry: DeliveryRetrySettings,
): Promise<void> {
  if (leads.length === 0) return;
  await Promise.all(leads.map((lead) => startLead(input, lead, retry)));
  run.leadsStarted(leads.length);
  await recordHandOff(leads.map((lead) => lead.leadId));
}

async function startLead(input: SignalWorkflowInput, lead: ProducedLead, retry: DeliveryRetrySettings): Promise<void> {
  try {
    await startChild(leadWorkflow, {
      workflowId: leadWorkflowId(lead.leadId),
      taskQueue: input.leadTaskQueue,
      args: [
        {
          leadId: lead.leadId,
          signalId: input.signalId,
          emailPending: lead.emailPending,
          deliveries: lead.deliveries,
          retry,
        },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      // A lead's workflow runs once: a retried start after a crash must not run a finished lead again.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: SignalIdKey, value: input.signalId },
        { key: AccountIdKey, value: input.accountId },
        { key: SignalTypeKey, value: input.signalTypeId },
        { key: LeadIdKey, value: lead.leadId },
        { key: RoutesKey, value: lead.routes },
      ],
      staticSummary: lead.summary,
      // The Web UI shows the memo: the lead's trace id leads to its trace (tracing on).
      ...(lead.traceId ? { memo: { traceId: lead.traceId } } : {}),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
