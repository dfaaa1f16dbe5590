import { SlackWebhooks } from '../../src/providers/slack/incoming-webhook';
import { leadMessage, type SlackLead } from '../../src/providers/slack/lead-message';
import { maskedSlackWebhookUrl, slackWebhookUrlProblem } from '../../src/providers/slack/webhook-url';
import { OutboundHttpError } from '../../src/providers/outbound-error';
import { start as startSlack, type SlackServer } from '../vendors/slack-server';

/** The Slack adapter against a local hooks.slack.com answering as Slack documents. */
let slack: SlackServer;
beforeAll(async () => {
  slack = await startSlack();
});
afterAll(async () => {
  await slack?.close();
});

const lead: SlackLead = {
  personName: 'Ada <!channel> Lovelace',
  title: 'R&D lead',
  companyName: 'Acme & Sons <Labs>',
  event: 'Job Change',
  eventDetail: 'previously VP <Eng> at Globex & Co',
  eventUrl: 'https://news.example.com/a?b=1&c=2',
  eventDate: '2026-11-20',
  signalName: 'CTOs > VPs',
  personUrl: 'https://www.linkedin.com/in/ada',
  companyUrl: 'https://acme.com',
  dashboardUrl: '',
};

const failureOf = async (work: Promise<unknown>): Promise<OutboundHttpError> => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundHttpError);
  return err as OutboundHttpError;
};

test("user data is escaped in mrkdwn (Slack's &, < and >), left as written in plain text", () => {
  const message = leadMessage(lead);
  const [header, section, context] = message.blocks as any[];
  expect(header.text).toEqual({
    type: 'plain_text',
    text: 'Ada <!channel> Lovelace, R&D lead at Acme & Sons <Labs>',
    emoji: false,
  });
  expect(section.text.text).toBe(
    '*Job Change* (2026-11-20) · previously VP &lt;Eng&gt; at Globex &amp; Co · <https://news.example.com/a?b=1&amp;c=2|Source>\nSignal: *CTOs &gt; VPs*',
  );
  expect(message.text).toBe(
    'New lead: Ada &lt;!channel&gt; Lovelace, R&amp;D lead at Acme &amp; Sons &lt;Labs&gt;. Job Change (signal CTOs &gt; VPs)',
  );
  // No PUBLIC_URL: no dashboard link, and the message says so (issue 38).
  expect(context.elements).toEqual([
    {
      type: 'mrkdwn',
      text: "<https://www.linkedin.com/in/ada|Ada &lt;!channel&gt; Lovelace's profile> · <https://acme.com|Acme &amp; Sons &lt;Labs&gt;> · no link to the lead: the service runs without PUBLIC_URL",
    },
  ]);
});

test('a company-level lead is announced by its company; links only to what it has', () => {
  const message = leadMessage({
    ...lead,
    personName: '',
    title: '',
    personUrl: '',
    companyName: 'Acme',
    dashboardUrl: 'https://leads.example.com/signals/s1#lead-l1',
  });
  const [header, , context] = message.blocks as any[];
  expect(header.text.text).toBe('Acme');
  expect(context.elements[0].text).toBe(
    '<https://acme.com|Acme> · <https://leads.example.com/signals/s1#lead-l1|Open the lead>',
  );
  expect(message.text).toBe('New lead: Acme. Job Change (signal CTOs &gt; VPs)');
});

