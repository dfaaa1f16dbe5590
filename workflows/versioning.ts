import type { WorkflowDefinitionOptions } from '@temporalio/common';
import { workflowInfo } from '@temporalio/workflow';

/**
 * PINNED when a versioned worker runs the workflow (Worker Versioning, docs/decisions/deploys.md):
 * it then finishes on the build that started it. An unversioned worker must name no behaviour
 * (the server refuses the task), and a run that began before versioning was on has no build to
 * stay on: both follow the worker's default, AUTO_UPGRADE. Read once as the run loads, from the
 * version its first task was completed by (on a replay too), so every load of a run agrees.
 */
export function pinnedWhenVersioned(): WorkflowDefinitionOptions {
  return workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'PINNED' } : {};
}
