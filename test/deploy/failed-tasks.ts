import { temporal } from '@temporalio/proto';

const { EventType, WorkflowTaskFailedCause } = temporal.api.enums.v1;

/**
 * A history's failed workflow tasks that mean something went wrong, as `cause message`. Left
 * out: UnhandledCommand, the server refusing a task that closed the run (continue-as-new) while a
 * message it had not seen was waiting, such as a signal woken by an arrival; the task simply runs
 * again with the message (https://docs.temporal.io/references/failures).
 */
export function failedTasks(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((e) => {
    if (e.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) return [];
    const attrs = e.workflowTaskFailedEventAttributes;
    if (attrs?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND) return [];
    return [`${WorkflowTaskFailedCause[attrs?.cause ?? 0]} ${attrs?.failure?.message ?? ''}`];
  });
}
