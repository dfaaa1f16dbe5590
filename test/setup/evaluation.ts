import type { Stack } from './stack';

/**
 * One evaluation as the signal workflow runs it, for tests with no worker: batches until none is
 * left, each batch's leads recorded as handed off (nothing starts lead workflows here).
 */
export async function evaluateNow(stack: Stack, signalId: string): Promise<{ produced: number; deferredBy?: string }> {
  let produced = 0;
  for (;;) {
    const batch = await stack.services.leadProduction.produceBatch(signalId);
    produced += batch.produced;
    await stack.services.leadProduction.recordHandOff(batch.leads.map((lead) => lead.leadId));
    if (!batch.more && batch.leads.length === 0) return { produced, deferredBy: batch.deferredBy };
  }
}
