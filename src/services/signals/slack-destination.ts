import type { SecretBox } from '../../crypto/secret-box';
import { validationError } from '../../errors';
import { maskedSlackWebhookUrl } from '../../providers/slack/webhook-url';
import type { SlackDestination, StoredSlackDestination } from './destinations';

/**
 * A Slack destination as it is stored: the URL (the webhook's whole credential) sealed with the
 * service's key, beside the masked form the API and dashboard show. A patch without a URL only
 * switches the stored one on or off.
 */
export function sealedSlackDestination(
  patch: SlackDestination,
  secrets: Pick<SecretBox, 'seal'>,
): StoredSlackDestination | { enabled: boolean } {
  if (!patch.webhookUrl) return { enabled: patch.enabled };
  return {
    enabled: patch.enabled,
    webhookUrl: maskedSlackWebhookUrl(patch.webhookUrl),
    webhookUrlSealed: secrets.seal(patch.webhookUrl),
  };
}

/** Slack switched on needs a webhook URL, sent now or stored before. */
export function assertSlackDestination(destinations: Record<string, unknown>): void {
  const slack = destinations.slack as Partial<StoredSlackDestination> | undefined;
  if (slack && !slack.webhookUrlSealed) {
    throw validationError([
      {
        field: 'destinations.slack.webhookUrl',
        message: 'required: no Slack webhook URL is stored for this signal yet',
      },
    ]);
  }
}
