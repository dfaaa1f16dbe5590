import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  AccountIdKey,
  LeadIdKey,
  RoutesKey,
  SignalIdKey,
  SignalStatusKey,
  SignalTypeKey,
  configChangedSignal,
  deleteSignal,
  evaluateNowSignal,
  leadWorkflowId,
  pauseSignal,
  resumeSignal,
  signalStateQuery,
  LEADS_PER_SIGNAL_RUN,
  type DeliveryRetrySettings,
  type ProducedLead,
  type SignalWorkflowInput,
  type SignalWorkflowStatus,
} from '../src/temporal/contract';
import { leadWorkflow } from './lead';
import { SignalRun } from './signal-run';

const { produceLeads, recordLeadsHandedOff } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats every second: a batch of a worker that died is retried by another
  // worker within seconds, not after the start-to-close timeout.
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const HISTORY_EVENTS_PER_RUN = 10_000;

/**
 * `signal:{signalId}`, from the signal's first activation until its deletion. Waits for its
 * interval or a message; evaluates by producing leads a batch per PostgreSQL transaction (each
 * lead billed with its row), and starts a `lead:{leadId}` workflow for every produced lead,
 * a batch per workflow task, abandoned so that a lead retried for a day never keeps this run
 * open. Continues as new before the history grows long (the sliding window), carrying what it
 * must; keeps the SignalStatus search attribute true.
 */
export async function signalWorkflow(input: SignalWorkflowInput): Promise<void> {
  const run = new SignalRun(input);
  const leadsPerRun = input.leadsPerRun ?? LEADS_PER_SIGNAL_RUN;
  let leadsThisRun = 0;

  setHandler(pauseSignal, () => {
    run.pause();
    showStatus('paused');
  });
  setHandler(resumeSignal, () => {
    run.resume();
    showStatus('active');
  });
  setHandler(configChangedSignal, () => run.wake());
  setHandler(evaluateNowSignal, () => run.wake());
  setHandler(deleteSignal, () => run.delete());
  setHandler(signalStateQuery, () => run.state());

  const mustContinueAsNew = () =>
    workflowInfo().continueAsNewSuggested ||
    leadsThisRun >= leadsPerRun ||
    workflowInfo().historyLength > HISTORY_EVENTS_PER_RUN;

  for (;;) {
    if (run.deleted) return;
    if (run.woken) await evaluate();
    if (run.deleted) return;
    // A run that started leads moves on: their completions then find no open parent to wake.
    if (leadsThisRun > 0 || mustContinueAsNew()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof signalWorkflow>({ ...input, carried: run.carried() });
    }
    await run.waitForWork();
  }

  /** Batches until the candidates, the day's cap or the credits run out (or the signal stops). */
  async function evaluate(): Promise<void> {
    run.evaluationStarted();
    let evaluationDueAt = run.takeScheduledDueAt();
    for (;;) {
      const handOff = {
        started: run.takeUnacknowledged(),
        ...(evaluationDueAt === undefined ? {} : { evaluationDueAt }),
      };
      evaluationDueAt = undefined;
      const batch = await produceLeads(input.signalId, handOff);
      if (batch.state === 'deleted') return run.delete();
      showStatus(
        batch.state === 'active' ? (batch.deferredBy === 'credits' ? 'credits_exhausted' : 'active') : 'paused',
      );
      await startLeads(batch.leads, batch.retry);
      if (!batch.more || run.deleted || run.paused) break;
      if (mustContinueAsNew()) return run.evaluationInterrupted();
    }
    // The last batch's leads: recorded now, not at the next evaluation's first production call.
    const started = run.takeUnacknowledged();
    if (started.length > 0) await recordLeadsHandedOff(started);
    run.evaluationFinished();
  }

  /** One workflow task starts the whole batch; only the starts are awaited (ABANDON). */
  async function startLeads(leads: ProducedLead[], retry: DeliveryRetrySettings): Promise<void> {
    await Promise.all(leads.map((lead) => startLead(lead, retry)));
    run.leadsStarted(leads.map((lead) => lead.leadId));
    leadsThisRun += leads.length;
  }

  async function startLead(lead: ProducedLead, retry: DeliveryRetrySettings): Promise<void> {
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
        // A lead is handed over once: a retried start after a crash must not run a finished lead again.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          { key: SignalIdKey, value: input.signalId },
          { key: AccountIdKey, value: input.accountId },
          { key: SignalTypeKey, value: input.signalTypeId },
          { key: LeadIdKey, value: lead.leadId },
          { key: RoutesKey, value: lead.routes },
        ],
        staticSummary: lead.summary,
      });
    } catch (err) {
      if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
    }
  }

  function showStatus(status: SignalWorkflowStatus): void {
    if (!run.statusChanged(status)) return;
    upsertSearchAttributes([{ key: SignalStatusKey, value: status }]);
  }
}
