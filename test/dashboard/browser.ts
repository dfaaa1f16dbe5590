import { mkdirSync } from 'node:fs';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Stack } from '../setup/stack';
import { confirmationLinkOf, mailboxAt } from '../setup/mailbox';

/** Where the journeys keep a screenshot of every page they pass (gitignored). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', '..', 'test-output', 'screenshots');

/** The Chromium that the @sparticuz/chromium package carries, driven by playwright-core: nothing from the OS. */
export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}

/** A fresh browser profile (own cookies) allowed to use the clipboard, at a given width. */
export async function newProfile(
  browser: Browser,
  origin: string,
  options: { width?: number } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1200, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Every script error the page reports, so a test can assert none happened (and no alert opened). */
export function watchPage(page: Page): { errors: string[]; dialogs: string[] } {
  const seen = { errors: [] as string[], dialogs: [] as string[] };
  page.on('pageerror', (err) => seen.errors.push(err.message));
  page.on('console', (msg) => {
    // Refusals answer 4xx pages on purpose; Chromium logs each as a failed load, which is no script error.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) seen.errors.push(msg.text());
  });
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    // Confirmations of our own (delete, regenerate) are accepted; an alert would be an injected script.
    void (dialog.type() === 'confirm' ? dialog.accept() : dialog.dismiss());
  });
  return seen;
}

export const PASSWORD = 'correct horse battery';

/**
 * Signs up through the pages as a person does: the form, then the link of the mail the stack's
 * local SMTP server received, then its button; the page ends on the overview.
 */
export async function signUp(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/sign-up`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button:has-text("Create account")');
  await page.waitForSelector('h1:has-text("Check your email")');
  await finishSignUpFromMail(page, baseUrl, email);
}

/** Opens the sign-up link mailed to `email` and finishes the sign-up; the page ends on the overview. */
export async function finishSignUpFromMail(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(confirmationLinkOf(await mailboxAt(baseUrl).take(email)));
  await page.click('button:has-text("Create my account")');
  await page.waitForURL(`${baseUrl}/`);
}

/** Submits the sign-in form; answers the HTTP status of the answer page. */
export async function signIn(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<number> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
  return response?.request().redirectedFrom() ? 303 : (response?.status() ?? 0);
}

/**
 * For a test file: its stack and one browser, started before the tests, and a fresh profile
 * (cookies of its own) per person a test needs; everything closed after the file.
 */
export function useBrowserStack(start: () => Promise<Stack>) {
  const state = {
    stack: undefined as unknown as Stack,
    browser: undefined as unknown as Browser,
    profiles: [] as BrowserContext[],
  };
  beforeAll(async () => {
    [state.stack, state.browser] = await Promise.all([start(), launchBrowser()]);
  });
  afterAll(async () => {
    // A profile the browser already dropped cannot be closed again; the browser's close ends the rest.
    for (const profile of state.profiles) await profile.close().catch(() => undefined);
    await state.browser?.close();
    await state.stack?.stop();
  });
  return {
    get stack() {
      return state.stack;
    },
    async freshPage(options: { width?: number } = {}): Promise<Page> {
      const profile = await newProfile(state.browser, state.stack.url, options);
      state.profiles.push(profile);
      return profile.newPage();
    },
  };
}

/** An element's text with its whitespace collapsed, as a reader sees it. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
}

/** The cells of a table's body rows, each trimmed. */
export async function tableRows(page: Page, selector = 'main table'): Promise<string[][]> {
  return page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(`${selector} tbody tr`)})].map((r) => [...r.cells].map((c) => c.textContent.replace(/\\s+/g, ' ').trim()))`,
  );
}
