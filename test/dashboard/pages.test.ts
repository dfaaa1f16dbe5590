import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Stack } from '../setup/stack';
import { call } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { daysAgo, ingest, jobChanger, uid, waitFor } from '../leads/fixtures';
import { startIntegrationsStack, startVendors, stopVendors, type Vendors } from '../integrations/helpers';
import { launchBrowser, newProfile, screenshot, signUp, watchPage, textOf } from './browser';

/**
 * The other pages over the same services as REST: watchlist creation, edit with a refused
 * location, replay, credits filtered by signal, a sequencer's key form, delete; phone width
 * and the keyboard.
 */
let stack: Stack;
let vendors: Vendors;
let browser: Browser;
let profile: BrowserContext;
let page: Page;
let receiver: Receiver;
let apiKey: string;
let seen: ReturnType<typeof watchPage>;

beforeAll(async () => {
  vendors = await startVendors();
  [stack, browser, receiver] = await Promise.all([startIntegrationsStack(vendors), launchBrowser(), startReceiver()]);
  profile = await newProfile(browser, stack.url);
  page = await profile.newPage();
  seen = watchPage(page);
  await signUp(page, stack.url, `${uid('pages')}@example.com`);
  // A key made from the keyboard alone: focus the field, type, Enter.
  await page.goto(`${stack.url}/api-keys`);
  await page.focus('#keyName');
  await page.keyboard.type('Keyboard key');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#new-api-key');
  apiKey = ((await page.textContent('#new-api-key')) ?? '').trim();
  receiver.setSecret(((await page.textContent('#new-webhook-secret')) ?? '').trim());
});

afterAll(async () => {
  await profile?.close().catch(() => undefined);
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
  await stopVendors(vendors);
});

const rest = (path: string) => call(`${stack.url}/api/v1${path}`, { token: apiKey });
const signalIdOfPage = () => /\/signals\/([0-9a-f-]{36})/.exec(page.url())![1]!;

test('an account-watchlist signal from the form: companies watched, sources as chosen', async () => {
  await page.goto(`${stack.url}/signals/new/account-watchlist`);
  await page.fill('#name', 'Watched accounts');
  await page.fill('#companies', 'acme.com\nhttps://www.linkedin.com/company/globex\n');
  await page.uncheck('input[name=sources][value=job_offers]');
  await page.check('input[name=sources][value=company_news]');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = signalIdOfPage();
  const stored = await rest(`/signals/${id}`);
  expect(stored.body).toMatchObject({ signalTypeId: 'account_watchlist', status: 'draft' });
  expect(stored.body.config.sources.job_offers).toEqual({ enabled: false });
  expect(stored.body.config.sources.company_news).toEqual({ enabled: true });
  expect((await rest(`/watchlists/${id}/companies`)).body.total).toBe(2);
  await page.goto(`${stack.url}/signals`);
  expect(await page.textContent('main table')).toContain('Account watchlist');
});

test('editing refuses an unknown location with its reason and keeps the signal as it was', async () => {
  await page.goto(`${stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Edit me');
  await page.selectOption('#jobTitles', ['Chief Technology Officer']);
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = signalIdOfPage();
  await page.click('a[href$="/edit"]');
  await page.fill('#locations', 'Atlantis Under The Sea');
  await page.fill('#name', 'Renamed');
  await page.click('button:has-text("Save changes")');
  expect(await textOf(page, '.notice.error')).toContain('Atlantis Under The Sea');
  expect((await rest(`/signals/${id}`)).body.name).toBe('Edit me');
  await page.fill('#locations', 'Texas');
  await page.fill('#dailyLeadLimit', '7');
  await page.click('button:has-text("Save changes")');
  await page.waitForURL(/\?notice=saved$/);
  expect((await rest(`/signals/${id}`)).body).toMatchObject({
    name: 'Renamed',
    dailyLeadLimit: 7,
    config: { locations: ['Texas'], jobTitles: ['Chief Technology Officer'] },
  });
  // Resume (activate) and delete from the page.
  await page.click('button:has-text("Activate")');
  await page.waitForSelector('.badge.active');
  await page.click('button:has-text("Delete")');
  await page.waitForURL(`${stack.url}/signals`);
  expect((await rest(`/signals/${id}`)).status).toBe(404);
});

test('replay from the page shows its progress and result; credits filter by signal', async () => {
  const cto = jobChanger(uid('replay'), daysAgo(1), { title: 'CTO' });
  await ingest(stack, cto.records);
  await page.goto(`${stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Replayed');
  await page.fill('#webhookUrl', receiver.url);
  await page.fill('#customTitles', 'CTO');
  await page.check('input[name=activate]');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = signalIdOfPage();
  await receiver.waitFor(1);
  await page.click('button:has-text("Replay all leads")');
  expect(await page.locator('form[action$="/replay"] button').textContent()).toMatch(/Replaying|Replay all leads/);
  await page.waitForSelector('.notice:has-text("Replay done: 1 lead, 1 delivered, 0 failed.")');
  expect(seen.dialogs).toContain('confirm: Send every lead of this signal to the webhook again?');
  const replayed = receiver.requests.find((r) => r.body?.signal?.is_replay === true);
  expect(replayed?.verified).toBe(true);
  // The replay's own delivery shows in that lead's log beside the first one.
  await waitFor(
    'both deliveries in the log',
    async () => {
      await page.goto(`${stack.url}/signals/${id}`);
      return page.locator('details.lead h3.delivery').count();
    },
    (n) => n === 2,
  );

  await page.goto(`${stack.url}/credits?signalId=${id}`);
  const rows = await page.locator('main table tbody tr').allTextContents();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain('lead');
  expect(rows[0]).toContain('-2');
  await page.goto(`${stack.url}/credits`);
  expect(await page.locator('main table tbody tr').count()).toBe(2); // the grant and the lead
  await screenshot(page, 'pages-credits');
});

test("a sequencer's key: refused by the tool with its reason, then connected and never shown", async () => {
  await page.goto(`${stack.url}/integrations`);
  await page.fill('#lemlist-key', 'wrong-key');
  await page.click('form[action="/integrations/lemlist"] button');
  expect(await textOf(page, '.notice.error')).toContain('apiKey');
  await page.fill('#lemlist-key', vendors.lemlist.apiKey);
  await page.click('form[action="/integrations/lemlist"] button');
  await page.waitForSelector('.notice.ok:has-text("lemlist connected")');
  expect(await page.content()).not.toContain(vendors.lemlist.apiKey);
  const overview = await rest('/integrations');
  expect(overview.body.integrations.find((i: { provider: string }) => i.provider === 'lemlist').connected).toBe(true);
  // This service has no OAuth app of any CRM configured: the page says so instead of offering to connect.
  for (const tool of ['hubspot', 'salesforce', 'pipedrive', 'google-sheets'])
    expect(await textOf(page, `#connect-${tool}`)).toMatch(/: not configured on this service$/);
  expect(await page.locator('a[href$="/connect"]').count()).toBe(0);
  await screenshot(page, 'pages-integrations');
});

test('pages fit a phone screen without sideways scrolling', async () => {
  const phone = await newProfile(browser, stack.url, { width: 390 });
  const small = await phone.newPage();
  await signUp(small, stack.url, `${uid('phone')}@example.com`);
  for (const path of ['/', '/signals', '/signals/new/job-changes', '/api-keys', '/integrations', '/credits', '/team']) {
    await small.goto(`${stack.url}${path}`);
    const overflow = await small.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect({ path, overflow }).toEqual({ path, overflow: 0 });
  }
  await screenshot(small, 'pages-phone-team');
  expect(seen.errors).toEqual([]);
});
