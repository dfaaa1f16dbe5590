import type { Page } from 'playwright-core';
import { startStack } from '../setup/stack';
import { call } from '../setup/http';
import { company, daysAgo, ingest, jobChanger, person, uid, waitFor } from '../leads/fixtures';
import { screenshot, signUp, textOf, useBrowserStack, watchPage } from './browser';

/**
 * Issue 38's dashboard leftovers, in Chromium: the watchlist's entries with their match (item 3),
 * an unknown place in the form and in the preview (item 6), the preview beside the form, the
 * filterable pickers, a lead's details, the watchlist's email price (item 10).
 */
const env = useBrowserStack(() => startStack());
let page: Page;
let seen: ReturnType<typeof watchPage>;
let apiKey: string;

const signalIdOfPage = () => /\/signals\/([0-9a-f-]{36})/.exec(page.url())![1]!;
const rest = (path: string, init: { method?: string; body?: unknown } = {}) =>
  call(`${env.stack.url}/api/v1${path}`, { token: apiKey, ...init });

beforeAll(async () => {
  page = await env.freshPage();
  seen = watchPage(page);
  await signUp(page, env.stack.url, `${uid('first-hour')}@example.com`);
  await page.goto(`${env.stack.url}/api-keys`);
  await page.fill('#keyName', 'First hour');
  await page.click('button:has-text("Create key")');
  await page.waitForSelector('#new-api-key');
  apiKey = ((await page.textContent('#new-api-key')) ?? '').trim();
});

/** The entries of the watchlist page, each as its shown label and its match. */
const watchedRows = () =>
  page.$$eval('#watched-entries tbody tr', (trs) =>
    trs.map((tr) => ({
      entry: tr.querySelector('td[data-label=Entry] strong')?.textContent?.trim() ?? '',
      match: tr.getAttribute('data-match') ?? '',
      says: tr.querySelector('.match-explanation')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    })),
  );

