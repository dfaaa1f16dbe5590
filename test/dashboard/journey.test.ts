import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { daysAgo, ingest, jobChanger, startLeadsStack, uid, waitFor } from '../leads/fixtures';
import { finishSignUpFromMail, launchBrowser, newProfile, screenshot, watchPage } from './browser';

/**
 * The newcomer's journey in a real browser: sign up, make a key, make an active job-changes
 * signal whose webhook is a verifying receiver, watch a lead and its delivery appear, reveal
 * and regenerate the secret (the receiver then verifies with the new one), pause, sign out.
 */
let stack: Stack;
let browser: Browser;
let profile: BrowserContext;
let page: Page;
let receiver: Receiver;

beforeAll(async () => {
  [stack, browser, receiver] = await Promise.all([startLeadsStack(), launchBrowser(), startReceiver()]);
  profile = await newProfile(browser, stack.url);
  page = await profile.newPage();
});

afterAll(async () => {
  await profile?.close();
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

const textOf = async (selector: string) => ((await page.textContent(selector)) ?? '').trim();

test('sign up, key, signal, leads and deliveries, secret, pause, sign out', async () => {
  const seen = watchPage(page);
  const email = `${uid('owner')}@example.com`;

  // A visitor is sent to sign in; from there, to sign up.
  const first = await page.goto(`${stack.url}/`);
  expect(page.url()).toBe(`${stack.url}/sign-in?next=%2F`);
  expect(first?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(first?.headers()['referrer-policy']).toBe('no-referrer');
  await screenshot(page, '01-sign-in');
  await page.click('text=Create an account');
  await page.fill('#email', email);
  await page.fill('#password', 'correct horse battery');
  await page.fill('#accountName', 'Journey Inc');
  await screenshot(page, '02-sign-up');
  await page.click('button:has-text("Create account")');
  // The address is confirmed by the mailed link, which finishes the sign-up.
  expect(await textOf('h1')).toBe('Check your email');
  await screenshot(page, '02b-check-your-email');
  await finishSignUpFromMail(page, stack.url, email);

  // The overview of a new account: starter credits (100 outside production), nothing else yet.
  await page.waitForURL(`${stack.url}/`);
  expect(await textOf('#balance')).toBe('100');
  const cookie = (await profile.cookies()).find((c) => c.name === 'intent_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
  await screenshot(page, '03-overview-new');

  // A key, shown once, copied with the button; it works on the REST API.
  await page.click('nav >> text=API keys');
  await page.fill('#keyName', 'Journey key');
  await page.click('button:has-text("Create key")');
  const apiKey = await textOf('#new-api-key');
  const firstSecret = await textOf('#new-webhook-secret');
  expect(apiKey).toMatch(/^USR_/);
  expect(firstSecret).toMatch(/^whsec_/);
  await page.click('button[data-copy="new-api-key"]');
  await page.waitForSelector('#new-api-key-status:has-text("Copied")');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
  await screenshot(page, '04-api-key-created');
  const balance = await call(`${stack.url}/api/v1/credits/balance`, { token: apiKey });
  expect(balance).toMatchObject({ status: 200, body: { balance: 100 } });
  // Listed by its prefix only, never in full, once the page is left.
  await page.goto(`${stack.url}/api-keys`);
  expect(await page.content()).not.toContain(apiKey);
  expect(await page.content()).toContain(`${apiKey.slice(0, 10)}…`);

  // Data the signal will find, then the signal itself, active, delivering to the receiver.
  receiver.setSecret(firstSecret);
  const cto = jobChanger(uid('cto'), daysAgo(2), { title: 'CTO' });
  await ingest(stack, cto.records);
  await page.click('nav >> text=Signals');
  await page.click('text=New job-changes signal');
  await page.fill('#name', 'New CTOs');
  await page.fill('#webhookUrl', receiver.url);
  await page.selectOption('#jobTitles', ['Chief Technology Officer']);
  await page.check('input[name=activate]');
  await screenshot(page, '05-signal-form');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\/signals\/[0-9a-f-]{36}\?notice=created$/);
  const signalId = /\/signals\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  // The lead arrives at the receiver, signed with the key's secret, and shows with its delivery log.
  const [delivered] = await receiver.waitFor(1);
  expect(delivered!.verified).toBe(true);
  expect(delivered!.body.contact.first_name).toBe(cto.person.firstName);
  await waitFor(
    'the lead and its delivered attempt on the signal page',
    async () => {
      await page.goto(`${stack.url}/signals/${signalId}`);
      return page.locator('details.lead').first().textContent();
    },
    (text) => Boolean(text?.includes(cto.company.name) && text.includes('delivered')),
  );
  await page.click('details.lead summary');
  const attempt = page.locator('table.delivery-log tbody tr').first();
  expect(await attempt.textContent()).toContain('HTTP 200');
  expect(await attempt.textContent()).toContain('webhook');
  expect(await textOf('#leads-total')).toBe('1');
  await screenshot(page, '06-signal-with-lead');

  // Test webhook from the page: the receiver answers, the page says so.
  await page.click('button:has-text("Send test webhook")');
  await page.waitForSelector('.notice.ok:has-text("Test webhook delivered")');
  await receiver.waitFor(2);
  expect(receiver.requests[1]!.verified).toBe(true);
  expect(receiver.requests[1]!.body.signal.is_test).toBe(true);

  // The secret: revealed as it is, then regenerated (with the warning), and the new one signs.
  await page.click('nav >> text=API keys');
  await page.click('button:has-text("Reveal")');
  expect(await textOf('#webhook-secret')).toBe(firstSecret);
  await screenshot(page, '07-secret-revealed');
  await page.click('button:has-text("Regenerate")');
  await page.waitForSelector('.notice.warn:has-text("must switch to the new secret")');
  const newSecret = await textOf('#webhook-secret');
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(firstSecret);
  expect(seen.dialogs).toEqual([expect.stringMatching(/^confirm: Every receiver .* must switch to the new secret/)]);
  await screenshot(page, '08-secret-regenerated');
  receiver.setSecret(newSecret);
  const second = jobChanger(uid('cto'), daysAgo(1), { title: 'CTO' });
  await ingest(stack, second.records);
  const evaluated = await call(`${stack.url}/admin/v1/signals/${signalId}/evaluate`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  expect(evaluated.status).toBe(202);
  const afterRegeneration = await receiver.waitFor(3);
  expect(afterRegeneration[2]!.body.contact.first_name).toBe(second.person.firstName);
  expect(afterRegeneration[2]!.verified).toBe(true);

  // The overview counts what happened today.
  await page.click('nav >> text=Overview');
  expect(await textOf('#balance')).toBe('96');
  expect(await page.locator('.chart svg rect.bar-leads').count()).toBe(30);
  expect(await page.textContent('main')).toContain('New CTOs');
  await screenshot(page, '09-overview-with-leads');

  // Pause, then sign out: the pages want a sign-in again.
  await page.goto(`${stack.url}/signals/${signalId}`);
  await page.click('button:has-text("Pause")');
  await page.waitForSelector('.badge.paused');
  const paused = await call(`${stack.url}/api/v1/signals/${signalId}`, { token: apiKey });
  expect(paused.body.status).toBe('paused');
  await screenshot(page, '10-signal-paused');
  await page.click('button:has-text("Sign out")');
  await page.waitForURL(`${stack.url}/sign-in`);
  await page.goto(`${stack.url}/signals/${signalId}`);
  expect(page.url()).toContain('/sign-in?next=');
  await screenshot(page, '11-signed-out');

  expect(seen.errors).toEqual([]);
});
