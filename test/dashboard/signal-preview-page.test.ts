import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from '../setup/stack';
import { uid } from '../leads/fixtures';
import { launchBrowser, newProfile, screenshot, signUp, watchPage } from './browser';

/**
 * The cost preview in the signal forms, in Chromium: it follows the form as it changes, and a
 * browser without the script gets it from the form's Preview button. Nothing is created.
 */
let stack: Stack;
let browser: Browser;
let profile: BrowserContext;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let accountId: string;

const panelValue = (name: string) => page.textContent(`#signal-preview [data-preview=${name}]`);
/** Waits until the panel, refreshed by the page's script, shows this many matching events. */
const matchingEventsShown = (count: string) =>
  page.waitForSelector(`#signal-preview [data-preview=matchingEvents]:text-is("${count}")`);
const signalCount = async () =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM signals WHERE account_id = $1`, [accountId]))[0].n as number;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ worker: false }), launchBrowser()]);
  await stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain) VALUES ('pp_acme', 'Acme', 'acme', 'acme-pp.com')`,
  );
  await stack.db.query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id) VALUES
    ('pp_ada', 'Ada', 'A', 'CTO', 'Chief Technology Officer', 'pp_acme'),
    ('pp_bob', 'Bob', 'B', 'CFO', 'Chief Financial Officer', 'pp_acme'),
    ('pp_cy',  'Cy',  'C', 'CFO', 'Chief Financial Officer', 'pp_acme')`);
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES
    ('pp_e1', 'job_change', now() - interval '2 days', 'pp_acme', 'pp_ada'),
    ('pp_e2', 'job_change', now() - interval '3 days', 'pp_acme', 'pp_bob'),
    ('pp_e3', 'job_change', now() - interval '4 days', 'pp_acme', 'pp_cy')`);
  profile = await newProfile(browser, stack.url);
  page = await profile.newPage();
  seen = watchPage(page);
  const email = `${uid('preview')}@example.com`;
  await signUp(page, stack.url, email);
  [{ account_id: accountId }] = await stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [email]);
  // The create form needs a key whose secret signs the webhooks.
  await page.goto(`${stack.url}/api-keys`);
  await page.fill('#keyName', 'Preview key');
  await page.click('button:has-text("Create key")');
  await page.waitForSelector('#new-api-key');
});
afterAll(async () => {
  await profile?.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

test('the preview follows the form as personas are chosen, and saves nothing', async () => {
  await page.goto(`${stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Finance leaders');
  await page.selectOption('#jobTitles', ['Chief Financial Officer']);
  await matchingEventsShown('2');
  // 2 leads over 30 days at 2 credits each.
  expect(await panelValue('expectedCreditsPerDay')).toBe('0.1');
  await page.selectOption('#jobTitles', ['Chief Financial Officer', 'Chief Technology Officer']);
  await matchingEventsShown('3');
  await screenshot(page, 'signal-preview');
  expect(await signalCount()).toBe(0);
  expect(seen.errors).toEqual([]);
});

test('an edit form previews the signal as it would be after the change', async () => {
  await page.goto(`${stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'CTOs');
  await page.selectOption('#jobTitles', ['Chief Technology Officer']);
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = /\/signals\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.goto(`${stack.url}/signals/${id}/edit`);
  await matchingEventsShown('1');
  await page.selectOption('#jobTitles', ['Chief Financial Officer']);
  await matchingEventsShown('2');
  expect(await signalCount()).toBe(1);
  expect(seen.errors).toEqual([]);
});

test('the preview names, in words, the filter that removed the last candidates; the funnel reads in words (issue 38)', async () => {
  await page.goto(`${stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Big-company CTOs');
  // Job title removes the two CFOs (the most); company size then removes the last one, Ada.
  await page.selectOption('#jobTitles', ['Chief Technology Officer']);
  await matchingEventsShown('1');
  await page.check('input[name=companySizeFilters][value="10001+"]');
  await matchingEventsShown('0');
  const decisive = page.locator('#signal-preview [data-preview=decisiveStage]');
  expect(await decisive.getAttribute('data-stage')).toBe('companySizeFilters');
  expect(await decisive.textContent()).toBe('No candidate is left after “Company size”, which removes the last 1.');
  await screenshot(page, 'signal-preview-decisive-stage');

  await page.uncheck('input[name=companySizeFilters][value="10001+"]');
  await matchingEventsShown('1');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const funnel = (await page.locator('figure.chart svg text').allTextContents()).join(' | ');
  for (const words of ['Job title', 'Company size', 'Age of the job change', 'Daily lead limit']) {
    expect(funnel).toContain(words);
  }
  for (const key of ['jobTitles', 'companySizeFilters', 'maxJobAgeDays', 'dailyLeadLimit']) {
    expect(funnel).not.toContain(key);
  }
  expect(await page.locator('nav.pager').textContent()).toContain('0 leads');
  // The list counts in words too: "2 signals", not "2 signal(s)" (this test's and the edit test's).
  await page.goto(`${stack.url}/signals`);
  const body = (await page.textContent('body')) ?? '';
  expect(body).toMatch(/\b2 signals\b/);
  expect(body).not.toContain('(s)');
  expect(seen.errors).toEqual([]);
});

test('without the script, the Preview button shows the same numbers on the re-rendered form', async () => {
  const before = await signalCount();
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies(await profile.cookies());
  const noScript = await plain.newPage();
  await noScript.goto(`${stack.url}/signals/new/job-changes`);
  await noScript.fill('#name', 'Finance leaders');
  await noScript.selectOption('#jobTitles', ['Chief Financial Officer']);
  await noScript.click('button:has-text("Preview cost")');
  await noScript.waitForSelector('#signal-preview [data-preview=matchingEvents]');
  expect(await noScript.textContent('#signal-preview [data-preview=matchingEvents]')).toBe('2');
  // The form keeps what was chosen, ready to create.
  expect(await noScript.$eval('#name', (input) => (input as unknown as { value: string }).value)).toBe(
    'Finance leaders',
  );
  expect(await signalCount()).toBe(before);
  // The browser runs in one process: closing this profile would end it; afterAll closes the browser.
});
