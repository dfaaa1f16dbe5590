import {
  IncomingWebhook,
  IncomingWebhookHTTPError,
  type FetchFunction,
  type IncomingWebhookSendArguments,
} from '@slack/webhook';
import { classifyHttpStatus, OutboundHttpError } from '../outbound-error';
import { DEFAULT_VENDOR_TIMEOUT_MS } from '../vendor-http';
import { slackWebhookPath } from './webhook-url';

/**
 * What Slack's error strings mean for the person who set the destination ("Sending messages
 * using incoming webhooks", and the 2016 changelog on its status codes): 400 our message,
 * 403 a workspace rule or a bad token, 404 a webhook removed (`no_service`) or a channel gone,
 * 410 an archived channel. None of them changes by trying again.
 */
const MEANINGS: Record<string, string> = {
  invalid_payload: 'Slack could not read the message',
  invalid_blocks: 'Slack refused the message layout',
  invalid_blocks_format: 'Slack refused the message layout',
  no_text: 'Slack found no text in the message',
  action_prohibited: 'the workspace does not allow this webhook to post here; ask a Slack admin',
  invalid_token: 'Slack no longer accepts this webhook URL; create a new one and save it',
  no_service: 'the webhook was removed or revoked in Slack; create a new one and save it',
  no_service_id: 'the webhook was removed or revoked in Slack; create a new one and save it',
  no_team: 'the Slack workspace of this webhook no longer exists',
  team_disabled: 'the Slack workspace of this webhook is disabled',
  channel_not_found: "the webhook's channel no longer exists; create a new webhook and save it",
  channel_is_archived: "the webhook's channel is archived; unarchive it or save a new webhook",
  user_not_found: 'the webhook names a user Slack does not know',
};

export interface SlackEndpoint {
  /** `https://hooks.slack.com`, or a local server in tests and staging (`SLACK_WEBHOOKS_URL`). */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * Posts messages to incoming webhooks through Slack's own package (`@slack/webhook`), one try
 * per call: retries are the lead workflow's, which waits a 429's `Retry-After`. The package's
 * errors carry no headers, so its fetch is wrapped to keep the answer's `Retry-After`. Errors
 * are `OutboundHttpError`s classified like every vendor's; they never carry the URL.
 */
export class SlackWebhooks {
  constructor(private readonly endpoint: SlackEndpoint) {}

  async post(webhookUrl: string, message: IncomingWebhookSendArguments): Promise<void> {
    const path = slackWebhookPath(webhookUrl);
    const target = `${this.endpoint.baseUrl.replace(/\/+$/, '')}${path}`;
    let retryAfter: string | null = null;
    const fetchKeepingRetryAfter: FetchFunction = async (url, init) => {
      const answer = await fetch(url, init as RequestInit);
      retryAfter = answer.headers.get('retry-after');
      return answer;
    };
    const webhook = new IncomingWebhook(target, {
      fetch: fetchKeepingRetryAfter,
      timeout: this.endpoint.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS,
    });
    const secret = path.split('/').pop() ?? '';
    try {
      await webhook.send(message);
    } catch (err) {
      throw slackFailure(err, retryAfter, secret);
    }
  }
}

function slackFailure(err: unknown, retryAfter: string | null, secret: string): OutboundHttpError {
  // The package wraps a 4xx in p-retry's AbortError; the HTTP error is its `originalError`.
  const cause = (err as { originalError?: unknown }).originalError ?? err;
  if (cause instanceof IncomingWebhookHTTPError) {
    const verdict = classifyHttpStatus(cause.statusCode, retryAfter);
    const code = String(cause.body ?? '')
      .trim()
      .slice(0, 100);
    const meaning = MEANINGS[code];
    const said = code ? `: ${code}${meaning ? ` (${meaning})` : ''}` : '';
    return new OutboundHttpError(scrubbed(`Slack answered HTTP ${cause.statusCode}${said}`, secret), {
      vendor: 'slack',
      status: cause.statusCode,
      permanent: verdict.outcome === 'permanent',
      ...(verdict.outcome === 'retry' && verdict.retryAfterSeconds !== undefined
        ? { retryAfterSeconds: verdict.retryAfterSeconds }
        : {}),
    });
  }
  // No answer: refused, reset, DNS, or the time-out. Slack may be back in a moment.
  const original = (cause as { original?: Error & { cause?: { code?: string } } }).original;
  const why = original
    ? `${original.name === 'TimeoutError' ? 'no answer in time' : original.message}${original.cause?.code ? ` (${original.cause.code})` : ''}`
    : String(cause);
  return new OutboundHttpError(scrubbed(`Slack did not answer: ${why}`, secret), {
    vendor: 'slack',
    permanent: false,
  });
}

function scrubbed(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
