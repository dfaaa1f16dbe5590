import type { IncomingWebhookSendArguments } from '@slack/webhook';

/** What a Slack alert tells about one lead; every value may be empty except the company's name or the person's. */
export interface SlackLead {
  personName: string;
  title: string;
  companyName: string;
  /** The event's label (`Job change`, `Watched Company Raised`, ...). */
  event: string;
  /** One line on the event itself: "was VP Engineering at Globex", a headline, a job ad's title. */
  eventDetail: string;
  /** The event's own page (news article, job ad, post), when it has one. */
  eventUrl: string;
  eventDate: string;
  signalName: string;
  personUrl: string;
  companyUrl: string;
  /** The lead in our dashboard; empty when the service has no PUBLIC_URL. */
  dashboardUrl: string;
}

/** In place of the dashboard link when the service has no PUBLIC_URL (only outside production). */
export const NO_LEAD_LINK = 'no link to the lead: the service runs without PUBLIC_URL';

/** Block Kit limits (docs.slack.dev/reference/block-kit): a header's text, a section's, and the fallback we keep short. */
const HEADER_CHARS = 150;
const SECTION_CHARS = 3000;

/**
 * Slack reads `&`, `<` and `>` in mrkdwn as control characters (links, mentions): user data is
 * escaped as Slack's "Formatting text" page asks, so a title like `R&D <lead>` shows as written
 * and can never mention a channel.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<url|label>`, only for http(s) URLs; the label cannot hold the `|` that ends the URL part. */
function link(url: string, label: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  return `<${escapeMrkdwn(url)}|${escapeMrkdwn(label.replace(/\|/g, '/'))}>`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * One message per lead: a header (who), a section (what happened, and the signal), and a line
 * of links to the person, the company and the lead in the dashboard. Links are mrkdwn links,
 * not buttons: a button in an incoming webhook's message expects an app with interactivity,
 * which a pasted webhook URL does not have. `text` is the plain fallback notifications show.
 */
export function leadMessage(lead: SlackLead): IncomingWebhookSendArguments {
  const who = lead.personName
    ? `${lead.personName}${lead.title ? `, ${lead.title}` : ''}${lead.companyName ? ` at ${lead.companyName}` : ''}`
    : lead.companyName || 'A company';
  const event = lead.event || 'New lead';
  const happened = [
    `*${escapeMrkdwn(event)}*${lead.eventDate ? ` (${escapeMrkdwn(lead.eventDate)})` : ''}`,
    lead.eventDetail ? escapeMrkdwn(lead.eventDetail) : '',
    lead.eventUrl ? link(lead.eventUrl, 'Source') : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const links = [
    link(lead.personUrl, lead.personName ? `${lead.personName}'s profile` : 'Profile'),
    link(lead.companyUrl, lead.companyName || 'Company site'),
    // Said, not silently dropped: a service without PUBLIC_URL cannot know its own address.
    link(lead.dashboardUrl, 'Open the lead') ?? NO_LEAD_LINK,
  ].filter((l): l is string => Boolean(l));
  return {
    // The fallback is read as mrkdwn too: escaped, so a name like `<!channel>` notifies no one.
    text: cut(
      escapeMrkdwn(`New lead: ${who}. ${event}${lead.signalName ? ` (signal ${lead.signalName})` : ''}`),
      SECTION_CHARS,
    ),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(who, HEADER_CHARS), emoji: false } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: cut(`${happened}\nSignal: *${escapeMrkdwn(lead.signalName || 'unnamed')}*`, SECTION_CHARS),
        },
      },
      ...(links.length > 0
        ? [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: links.join(' · ') }] }]
        : []),
    ],
    unfurl_links: false,
    unfurl_media: false,
  };
}
