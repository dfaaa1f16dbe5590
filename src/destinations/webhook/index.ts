import type { DestinationRoute } from '../kit/destination';

/**
 * The signal's own webhook, the specification's route: set by the top-level `webhookUrl` (not a
 * `destinations` key), signed, test-sent and replayed, so it is not in the registry; its parts
 * are the files beside this one.
 */
export const WEBHOOK_ROUTE = 'webhook';

/** A new lead's webhook route: the signal's webhook URL, when it has one. */
export function webhookRoutesOf(webhookUrl: string | null): DestinationRoute[] {
  return webhookUrl ? [{ route: WEBHOOK_ROUTE, target: webhookUrl, integrationId: null }] : [];
}
