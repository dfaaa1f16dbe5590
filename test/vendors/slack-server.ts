import { randomBytes } from 'node:crypto';
import { startVendorServer, type ReceivedRequest, type VendorAnswer, type VendorServer } from './vendor-server';

/**
 * A local hooks.slack.com as Slack documents incoming webhooks ("Sending messages using
 * incoming webhooks", the 2016 changelog on their errors, and the rate-limits page): a POST of
 * JSON to `/services/T…/B…/secret` answers 200 with the text `ok`; a body that is not JSON, or
 * has neither `text` nor `blocks`, 400 `invalid_payload` / `no_text`; blocks that break Block Kit
 * rules 400 `invalid_blocks`; a removed webhook 404 `no_service`; an archived channel 410
 * `channel_is_archived`; and, queued with `failNext(429, {retryAfter})`, 429 `rate_limited`
 * with `Retry-After` in seconds. Error bodies are plain text, as Slack sends them.
 */
export interface SlackWebhook {
  /** The URL as Slack shows it (what a person saves); messages reach this server through SLACK_WEBHOOKS_URL. */
  url: string;
  path: string;
}

export interface SlackMessage {
  path: string;
  body: { text?: string; blocks?: any[]; [key: string]: unknown };
}

export interface SlackServer extends VendorServer {
  /** Messages accepted (answered 200 `ok`), in arrival order. */
  messages: SlackMessage[];
  /** A new live webhook of a channel. */
  addWebhook(): SlackWebhook;
  /** The webhook is removed in Slack: it answers 404 `no_service` from now on. */
  revoke(webhook: SlackWebhook): void;
  /** The webhook's channel is archived: 410 `channel_is_archived`. */
  archive(webhook: SlackWebhook): void;
}

const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex').toUpperCase()}`;

/** What Block Kit refuses of the blocks this service sends (docs.slack.dev/reference/block-kit/blocks). */
function blocksProblem(blocks: unknown): boolean {
  if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > 50) return true;
  return blocks.some((block: any) => {
    switch (block?.type) {
      case 'header':
        return block.text?.type !== 'plain_text' || typeof block.text.text !== 'string' || block.text.text.length > 150;
      case 'section':
        return !block.text || typeof block.text.text !== 'string' || block.text.text.length > 3000;
      case 'context':
        return !Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 10;
      case 'divider':
      case 'actions':
        return false;
      default:
        return true;
    }
  });
}

export async function start(): Promise<SlackServer> {
  const live = new Set<string>();
  const archived = new Set<string>();
  const messages: SlackMessage[] = [];

  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!/^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+$/.test(req.path))
      return { status: 404, body: 'no_service' };
    if (req.method !== 'POST') return { status: 405, body: 'invalid_method' };
    if (!live.has(req.path)) return { status: 404, body: 'no_service' };
    if (archived.has(req.path)) return { status: 410, body: 'channel_is_archived' };
    const body = req.body as SlackMessage['body'] | undefined;
    if (!body || typeof body !== 'object') return { status: 400, body: 'invalid_payload' };
    if (!body.text && !body.blocks) return { status: 400, body: 'no_text' };
    if (body.blocks !== undefined && blocksProblem(body.blocks)) return { status: 400, body: 'invalid_blocks' };
    messages.push({ path: req.path, body });
    return { status: 200, body: 'ok' };
  };

  const server = await startVendorServer({
    basePath: '',
    handle,
    failureBody: (status) =>
      status === 429
        ? 'rate_limited'
        : status === 404
          ? 'no_service'
          : status >= 500
            ? 'rollup_error'
            : 'invalid_payload',
  });
  return {
    ...server,
    messages,
    addWebhook() {
      const path = `/services/${id('T')}/${id('B')}/${randomBytes(12).toString('hex')}`;
      live.add(path);
      return { url: `https://hooks.slack.com${path}`, path };
    },
    revoke(webhook) {
      live.delete(webhook.path);
    },
    archive(webhook) {
      archived.add(webhook.path);
    },
  };
}
