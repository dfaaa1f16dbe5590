import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
  ApplicationFailure,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { LeadIdKey, SignalIdKey } from '../src/temporal/search-attributes';
import { leadWorkflow } from './lead';
import { startDeliveryWorkflow } from './delivery-start';
import { deliveryWorkflowId } from './delivery-messages';
import {
  configChangedSignal,
  deleteSignal,
  evaluateNowSignal,
  leadWorkflowId,
  pauseSignal,
  resumeSignal,
  stateQuery,
  type SignalWorkflowInput,
  type SignalWorkflowState,
} from './signal-messages';

const { produceLeads } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats every second: a batch of a worker that died is retried by another
  // worker within seconds, not after the start-to-close timeout.
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
const { markLeadsHandedOff } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * The hand-off of a batch: its first attempts run up to a receiver's time-out each, and it
 * heartbeats every second, so a dead worker's batch is taken over within seconds.
 */
const handOffTimeouts = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
} as const;

/** Children started per run before the history is handed to a fresh run. */
const CHILDREN_PER_RUN = 500;
const HISTORY_EVENTS_PER_RUN = 10_000;

/**
 * One per signal, from its first activation until deletion. Waits for its interval or a
 * message, produces leads through an activity (PostgreSQL is the source of truth for status,
 * config and counters), and hands each batch to its routes through another, which makes every
 * delivery's first attempt; a delivery that needs retrying gets a workflow of its own. Continues as new
 * before the history grows large, carrying what it must.
 */
export async function signalWorkflow(input: SignalWorkflowInput): Promise<void> {
  const state: SignalWorkflowState = {
    signalId: input.signalId,
    paused: input.carried?.paused ?? false,
    deleted: false,
    evaluations: input.carried?.evaluations ?? 0,
    leadsStarted: input.carried?.leadsStarted ?? 0,
    lastEvaluatedAt: input.carried?.lastEvaluatedAt ?? null,
    evaluating: false,
  };
  // A new run starts with an evaluation: the first activation, a resume, or a carried-over batch.
  let wake = true;
  let childrenThisRun = 0;
  // On the deliveries' queue: a slow receiver holds up this signal's hand-off, never evaluation elsewhere.
  const { handOffLeads } = proxyActivities<Activities>({
    ...handOffTimeouts,
    ...(input.deliveryTaskQueue ? { taskQueue: input.deliveryTaskQueue } : {}),
  });

  setHandler(pauseSignal, () => void (state.paused = true));
  setHandler(resumeSignal, () => {
    state.paused = false;
    wake = true;
  });
  setHandler(configChangedSignal, () => void (wake = true));
  setHandler(evaluateNowSignal, () => void (wake = true));
  setHandler(deleteSignal, () => void (state.deleted = true));
  setHandler(stateQuery, () => state);

  const mustContinueAsNew = () =>
    workflowInfo().continueAsNewSuggested || childrenThisRun >= CHILDREN_PER_RUN || workflowInfo().historyLength > HISTORY_EVENTS_PER_RUN;

  for (;;) {
    if (state.deleted) return;
    if (wake) {
      wake = false;
      state.evaluating = true;
      if (patched('hand-off-overlapped')) {
        if ((await produceAndHandOff()) === 'deleted') return;
      } else {
        let batch;
        do {
          batch = await produceLeads(input.signalId);
          if (batch.state === 'deleted') return;
          childrenThisRun += await handOff(batch.pendingLeadIds);
          if (mustContinueAsNew()) break;
        } while ((batch.more || batch.pendingLeadIds.length > 0) && !state.deleted && !state.paused);
      }
      state.evaluating = false;
      state.evaluations++;
      state.lastEvaluatedAt = new Date().toISOString();
      if (mustContinueAsNew()) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof signalWorkflow>({
          ...input,
          carried: {
            evaluations: state.evaluations,
            leadsStarted: state.leadsStarted,
            lastEvaluatedAt: state.lastEvaluatedAt,
            paused: state.paused,
          },
        });
      }
    }
    // Paused: wait for a message only. Active: also wake when the interval passes.
    if (state.paused) await condition(() => wake || state.deleted);
    else await condition(() => wake || state.deleted, input.evaluationIntervalMs).then((woken) => void (woken || (wake = true)));
  }

  /**
   * One evaluation's batches, each produced while the one before is being handed off, so that
   * PostgreSQL, the worker and the receiver work side by side. One hand-off at a time, in
   * production order; a lead still being handed off is not handed off again by the next.
   */
  async function produceAndHandOff(): Promise<'deleted' | 'done'> {
    let handing: { leadIds: Set<string>; children: Promise<number> } | undefined;
    for (;;) {
      const batch = await produceLeads(input.signalId);
      if (batch.state === 'deleted') return 'deleted';
      const leadIds = batch.pendingLeadIds.filter((id) => !handing?.leadIds.has(id));
      if (handing) childrenThisRun += await handing.children;
      handing = leadIds.length > 0 ? { leadIds: new Set(leadIds), children: handOff(leadIds) } : undefined;
      if (!(batch.more || leadIds.length > 0) || state.deleted || state.paused || mustContinueAsNew()) break;
    }
    if (handing) childrenThisRun += await handing.children;
    return 'done';
  }

  /** Hands the batch's leads to their routes; answers the child workflows it started. */
  async function handOff(leadIds: string[]): Promise<number> {
    if (patched('hand-off-in-activity')) {
      if (leadIds.length === 0) return 0;
      const outcome = await handOffLeads(leadIds);
      state.leadsStarted += leadIds.length;
      const firstAttemptAt = Date.now();
      const retrying = outcome.unsettled.map((delivery) =>
        startDeliveryWorkflow(delivery, input.deliveryTaskQueue ?? outcome.taskQueue, outcome.retry, { at: firstAttemptAt, retryInMs: delivery.retryInMs }),
      );
      await Promise.all(retrying);
      // Deleted while these started: the deletion may have looked for them before they existed.
      if (state.deleted) {
        await Promise.all(outcome.unsettled.map((d) => getExternalWorkflowHandle(deliveryWorkflowId(d.deliveryId)).cancel().catch(() => undefined)));
      }
      return outcome.unsettled.length;
    }
    if (patched('hand-off-batch-at-once')) {
      // One workflow task starts the whole batch instead of one server round trip per lead
      // (~150 ms each under load). Histories recorded one by one replay the old way.
      await Promise.all(leadIds.map(startLead));
    } else {
      for (const leadId of leadIds) await startLead(leadId);
    }
    if (leadIds.length > 0) await markLeadsHandedOff(leadIds);
    return leadIds.length;
  }

  /** Runs recorded before the batched hand-off: one lead workflow per lead. */
  async function startLead(leadId: string): Promise<void> {
    try {
      await startChild(leadWorkflow, {
        workflowId: leadWorkflowId(leadId),
        args: [{ leadId, signalId: input.signalId, ...(input.deliveryTaskQueue ? { deliveryTaskQueue: input.deliveryTaskQueue } : {}) }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        // A lead is handed off once: a retry after a crash must not run a finished lead again.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          { key: SignalIdKey, value: input.signalId },
          { key: LeadIdKey, value: leadId },
        ],
        staticSummary: `Lead ${leadId} of signal ${input.signalId}`,
      });
      state.leadsStarted++;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
    }
  }
}
