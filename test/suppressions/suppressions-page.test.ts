import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from '../setup/stack';
import { uid } from '../leads/fixtures';
import { launchBrowser, newProfile, screenshot, signUp, watchPage } from '../dashboard/browser';

/** The suppression list's page in Chromium: add values, paste a CSV, filter, remove. */
let stack: Stack;
let browser: Browser;
let profile: BrowserContext;
let page: Page;
let accountId: string;
let seen: ReturnType<typeof watchPage>;

const storedValues = async () =>
  (
    (await stack.db.query(`SELECT kind, value, note FROM suppressions WHERE account_id = $1 ORDER BY value`, [
      accountId,
    ])) as { kind: string; value: string; note: string | null }[]
  ).map((row) => `${row.kind}:${row.value}${row.note ? ` (${row.note})` : ''}`);
const notice = async () => ((await page.textContent('.notice')) ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ worker: false }), launchBrowser()]);
  profile = await newProfile(browser, stack.url);
  page = await profile.newPage();
  seen = watchPage(page);
  const email = `${uid('suppress')}@example.com`;
  await signUp(page, stack.url, email);
  [{ account_id: accountId }] = await stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [email]);
});
afterAll(async () => {
  await profile?.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

test('values added a line each are stored normalised; an unusable one is named', async () => {
  await page.goto(`${stack.url}/`);
  await page.click('nav.main a:has-text("Suppressions")');
  await page.waitForURL(`${stack.url}/suppressions`);
  await page.selectOption('#kind', 'domain');
  await page.fill('#values', 'https://www.Rival.com/pricing\nnot a domain\nrival.com');
  await page.fill('#note', 'competitor');
  await page.click('button:has-text("Add to the list")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe(
    '1 added, 1 already on the list, 1 not usable (not a domain: "not a domain" is not a domain such as acme.com).',
  );
  expect(await storedValues()).toEqual(['domain:rival.com (competitor)']);
  expect(await page.textContent('#suppressions tbody')).toContain('rival.com');
  await screenshot(page, 'suppressions-added');
});

test('a pasted CSV is counted line by line; the kind filter narrows the table', async () => {
  await page.fill('#csv', 'kind,value,note\nemail,Ceo@Acme.com,"board, chair"\nfax,123,\n');
  await page.click('button:has-text("Upload")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe('1 added, 1 not usable (line 3: kind must be one of email, domain, company_url).');
  expect(await storedValues()).toEqual(['email:ceo@acme.com (board, chair)', 'domain:rival.com (competitor)']);
  await page.selectOption('#kindFilter', 'email');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/kind=email/);
  const rows = await page.$$eval('#suppressions tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain('ceo@acme.com');
});

test('remove asks first, then the entry is gone', async () => {
  await page.click('#suppressions tbody tr button:has-text("Remove")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe('Entry removed.');
  expect(seen.dialogs).toEqual([expect.stringContaining('confirm: Remove ceo@acme.com?')]);
  expect(await storedValues()).toEqual(['domain:rival.com (competitor)']);
  expect(seen.errors).toEqual([]);
});

test('search by value narrows the table to entries holding the text, with the kind filter or without (issue 38)', async () => {
  await page.goto(`${stack.url}/suppressions`);
  await page.selectOption('#kind', 'email');
  await page.fill('#values', 'jane@rival.com\nbob@other.org\nrival.partner@acme.com');
  await page.click('button:has-text("Add to the list")');
  await page.waitForSelector('.notice');
  expect(await notice()).toBe('3 added.');
  const shownValues = () =>
    page.$$eval('#suppressions tbody tr td[data-label=Value]', (tds) => tds.map((td) => td.textContent?.trim() ?? ''));

  await page.fill('#q', 'RIVAL');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/q=RIVAL/);
  expect((await shownValues()).sort()).toEqual(['jane@rival.com', 'rival.com', 'rival.partner@acme.com']);
  expect(await page.textContent('main h2:text-matches("^Entries")')).toBe('Entries (3)');

  await page.selectOption('#kindFilter', 'email');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/kind=email/);
  expect((await shownValues()).sort()).toEqual(['jane@rival.com', 'rival.partner@acme.com']);
  expect(await page.inputValue('#q')).toBe('RIVAL');

  await page.fill('#q', 'nobody-here');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/q=nobody-here/);
  expect(await shownValues()).toEqual([]);
  expect(await page.textContent('main')).toContain('No entry of this kind holding “nobody-here”.');
  await page.click('a:has-text("Show every entry")');
  await page.waitForURL(`${stack.url}/suppressions`);
  expect(await shownValues()).toHaveLength(4);
  expect(seen.errors).toEqual([]);
});
