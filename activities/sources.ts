import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Services } from '../src/services';
import { SourceThrottled } from '../src/services/sources/polite-fetch';
import type { SourceCursor } from '../src/temporal/contract';

/** A source run's steps: one activity per item (board, site, feed), so a retry repeats one item only. */
export function sourceActivities(services: Services) {
  const { sources } = services;
  return {
    beginSourceRun: (name: string) => sources.beginRun(name),
    listSourceItems: (name: string, after: SourceCursor) => sources.items(name, after),
    async syncSourceItem(name: string, item: string) {
      try {
        // A long item (a stream read) heartbeats how far it got.
        return await sources.syncItem(name, item, (detail) => Context.current().heartbeat(detail));
      } catch (err) {
        // The host's Retry-After becomes this activity's next retry delay.
        if (err instanceof SourceThrottled) {
          throw ApplicationFailure.create({
            message: err.message,
            type: 'SourceThrottled',
            nextRetryDelay: err.retryAfterMs,
          });
        }
        throw err;
      }
    },
    recordSourceError: (name: string, item: string, error: string) => sources.recordError(name, item, error),
    finishSourceRun: (name: string) => sources.finishRun(name),
  };
}
