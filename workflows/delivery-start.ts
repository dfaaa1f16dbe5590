import { ParentClosePolicy, WorkflowIdReusePolicy, startChild } from '@temporalio/workflow';
import { LeadIdKey, RouteKey, SignalIdKey } from '../src/temporal/search-attributes';
import { deliveryWorkflow } from './delivery';
import { deliveryWorkflowId, type DeliveryRetrySettings, type DeliveryWorkflowInput, type PlannedDeliveryRef } from './delivery-messages';

/**
 * Starts the workflow of one delivery on the deliveries' queue, abandoned so that a receiver
 * retried for a day never keeps its parent open. Answers false when it had been started before.
 */
export async function startDeliveryWorkflow(
  delivery: PlannedDeliveryRef,
  taskQueue: string,
  retry: DeliveryRetrySettings,
  firstAttempt?: DeliveryWorkflowInput['firstAttempt'],
): Promise<boolean> {
  try {
    await startChild(deliveryWorkflow, {
      workflowId: deliveryWorkflowId(delivery.deliveryId),
      taskQueue,
      args: [{ deliveryId: delivery.deliveryId, retry, ...(firstAttempt ? { firstAttempt } : {}) }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      // A delivery runs once: a replayed or retried parent must not send it a second time.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: SignalIdKey, value: delivery.signalId },
        { key: LeadIdKey, value: delivery.leadId },
        { key: RouteKey, value: delivery.route },
      ],
      staticSummary: `Lead ${delivery.leadId} of signal ${delivery.signalId} to ${delivery.route} ${describeTarget(delivery.target)}`,
    });
    return true;
  } catch (err) {
    if (err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError') return false;
    throw err;
  }
}

/** Host and path only: the query string of a webhook URL often carries a receiver's token. */
function describeTarget(target: string): string {
  const match = /^(https?:\/\/[^/?#]+[^?#]*)/.exec(target);
  return match ? match[1] : 'target';
}
