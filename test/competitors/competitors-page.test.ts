import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from '../setup/stack';
import { uid } from '../leads/fixtures';
import { launchBrowser, newProfile, screenshot, signUp, watchPage } from '../dashboard/browser';

/** The competitors' page in Chromium: add one, refuse a bad one, change its handles, remove it. */
let stack: Stack;
let browser: Browser;
let profile: BrowserContext;
let page: Page;
let accountId: string;
let seen: ReturnType<typeof watchPage>;

const stored = async () =>
  (
    (await stack.db.query(
      `SELECT name, domain, bluesky_handles FROM competitors WHERE account_id = $1 ORDER BY domain`,
      [accountId],
    )) as { name: string; domain: string; bluesky_handles: string[] }[]
  ).map((row) => `${row.name}@${row.domain}[${row.bluesky_handles.join(' ')}]`);
const notice = async () => ((await page.textContent('.notice')) ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ worker: false }), launchBrowser()]);
  profile = await newProfile(browser, stack.url);
  page = await profile.newPage();
  seen = watchPage(page);
  const email = `${uid('rivals')}@example.com`;
  await signUp(page, stack.url, email);
  [{ account_id: accountId }] = await stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [email]);
});
afterAll(async () => {
  await profile?.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

test('a competitor added from the nav is stored normalised; a bad domain is named and stores nothing', async () => {
  await page.goto(`${stack.url}/`);
  await page.click('nav.main a:has-text("Competitors")');
  await page.waitForURL(`${stack.url}/competitors`);
  await page.fill('#name', 'Rival Inc');
  await page.fill('#domain', 'https://www.Rival.com/pricing');
  await page.fill('#handles', '@Rival.bsky.social');
  await page.click('button:has-text("Add")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe('Rival Inc (rival.com) added.');
  expect(await stored()).toEqual(['Rival Inc@rival.com[rival.bsky.social]']);
  expect(await page.textContent('#competitors tbody')).toContain('rival.com');
  await screenshot(page, 'competitors-added');

  await page.fill('#name', 'Nobody');
  await page.fill('#domain', 'not a domain');
  await page.click('button:has-text("Add")');
  await page.waitForSelector('.notice');
  expect(await notice()).toContain('domain: must be a domain or website such as acme.com');
  expect(await stored()).toEqual(['Rival Inc@rival.com[rival.bsky.social]']);
});

test('its handles are changed in place; remove asks first, then it is gone', async () => {
  await page.fill('#competitors tbody tr input[name="handles"]', 'rival.com, rivalhq.bsky.social');
  await page.click('#competitors tbody tr button:has-text("Save")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe("Rival Inc's handles saved.");
  expect(await stored()).toEqual(['Rival Inc@rival.com[rival.com rivalhq.bsky.social]']);

  await page.click('#competitors tbody tr button:has-text("Remove")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe('Competitor removed.');
  expect(seen.dialogs).toEqual([expect.stringContaining('confirm: Remove Rival Inc?')]);
  expect(await stored()).toEqual([]);
  expect(seen.errors).toEqual([]);
});
