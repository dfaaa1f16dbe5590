import { loadConfig } from '../../src/config';
import { DEMO_EMAIL, prepare } from '../../src/bootstrap';
import { startStack, TEST_ADMIN_TOKEN } from '../setup/stack';
import { call } from '../setup/http';
import { uid } from '../leads/fixtures';
import { useBrowserStack, PASSWORD, screenshot, signIn, signUp, textOf, tableRows } from './browser';

/** How people come to an account: the demo person, an operator's invite, an owner's invite. */
const t = useBrowserStack(() => startStack({ worker: false }));

test('the first start creates a demo person who signs in as owner of the demo account', async () => {
  const { demo } = await prepare({
    DATABASE_URL: t.stack.config.DATABASE_URL,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: t.stack.config.SECRETS_KEY,
    NODE_ENV: 'development',
  });
  expect(demo?.email).toBe(DEMO_EMAIL);
  const page = await t.freshPage();
  expect(await signIn(page, t.stack.url, DEMO_EMAIL, demo!.password)).toBe(303);
  expect(await page.textContent('#balance')).toBe('1000');
  await page.goto(`${t.stack.url}/team`);
  expect(await tableRows(page)).toContainEqual([DEMO_EMAIL, 'owner', expect.any(String)]);
  // A second start shows nothing again.
  const again = await prepare({
    DATABASE_URL: t.stack.config.DATABASE_URL,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: t.stack.config.SECRETS_KEY,
    NODE_ENV: 'development',
  });
  expect(again.demo).toBeUndefined();
});

test('starter credits of a sign-up: 100 outside production, 0 in production, or as set', () => {
  const base = {
    DATABASE_URL: 'postgres://x',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRETS_KEY: Buffer.alloc(32).toString('base64'),
  };
  expect(loadConfig({ ...base, NODE_ENV: 'development' }).STARTER_CREDITS).toBe(100);
  const production = {
    ...base,
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://leads.example.com',
    SOURCES_CONTACT_EMAIL: 'ops@leads.example.com',
    SMTP_URL: 'smtp://mail.leads.example.com:587',
    MAIL_FROM: 'Intent leads <ops@leads.example.com>',
  };
  expect(loadConfig(production).STARTER_CREDITS).toBe(0);
  expect(loadConfig({ ...production, STARTER_CREDITS: '25' }).STARTER_CREDITS).toBe(25);
});

test('the operator creates an account with an invite link; its first person joins as owner, once', async () => {
  const created = await call(`${t.stack.url}/admin/v1/accounts`, {
    token: TEST_ADMIN_TOKEN,
    body: { name: 'Invited Ltd', credits: 5, ownerInvite: true },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    name: 'Invited Ltd',
    creditBalance: 5,
    ownerInvite: { url: expect.stringMatching(new RegExp(`^${t.stack.url}/invites/[\\w-]{32}$`)) },
  });
  // Without ownerInvite the answer is as before.
  const plain = await call(`${t.stack.url}/admin/v1/accounts`, { token: TEST_ADMIN_TOKEN, body: { name: 'Plain' } });
  expect(Object.keys(plain.body).sort()).toEqual(['creditBalance', 'id', 'name']);

  const page = await t.freshPage();
  await page.goto(created.body.ownerInvite.url);
  expect(await textOf(page, 'h1')).toBe('Join Invited Ltd');
  await screenshot(page, 'people-invite');
  const email = `${uid('first')}@example.com`;
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await page.click('button:has-text("Join")');
  await page.waitForURL(`${t.stack.url}/`);
  expect(await page.textContent('#balance')).toBe('5');
  await page.goto(`${t.stack.url}/team`);
  expect(await tableRows(page)).toContainEqual([email, 'owner', expect.any(String)]);

  // The link works once.
  const reused = await (await t.freshPage()).goto(created.body.ownerInvite.url);
  expect(reused?.status()).toBe(410);
  // An unknown account gets no invite.
  const unknown = await call(`${t.stack.url}/admin/v1/accounts/00000000-0000-4000-8000-000000000000/invites`, {
    token: TEST_ADMIN_TOKEN,
    body: {},
  });
  expect(unknown.status).toBe(404);
});

test("an owner's invite link, shown in the page, adds a member who cannot invite", async () => {
  const owner = await t.freshPage();
  const ownerEmail = `${uid('owner')}@example.com`;
  await signUp(owner, t.stack.url, ownerEmail);
  await owner.goto(`${t.stack.url}/team`);
  await owner.click('button:has-text("Create invite link")');
  const link = ((await owner.textContent('#invite-link')) ?? '').trim();
  expect(link).toMatch(new RegExp(`^${t.stack.url}/invites/`));
  await screenshot(owner, 'people-team-invite-link');

  const member = await t.freshPage();
  await member.goto(link);
  const memberEmail = `${uid('member')}@example.com`;
  await member.fill('#email', memberEmail);
  await member.fill('#password', PASSWORD);
  await member.click('button:has-text("Join")');
  await member.waitForURL(`${t.stack.url}/`);
  await member.goto(`${t.stack.url}/team`);
  expect((await tableRows(member)).map(([email, role]) => [email, role])).toEqual([
    [ownerEmail, 'owner'],
    [memberEmail, 'member'],
  ]);
  expect(await member.locator('button:has-text("Create invite link")').count()).toBe(0);
  const token = await member.inputValue('input[name=_csrf]');
  const refused = await member.request.post(`${t.stack.url}/team/invites`, { form: { _csrf: token }, maxRedirects: 0 });
  expect(refused.status()).toBe(403);
  // Taken emails cannot sign up again: the page says to check the mail, and the mail says why.
  const again = await t.freshPage();
  await again.goto(`${t.stack.url}/sign-up`);
  await again.fill('#email', memberEmail.toUpperCase());
  await again.fill('#password', PASSWORD);
  await again.click('button:has-text("Create account")');
  expect(await textOf(again, 'h1')).toBe('Check your email');
  const mail = await t.stack.mailbox!.take(memberEmail);
  expect(mail.subject).toBe('Someone tried to sign up with your email');
  expect(mail.links).toEqual([`${t.stack.url}/sign-in`]);
});
