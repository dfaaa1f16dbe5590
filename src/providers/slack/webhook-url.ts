/**
 * A Slack incoming webhook URL, as Slack hands it out: `https://hooks.slack.com/services/T…/B…/token`
 * (the workspace id, the webhook's id, then its secret). The whole URL is the credential: it is
 * kept sealed, shown masked, and never written into an error or a log.
 */
export const SLACK_WEBHOOK_HOST = 'hooks.slack.com';

const SERVICES_PATH = /^\/services\/(T[A-Z0-9]+)\/(B[A-Z0-9]+)\/([A-Za-z0-9]+)$/;

/** Why a text is not a Slack incoming webhook URL; undefined when it is one. */
export function slackWebhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL: paste the Webhook URL Slack shows for the incoming webhook';
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.hostname !== SLACK_WEBHOOK_HOST || url.port !== '') {
    // The one way to test against a receiver of one's own, said where a person meets the refusal.
    return (
      `must be on ${SLACK_WEBHOOK_HOST}; to test against a local receiver, save a ${SLACK_WEBHOOK_HOST} URL and ` +
      "start the service with SLACK_WEBHOOKS_URL set to the receiver's address (the URL's /services/… path is posted there)"
    );
  }
  if (url.username || url.password || url.search || url.hash) return 'must carry no user, query or fragment';
  if (!SERVICES_PATH.test(url.pathname)) {
    return 'must be https://hooks.slack.com/services/T…/B…/… as Slack shows it (workspace id, webhook id, secret)';
  }
  return undefined;
}

/** `https://hooks.slack.com/services/T0123…/…`: enough to recognise the workspace, nothing to post with. */
export function maskedSlackWebhookUrl(text: string): string {
  const match = SERVICES_PATH.exec(new URL(text).pathname);
  const workspace = match?.[1] ?? '';
  return `https://${SLACK_WEBHOOK_HOST}/services/${workspace.slice(0, 5)}…/…`;
}

/** The path Slack routes on (`/services/…`); the sender puts it behind the configured Slack address. */
export function slackWebhookPath(text: string): string {
  return new URL(text).pathname;
}
