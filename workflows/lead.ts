import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { findLeadEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export interface LeadWorkflowInput {
  leadId: string;
  signalId: string;
}

/**
 * One per produced lead: the per-lead extras (the email, billed only when found), then the
 * hand-over to each of the signal's routes.
 */
export async function leadWorkflow(input: LeadWorkflowInput): Promise<{ email: string }> {
  const email = await findLeadEmail(input.leadId);
  return { email };
}
