import { createHash } from 'node:crypto';
import { z } from 'zod';
import { validationError } from '../../errors';
import { SlackWebhooks } from '../../providers/slack/incoming-webhook';
import { leadMessage } from '../../providers/slack/lead-message';
import { maskedSlackWebhookUrl, slackWebhookUrlProblem } from '../../providers/slack/webhook-url';
import { fieldsOf, NotSendable, type Destination } from '../kit/destination';
import { slackLeadFrom } from '../kit/route-payloads';

/**
 * A Slack channel's incoming webhook. Stored sealed, answered masked; `webhookUrl` may be left
 * out to switch a stored one on or off.
 */
const slackSettings = z.strictObject({
  enabled: z.boolean(),
  webhookUrl: z
    .string()
    .trim()
    .max(500)
    .superRefine((value, ctx) => {
      const problem = slackWebhookUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .meta({
      description:
        'The Webhook URL Slack shows for an incoming webhook (https://hooks.slack.com/services/...); answered masked',
      example: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    }),
});
export type SlackSettings = z.output<typeof slackSettings>;

/** A Slack destination as the signal row keeps it: the URL sealed, and its masked form to show. */
export interface StoredSlackDestination {
  enabled: boolean;
  webhookUrl: string;
  webhookUrlSealed: string;
}

/** Slack: one Block Kit message per lead, posted to a channel's incoming webhook. */
export const slack: Destination<SlackSettings> = {
  kind: 'slack',
  settings: slackSettings,
  // The URL (the webhook's whole credential) sealed with the service's key, beside the masked
  // form the API and dashboard show. Settings without a URL only switch the stored one on or off.
  stored(settings, tools): StoredSlackDestination | { enabled: boolean } {
    if (!settings.webhookUrl) return { enabled: settings.enabled };
    return {
      enabled: settings.enabled,
      webhookUrl: maskedSlackWebhookUrl(settings.webhookUrl),
      webhookUrlSealed: tools.seal(settings.webhookUrl),
    };
  },
  // Settings without a new URL keep the stored one (it is only ever shown masked).
  merged: (current, next) => ('webhookUrlSealed' in next ? next : { ...(current as object), ...next }),
  // Slack switched on needs a webhook URL, sent now or stored before.
  assertDeliverable(stored) {
    if (!fieldsOf(stored).webhookUrlSealed) {
      throw validationError([
        {
          field: 'destinations.slack.webhookUrl',
          message: 'required: no Slack webhook URL is stored for this signal yet',
        },
      ]);
    }
  },
  answered(stored) {
    const { enabled, webhookUrl } = fieldsOf(stored);
    return { enabled: enabled === true, webhookUrl: webhookUrl ?? null };
  },
  routeOf(stored) {
    const { enabled, webhookUrlSealed } = fieldsOf(stored);
    if (enabled !== true || typeof webhookUrlSealed !== 'string') return null;
    return { target: webhookUrlSealed, integrationId: null };
  },
  /**
   * Slack allows about one message a second per webhook, so one lead's 429 holds back the
   * webhook's other leads too: the pace is noted under a digest of the URL, never the URL.
   */
  paceKeyOf(target, tools) {
    try {
      return `slack:${createHash('sha256').update(tools.secrets.open(target)).digest('hex').slice(0, 32)}`;
    } catch {
      return null;
    }
  },
  async push(input, tools) {
    let webhookUrl: string;
    try {
      webhookUrl = tools.secrets.open(input.target);
    } catch {
      throw new NotSendable(
        'not sent: the stored Slack webhook URL cannot be opened (SECRETS_KEY changed?); save it again',
      );
    }
    const lead = slackLeadFrom(input.payload, {
      leadId: input.leadId,
      signalId: input.signalId,
      publicUrl: tools.config.PUBLIC_URL,
    });
    const slack = new SlackWebhooks({
      baseUrl: tools.config.SLACK_WEBHOOKS_URL,
      timeoutMs: tools.config.WEBHOOK_TIMEOUT_MS,
    });
    await slack.post(webhookUrl, leadMessage(lead));
  },
  dashboard: {
    kind: 'section',
    legend: 'Slack',
    fields: [
      {
        id: 'slack-enabled',
        label: 'Post each lead to a Slack channel',
        input: 'checkbox',
        value: (stored) => stored.enabled === true,
      },
      {
        id: 'slack-webhook',
        label: 'Incoming webhook URL',
        input: 'url',
        secret: true,
        value: () => '',
        hint: (stored) =>
          stored.webhookUrl
            ? `(saved: ${String(stored.webhookUrl)}; leave empty to keep it)`
            : '(https://hooks.slack.com/services/…)',
      },
    ],
  },
  settingsFromForm(form, stored) {
    if (!form.has('slack-form')) return undefined; // the section's marker: the form showed it
    const webhookUrl = (form.get('slack-webhook') ?? '').trim();
    const enabled = form.get('slack-enabled') === 'on';
    // An empty URL keeps the saved one (only its masked form is ever shown to re-send).
    if (webhookUrl) return { enabled, webhookUrl };
    if (stored !== undefined || enabled) return { enabled };
    return undefined;
  },
};
