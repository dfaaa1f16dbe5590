/**
 * Build B of the two-build deploy test (test/deploy/two-builds.test.ts): the service's workflows
 * with a change to each long-lived one, bundled by the test as a second workflow bundle.
 *
 * - The signal workflow's change is behind `patched()`, as docs/decisions/deploys.md asks of a
 *   change to an auto-upgrading workflow: a run that build A started replays here without the
 *   marker and takes the old path; a run started here records it and takes the new one.
 * - The lead workflow's change is not replay-safe on purpose (a command before A's first one):
 *   a lead that build A started and that replayed here would fail with a nondeterminism error,
 *   so the test proves that pinned leads never do.
 */
import { defineQuery, patched, setHandler, setWorkflowOptions, upsertMemo } from '@temporalio/workflow';
import { leadWorkflow as leadWorkflowOfA, signalWorkflow as signalWorkflowOfA } from '../../../workflows';
import { pinnedWhenVersioned } from '../../../workflows/versioning';
import type { LeadWorkflowInput, LeadWorkflowResult, SignalWorkflowInput } from '../../../src/temporal/contract';
import { BUILD_B_PATCH, BUILD_QUERY } from './names';

export * from '../../../workflows';

const buildQuery = defineQuery<string>(BUILD_QUERY);

export async function signalWorkflow(input: SignalWorkflowInput): Promise<void> {
  setHandler(buildQuery, () => 'B');
  if (patched(BUILD_B_PATCH)) upsertMemo({ build: 'B' });
  return signalWorkflowOfA(input);
}

export async function leadWorkflow(input: LeadWorkflowInput): Promise<LeadWorkflowResult> {
  upsertMemo({ build: 'B' });
  return leadWorkflowOfA(input);
}
// As workflows/index.ts pins build A's.
setWorkflowOptions(pinnedWhenVersioned, leadWorkflow);