test('a watchlist lists its entries with what each matched or why not yet; search, pages and remove', async () => {
  const slug = uid('fh').replace(/-/g, '');
  // Known companies (trusted, from the operator's ingest), a claimed one (a domain only watchlists named), a person.
  const acme = company(`acme${slug}`);
  const globex = company(`globex${slug}`, { name: `Globex ${slug}` });
  const ada = person(`ada${slug}`, acme.id, { firstName: 'Ada', lastName: 'Known', title: 'CTO' });
  await ingest(env.stack, [acme, globex, ada]);
  const claimed = `claimed${slug}.com`;
  await env.stack.db.query(
    `INSERT INTO companies (id, name, name_key, domain, provenance) VALUES ($1, $2, $2, $2, 'claimed')`,
    [`site:${claimed}`, claimed],
  );

  await page.goto(`${env.stack.url}/signals/new/account-watchlist`);
  await page.fill('#name', 'Watched in the first hour');
  await page.fill(
    '#companies',
    [
      acme.domain,
      globex.name,
      claimed,
      `unknown${slug}.com`,
      '???',
      'Nonexistent Corp Zzz',
      `https://www.linkedin.com/company/nobody${slug}`,
      ada.linkedinUrl,
    ].join('\n'),
  );
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = signalIdOfPage();
  expect(await textOf(page, '#watchlist [data-watchlist=summary]')).toBe(
    'Watching 8 entries: 4 matched a known company or person, 1 of them known from their own site only, ' +
      '1 waiting for their site to be read, 3 match nothing the service knows yet.',
  );

  // Two entries giving one name bind nothing by that name (the evaluation's rule).
  const added = await rest(`/watchlists/${id}/companies`, {
    method: 'POST',
    body: { companies: [`Initech ${slug}`, { name: `Initech ${slug}`, domain: `initech${slug}.com` }] },
  });
  expect(added.body).toMatchObject({ watched: 2, rejected: 0 });

  await page.click('a:has-text("See, search and remove watched entries")');
  await page.waitForURL(`${env.stack.url}/signals/${id}/watchlist`);
  const rows = await watchedRows();
  const matchOf = Object.fromEntries(rows.map((r) => [r.entry, r.match]));
  expect(matchOf).toEqual({
    [acme.domain!]: 'bound',
    [globex.name]: 'bound',
    [claimed]: 'claimed',
    [`unknown${slug}.com`]: 'awaitingSite',
    '???': 'unknownName',
    'Nonexistent Corp Zzz': 'unknownName',
    [`https://www.linkedin.com/company/nobody${slug}`]: 'unknownPage',
    [ada.linkedinUrl!]: 'personBound',
    [`Initech ${slug}`]: expect.stringMatching(/^(awaitingSite|sharedName)$/),
  });
  const says = Object.fromEntries(rows.map((r) => [r.entry, r.says]));
  expect(says[acme.domain!]).toBe(`Bound to ${acme.name} (${acme.domain}): its events reach this watchlist.`);
  expect(says[`unknown${slug}.com`]).toBe(
    `Not known yet: the company-profiles source adds unknown${slug}.com at its next run and reads its site, feeds and job board.`,
  );
  expect(says['Nonexistent Corp Zzz']).toContain('No known company has this name');
  expect(says[claimed]).toContain('known only from watchlists');
  expect(says[ada.linkedinUrl!]).toBe(`Watching Ada Known, CTO at ${acme.name}.`);
  const initech = rows.filter((r) => r.entry === `Initech ${slug}`).map((r) => r.match);
  expect(initech.sort()).toEqual(['awaitingSite', 'sharedName']);
  expect(rows.find((r) => r.match === 'sharedName')?.says).toContain('another entry gives the same name');
  await screenshot(page, 'watchlist-entries');

  // Search by any part of the name, domain or page.
  await page.fill('#q', 'NONEXISTENT');
  await page.click('button:has-text("Search")');
  await page.waitForURL(/q=NONEXISTENT/);
  expect((await watchedRows()).map((r) => r.entry)).toEqual(['Nonexistent Corp Zzz']);
  expect(await textOf(page, 'nav.pager span')).toBe('1 found');

  // Remove asks first; the entry is gone from the page and from the list the evaluation reads.
  await page.click('#watched-entries tbody tr button:has-text("Remove")');
  await page.waitForSelector('.notice.ok');
  expect(await textOf(page, '.notice.ok')).toBe('Entry removed: its events no longer reach this watchlist.');
  expect(seen.dialogs).toContain('confirm: Stop watching Nonexistent Corp Zzz?');
  expect(await watchedRows()).toEqual([]);
  expect((await rest(`/watchlists/${id}/companies`)).body.total).toBe(9);

  // Pages of 25: more entries through the edit form's "Add companies".
  await page.goto(`${env.stack.url}/signals/${id}/edit`);
  expect(await textOf(page, '#watchlist [data-watchlist=summary]')).toMatch(/^Watching 9 entries: /);
  await page.fill('#companies', Array.from({ length: 20 }, (_, i) => `page${i}-${slug}.com`).join('\n'));
  await page.click('button:has-text("Save changes")');
  await page.waitForURL(/\?notice=saved$/);
  await page.goto(`${env.stack.url}/signals/${id}/watchlist`);
  expect(await page.locator('#watched-entries tbody tr').count()).toBe(25);
  expect(await textOf(page, 'nav.pager span')).toBe('29 in total');
  await page.click('nav.pager a:has-text("Next")');
  await page.waitForURL(/page=2/);
  expect(await page.locator('#watched-entries tbody tr').count()).toBe(4);
  expect(seen.errors).toEqual([]);
});

