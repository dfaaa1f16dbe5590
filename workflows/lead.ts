import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startDeliveryWorkflow } from './delivery-start';

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
 * One per lead of the versions that handed leads off one workflow each; kept so that those
 * runs replay and finish. Leads are now handed off in batches by the signal workflow's
 * `handOffLeads` activity (docs/decisions.md, "Hand-off in batches").
 */
export async function leadWorkflow(input: LeadWorkflowInput): Promise<{ email: string; deliveries: number }> {
  const email = await findLeadEmail(input.leadId);
  const plan = await createLeadDeliveries(input.leadId);
  for (const delivery of plan.deliveries) {
    await startDeliveryWorkflow(delivery, input.deliveryTaskQueue ?? plan.taskQueue, plan.retry);
  }
  return { email, deliveries: plan.deliveries.length };
}
