import type { Page } from 'playwright-core';
import { startStack, STACK_START_MS } from '../setup/stack';
import { signUp, textOf, useBrowserStack, watchPage } from '../dashboard/browser';
import {
  client,
  draftSignalFor,
  expectAnswer,
  FAST_DELIVERY_ENV,
  ingestJobChanger,
  settledDeliveries,
  type Client,
} from '../integrations/helpers';
import { start as startSlack, type SlackServer } from '../vendors/slack-server';

/**
 * The Slack part of a signal's destinations form, in the browser: a refused URL changes nothing,
 * a saved one is never shown back but masked, its lead reaches Slack, and unticking pauses it.
 */
let slack: SlackServer;
const session = useBrowserStack(async () => {
  slack = await startSlack();
  return startStack({ env: { ...FAST_DELIVERY_ENV, SLACK_WEBHOOKS_URL: slack.url } });
});
afterAll(() => slack?.close());

let page: Page;
let watched: ReturnType<typeof watchPage>;
let api: Client;

beforeAll(async () => {
  page = await session.freshPage();
  watched = watchPage(page);
  await signUp(page, session.stack.url, 'slack-owner@example.com');
  const [{ account_id: accountId }] = await session.stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [
    'slack-owner@example.com',
  ]);
  const key = await session.stack.services.apiKeys.create(accountId, { name: 'tests' });
  await session.stack.services.credits.grant(accountId, 100, 'test credits');
  api = client(session.stack, { accountId, keyId: key.id, apiKey: key.apiKey, webhookSecret: key.webhookSecret });
}, STACK_START_MS);

async function save(): Promise<string> {
  await page.click('#destinations button[type="submit"]');
  await page.waitForSelector('.notice');
  return textOf(page, '.notice');
}

test('a Slack webhook set on the signal page: checked, masked, delivered to, paused', async () => {
  const webhook = slack.addWebhook();
  const secret = webhook.path.split('/').pop()!;
  const person = await ingestJobChanger(session.stack);
  const signal = await draftSignalFor(api, person);
  const signalPage = `${session.stack.url}/signals/${signal.id}`;

  await page.goto(signalPage);
  await page.check('#slack-enabled');
  await page.fill('#slack-webhook', webhook.url.replace('https://', 'http://'));
  expect(await save()).toContain('destinations.slack.webhookUrl: must be an https:// URL');
  expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({});

  await page.goto(signalPage);
  await page.check('#slack-enabled');
  await page.fill('#slack-webhook', webhook.url);
  expect(await save()).toContain('Destinations saved');
  const masked = expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations.slack.webhookUrl;
  expect(masked).toMatch(/^https:\/\/hooks\.slack\.com\/services\/T[0-9A-F]{4}…\/…$/);
  expect(await textOf(page, '#destinations fieldset')).toContain(`saved: ${masked}`);
  expect(await page.inputValue('#slack-webhook')).toBe('');
  expect(await page.content()).not.toContain(secret);

  await page.click('button:has-text("Activate")');
  await page.waitForSelector('.notice.ok:has-text("Active")');
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'slack', status: 'delivered' });
  expect(slack.messages.filter((m) => m.path === webhook.path)).toHaveLength(1);
  // The lead has its own anchor on the signal's page: where a message's dashboard link lands.
  await page.goto(`${signalPage}#lead-${delivery.leadId}`);
  expect(await textOf(page, `#lead-${delivery.leadId} summary`)).toContain(person.companyName);

  // Unticked with the URL field left empty: paused, the stored URL kept.
  await page.uncheck('#slack-enabled');
  expect(await save()).toContain('Destinations saved');
  expect(expectAnswer(await api.get(`/signals/${signal.id}`), 200).destinations).toEqual({
    slack: { enabled: false, webhookUrl: masked },
  });
  expect(watched.errors).toEqual([]);
});