test('an unknown place: the preview says why it cannot estimate, the form shows the error by the field with the suggestions', async () => {
  await page.goto(`${env.stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Near Boulder');
  await page.selectOption('#jobTitles', ['Chief Technology Officer']);
  await page.waitForSelector('#signal-preview [data-preview=matchingEvents]');
  await page.fill('#locations', 'Bouldr');
  const problem = page.locator('#signal-preview [data-preview=problem]');
  await problem.waitFor();
  const previewText = ((await problem.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  expect(previewText).toMatch(
    /^Cannot estimate the cost: Unrecognised location: “Bouldr” \(did you mean “Boulder[^”]*”/,
  );
  expect(previewText).not.toContain('/api/v1');

  await page.click('button:has-text("Create signal")');
  await page.waitForSelector('#locations-problem');
  const fieldText = await textOf(page, '#locations-problem');
  expect(fieldText).toBe(previewText.replace('Cannot estimate the cost: ', ''));
  expect(await page.getAttribute('#locations', 'aria-invalid')).toBe('true');
  expect(await textOf(page, '.notice.error')).toBe(fieldText);
  // The form keeps what was typed, and the preview still says why.
  expect(await page.inputValue('#locations')).toBe('Bouldr');
  await page.locator('#signal-preview [data-preview=problem]').waitFor();

  // The suggestion, taken as it is written, is a place.
  const suggestion = /did you mean “([^”]+)”/.exec(fieldText)![1]!;
  await page.fill('#locations', suggestion);
  await page.waitForSelector('#signal-preview [data-preview=matchingEvents]');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  expect((await rest(`/signals/${signalIdOfPage()}`)).body.config.locations).toEqual([suggestion]);
  expect(seen.errors).toEqual([]);
});

test('the cost preview sits beside the form and follows it down; on a phone it comes after the form', async () => {
  await page.goto(`${env.stack.url}/signals/new/job-changes`);
  await page.waitForSelector('#signal-preview [data-preview=matchingEvents]');
  const fields = (await page.locator('form.with-preview > .stack').boundingBox())!;
  const preview = (await page.locator('#signal-preview').boundingBox())!;
  expect(preview.x).toBeGreaterThanOrEqual(fields.x + fields.width);
  expect(Math.abs(preview.y - fields.y)).toBeLessThan(2);
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  const top = (await page.evaluate(`document.getElementById('signal-preview').getBoundingClientRect().top`)) as number;
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(900);
  await screenshot(page, 'signal-form-preview-beside');

  const phone = await env.freshPage({ width: 400 });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${env.stack.url}/signals/new/job-changes`);
  const phoneFields = (await phone.locator('form.with-preview > .stack').boundingBox())!;
  const phonePreview = (await phone.locator('#signal-preview').boundingBox())!;
  expect(phonePreview.y).toBeGreaterThanOrEqual(phoneFields.y + phoneFields.height);
});

