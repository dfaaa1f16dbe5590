import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { PhoneLookupInput } from '../src/temporal/contract';

const { lookUpPhone, failPhoneLookup } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * `phone:<lookupId>`: one lookup, recorded and charged (5 credits, only when a phone is found)
 * in one transaction, so a retried attempt finds its own answer instead of charging again.
 */
export async function phoneLookupWorkflow(input: PhoneLookupInput): Promise<string> {
  try {
    return await lookUpPhone(input.lookupId);
  } catch (err) {
    await failPhoneLookup(input.lookupId, `The lookup could not be completed: ${(err as Error).message}`);
    throw err;
  }
}
