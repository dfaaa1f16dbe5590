/**
 * Lead workflows run on a queue of their own, beside the signal queue, so a day of retries
 * against slow receivers never competes with evaluation and production for task slots.
 */
export function deliveryTaskQueue(config: { TEMPORAL_TASK_QUEUE: string }): string {
  return `${config.TEMPORAL_TASK_QUEUE}-deliveries`;
}