test('long lists filter as one types, Enter picks, a plain click adds; places are offered for locations', async () => {
  await page.goto(`${env.stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Picked by keyboard');
  const visibleOptions = (select: string) =>
    page.$$eval(`${select} option`, (options) =>
      options.filter((o) => !(o as unknown as { hidden: boolean }).hidden).map((o) => o.getAttribute('value') ?? ''),
    );
  const everyPersona = await visibleOptions('#jobTitles');
  // From the keyboard alone: Tab into the filter, type, Enter.
  await page.focus('#name');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate('document.activeElement.id')).toBe('jobTitles-filter');
  await page.keyboard.type('financ');
  const narrowed = await visibleOptions('#jobTitles');
  expect(narrowed.length).toBeGreaterThan(0);
  expect(narrowed.length).toBeLessThan(everyPersona.length);
  for (const name of narrowed) expect(name.toLowerCase()).toContain('financ');
  await page.keyboard.press('Enter');
  expect(
    await page.$$eval('#jobTitles option:checked', (options) => options.map((o) => o.getAttribute('value'))),
  ).toEqual([narrowed[0]]);
  expect(await textOf(page, '#jobTitles-chosen')).toBe(`Chosen (1): ${narrowed[0]}`);
  expect(await visibleOptions('#jobTitles')).toEqual(everyPersona);
  expect(page.url()).toMatch(/\/signals\/new\/job-changes$/); // Enter picked, it did not submit

  // A plain click adds to what is chosen (no Ctrl), and a second click takes it away again.
  await page.click('#jobTitles option[value="Chief Technology Officer"]');
  expect(await textOf(page, '#jobTitles-chosen')).toBe(
    `Chosen (2): ${[narrowed[0], 'Chief Technology Officer'].sort((a, b) => everyPersona.indexOf(a) - everyPersona.indexOf(b)).join(', ')}`,
  );
  await page.click('#jobTitles option[value="Chief Technology Officer"]');
  expect(await textOf(page, '#jobTitles-chosen')).toBe(`Chosen (1): ${narrowed[0]}`);

  // Industries filter by name or category, and hide a category with nothing left.
  await page.fill('#industryFilters-filter', 'software');
  const industries = await visibleOptions('#industryFilters');
  expect(industries.length).toBeGreaterThan(0);
  expect(await page.locator('#industryFilters optgroup:not([hidden])').count()).toBeLessThan(
    await page.locator('#industryFilters optgroup').count(),
  );
  await page.press('#industryFilters-filter', 'Enter');
  expect(await textOf(page, '#industryFilters-chosen')).toBe(`Chosen (1): ${industries[0]}`);

  // Places: the known countries are offered; Enter adds one a line.
  expect(await page.locator('#known-places option').count()).toBeGreaterThan(100);
  await page.fill('#locations-add', 'Germany');
  await page.press('#locations-add', 'Enter');
  await page.fill('#locations-add', 'Texas');
  await page.press('#locations-add', 'Enter');
  expect(await page.inputValue('#locations')).toBe('Germany\nTexas');
  await page.waitForSelector('#signal-preview [data-preview=matchingEvents]');
  await screenshot(page, 'signal-form-pickers');

  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  expect((await rest(`/signals/${signalIdOfPage()}`)).body.config).toMatchObject({
    jobTitles: [narrowed[0]],
    industryFilters: [industries[0]],
    locations: ['Germany', 'Texas'],
  });
  expect(seen.errors).toEqual([]);
});

test('the watchlist form gives the email price; an expanded lead shows the person, the company, the job change and the event', async () => {
  await page.goto(`${env.stack.url}/signals/new/account-watchlist`);
  expect(await textOf(page, 'label:has(input[name=getEmails])')).toBe(
    'Find emails (no extra credit: included in the 3 credits a lead; leads with a person only)',
  );

  const changer = jobChanger(uid('details'), daysAgo(1), { title: 'CTO' });
  await ingest(env.stack, changer.records);
  await page.goto(`${env.stack.url}/signals/new/job-changes`);
  await page.fill('#name', 'Details');
  await page.fill('#customTitles', 'CTO');
  await page.check('input[name=activate]');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\?notice=created$/);
  const id = signalIdOfPage();
  await waitFor(
    'the lead on the page',
    async () => {
      await page.goto(`${env.stack.url}/signals/${id}`);
      return page.locator('details.lead').count();
    },
    (n) => n === 1,
  );
  expect(await page.locator('details.lead .lead-details').isVisible()).toBe(false);
  await page.click('details.lead summary');
  const facts = await page.$$eval('details.lead .lead-details h3', (headings) =>
    headings.map((h) => {
      const list = h.nextElementSibling;
      const pairs = [...(list?.querySelectorAll('dt') ?? [])].map(
        (dt) => `${dt.textContent?.trim()}: ${dt.nextElementSibling?.textContent?.replace(/\s+/g, ' ').trim()}`,
      );
      return [h.textContent?.trim(), pairs] as const;
    }),
  );
  const section = Object.fromEntries(facts);
  const { person: who, company: where } = changer;
  expect(section.Person).toEqual(
    expect.arrayContaining([
      `Name: ${who.firstName} ${who.lastName}`,
      'Title: CTO',
      'Persona: Chief Technology Officer',
      `Profile: ${who.linkedinUrl}`,
    ]),
  );
  expect(section.Company).toEqual(
    expect.arrayContaining([
      `Name: ${where.name}`,
      'Industry: Software Development',
      `Company page: ${where.linkedinUrl}`,
    ]),
  );
  expect(section['The job change']).toEqual(['Before: VP Engineering at Globex', `Now: CTO at ${where.name}`]);
  expect(section['Why it is a lead']).toEqual(
    expect.arrayContaining([`On: ${changer.event.occurredAt.slice(0, 10)}`, 'new job started on: 10/2026']),
  );
  expect(await page.getAttribute('details.lead .lead-details a[href^="https://www.linkedin.com/in/"]', 'rel')).toBe(
    'noreferrer',
  );
  await screenshot(page, 'lead-details');
  expect(seen.errors).toEqual([]);
});
