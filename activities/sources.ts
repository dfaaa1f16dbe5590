import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import type { Services } from '../src/services';
import { SourceThrottled } from '../src/sources/kit/polite-fetch';
import { AttemptCancelled } from '../src/sources/kit/item-attempts';
import type { SourceCursor } from '../src/temporal/contract';

/**
 * How often an item's attempt tells Temporal it is alive, well inside the workflow's
 * heartbeatTimeout: the heartbeat's answer is how a timed-out or cancelled attempt learns it
 * is over (its requests are then aborted), and a lost worker's attempt is retried soon.
 */
const HEARTBEAT_EVERY_MS = 5_000;

/** A source run's steps: one activity per item (board, site, feed), so a retry repeats one item only. */
export function sourceActivities(services: Pick<Services, 'sources'>) {
  const { sources } = services;
  return {
    beginSourceRun: (name: string) => sources.beginRun(name),
    listSourceItems: (name: string, after: SourceCursor) => sources.items(name, after),
    async syncSourceItem(name: string, item: string) {
      const context = Context.current();
      // A long item (a stream read) heartbeats how far it got; the timer repeats the last word.
      let detail: unknown;
      const alive = setInterval(() => context.heartbeat(detail), HEARTBEAT_EVERY_MS);
      try {
        const progress = (now: unknown) => context.heartbeat((detail = now));
        return await sources.syncItem(name, item, progress, context.cancellationSignal);
      } catch (err) {
        if (err instanceof AttemptCancelled) throw new CancelledFailure(err.message);
        // The host's Retry-After becomes this activity's next retry delay.
        if (err instanceof SourceThrottled) {
          throw ApplicationFailure.create({
            message: err.message,
            type: 'SourceThrottled',
            nextRetryDelay: err.retryAfterMs,
          });
        }
        throw err;
      } finally {
        clearInterval(alive);
      }
    },
    recordSourceError: (name: string, item: string, error: string) => sources.recordError(name, item, error),
    finishSourceRun: (name: string) => sources.finishRun(name),
  };
}
