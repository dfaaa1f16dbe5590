/**
 * Lead workflows run on a queue of their own, beside the signal queue, so a day of retries
 * against slow receivers never competes with evaluation and production for task slots.
 */
export function deliveryTaskQueue(config: { TEMPORAL_TASK_QUEUE: string }): string {
  return `${config.TEMPORAL_TASK_QUEUE}-deliveries`;
}

/**
 * Source runs (sourceSyncWorkflow and its item activities) run on a queue of their own, with
 * few activity slots, so slow public sites never hold the slots lead production needs.
 */
export function sourceTaskQueue(config: { TEMPORAL_TASK_QUEUE: string }): string {
  return `${config.TEMPORAL_TASK_QUEUE}-sources`;
}
