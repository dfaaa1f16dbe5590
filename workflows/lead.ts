import { ParentClosePolicy, WorkflowIdReusePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { LeadIdKey, RouteKey, SignalIdKey } from '../src/temporal/search-attributes';
import { deliveryWorkflow } from './delivery';
import { deliveryWorkflowId } from './delivery-messages';

// Both are a few queries: a short time-out lets a new worker take over soon after a crash.
const { findLeadEmail, createLeadDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export interface LeadWorkflowInput {
  leadId: string;
  signalId: string;
  /** The deliveries' task queue; absent for leads handed off before deliveries existed. */
  deliveryTaskQueue?: string;
}

/**
 * One per produced lead: the per-lead extras (the email, billed only when found), then the
 * hand-over to each of the signal's routes: one delivery workflow per route, abandoned so that
 * a receiver retried for a day never keeps the lead open.
 */
export async function leadWorkflow(input: LeadWorkflowInput): Promise<{ email: string; deliveries: number }> {
  const email = await findLeadEmail(input.leadId);
  const plan = await createLeadDeliveries(input.leadId);
  for (const delivery of plan.deliveries) {
    try {
      await startChild(deliveryWorkflow, {
        workflowId: deliveryWorkflowId(delivery.deliveryId),
        taskQueue: input.deliveryTaskQueue ?? plan.taskQueue,
        args: [{ deliveryId: delivery.deliveryId, retry: plan.retry }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        // A delivery runs once: a replayed or retried lead must not send it a second time.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          { key: SignalIdKey, value: delivery.signalId },
          { key: LeadIdKey, value: delivery.leadId },
          { key: RouteKey, value: delivery.route },
        ],
        staticSummary: `Lead ${delivery.leadId} of signal ${delivery.signalId} to ${delivery.route} ${describeTarget(delivery.target)}`,
      });
    } catch (err) {
      if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
    }
  }
  return { email, deliveries: plan.deliveries.length };
}

/** Host and path only: the query string of a webhook URL often carries a receiver's token. */
function describeTarget(target: string): string {
  const match = /^(https?:\/\/[^/?#]+[^?#]*)/.exec(target);
  return match ? match[1] : 'target';
}