test('webhook URLs: only https://hooks.slack.com/services/T…/B…/secret; masked to the workspace', () => {
  expect(slackWebhookUrlProblem('https://hooks.slack.com/services/T0123ABC/B0456DEF/abcDEF123')).toBeUndefined();
  expect(slackWebhookUrlProblem('https://hooks.slack.com:8443/services/T0123ABC/B0456DEF/abc')).toMatch(
    /hooks\.slack\.com/,
  );
  expect(slackWebhookUrlProblem('https://hooks.slack.com/services/T0123ABC/B0456DEF/abc?x=1')).toMatch(/query/);
  // Another host names the setting that points the sender at a local receiver (issue 38).
  expect(slackWebhookUrlProblem('https://127.0.0.1:4000/services/T0123ABC/B0456DEF/abc')).toMatch(
    /must be on hooks\.slack\.com; to test against a local receiver, .*SLACK_WEBHOOKS_URL/,
  );
  expect(slackWebhookUrlProblem('https://hooks.slack.com/services/T0123…/…')).toMatch(/services/);
  expect(slackWebhookUrlProblem('hooks.slack.com/services/T1/B1/x')).toMatch(/not a URL/);
  expect(maskedSlackWebhookUrl('https://hooks.slack.com/services/T0123ABC/B0456DEF/abcDEF123')).toBe(
    'https://hooks.slack.com/services/T0123…/…',
  );
});

describe("Slack's answers, classified as every vendor's", () => {
  const webhooks = () => new SlackWebhooks({ baseUrl: slack.url, timeoutMs: 2000 });

  test('200 ok posts the message once', async () => {
    const hook = slack.addWebhook();
    await webhooks().post(hook.url, leadMessage(lead));
    expect(slack.messages.filter((m) => m.path === hook.path)).toHaveLength(1);
  });

  test('429 is retried after its Retry-After; nothing is posted', async () => {
    const hook = slack.addWebhook();
    slack.failNext(429, { retryAfter: 30 });
    const err = await failureOf(webhooks().post(hook.url, leadMessage(lead)));
    expect(err).toMatchObject({ status: 429, permanent: false, retryAfterSeconds: 30 });
    expect(err.message).toBe('Slack answered HTTP 429: rate_limited');
  });

  test('500 rollup_error backs off', async () => {
    const hook = slack.addWebhook();
    slack.failNext(500);
    expect(await failureOf(webhooks().post(hook.url, leadMessage(lead)))).toMatchObject({
      status: 500,
      permanent: false,
      message: 'Slack answered HTTP 500: rollup_error',
    });
  });

  test.each([
    ['archived', 410, 'channel_is_archived', "the webhook's channel is archived"],
    ['revoked', 404, 'no_service', 'the webhook was removed or revoked in Slack'],
  ] as const)('%s: %i %s is permanent, said plainly, without the URL', async (what, status, code, meaning) => {
    const hook = slack.addWebhook();
    if (what === 'archived') slack.archive(hook);
    else slack.revoke(hook);
    const err = await failureOf(webhooks().post(hook.url, leadMessage(lead)));
    expect(err).toMatchObject({ status, permanent: true });
    expect(err.message).toContain(`Slack answered HTTP ${status}: ${code} (${meaning}`);
    expect(err.message).not.toContain(hook.path.split('/').pop());
  });

  test('403 action_prohibited is permanent', async () => {
    const hook = slack.addWebhook();
    slack.failNext(403, { body: 'action_prohibited' });
    const err = await failureOf(webhooks().post(hook.url, leadMessage(lead)));
    expect(err).toMatchObject({ status: 403, permanent: true });
    expect(err.message).toContain('action_prohibited (the workspace does not allow');
  });

  test('blocks Slack refuses are 400 invalid_blocks, permanent', async () => {
    const hook = slack.addWebhook();
    const err = await failureOf(webhooks().post(hook.url, { text: 'x', blocks: [{ type: 'nonsense' } as any] }));
    expect(err).toMatchObject({ status: 400, permanent: true });
    expect(err.message).toContain('invalid_blocks');
  });

  test('no answer (connection refused) is retried; the error holds no secret', async () => {
    const hook = slack.addWebhook();
    const closed = new SlackWebhooks({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    const err = await failureOf(closed.post(hook.url, leadMessage(lead)));
    expect(err).toMatchObject({ permanent: false });
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/^Slack did not answer: /);
    expect(err.message).not.toContain(hook.path.split('/').pop());
  });
});
