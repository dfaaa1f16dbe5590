import { startStack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { uid } from '../leads/fixtures';
import { useBrowserStack, PASSWORD, screenshot, signIn, signUp, watchPage, textOf } from './browser';

/** What the dashboard refuses, each asserted in a real browser against the real stack. */
const t = useBrowserStack(() => startStack({ worker: false }));

const keysOf = async (email: string) => {
  const [member] = await t.stack.db.query(`SELECT account_id FROM members WHERE email = $1`, [email]);
  return t.stack.services.apiKeys.list(member.account_id);
};

test('a state-changing request without the CSRF token is refused and changes nothing', async () => {
  const page = await t.freshPage();
  const email = `${uid('csrf')}@example.com`;
  await signUp(page, t.stack.url, email);
  // Signed in (the cookie rides along), but the form lacks the token, or carries a wrong one.
  const missing = await page.request.post(`${t.stack.url}/api-keys`, {
    form: { name: 'sneaky', permissions: 'read' },
    maxRedirects: 0,
  });
  expect(missing.status()).toBe(403);
  expect(await missing.text()).toContain('did not come from this site');
  const wrong = await page.request.post(`${t.stack.url}/api-keys`, {
    form: { name: 'sneaky', _csrf: 'x'.repeat(43) },
    maxRedirects: 0,
  });
  expect(wrong.status()).toBe(403);
  const signOut = await page.request.post(`${t.stack.url}/sign-out`, { form: {}, maxRedirects: 0 });
  expect(signOut.status()).toBe(403);
  expect(await keysOf(email)).toEqual([]);
  // The same form from the page itself, token included, works.
  await page.goto(`${t.stack.url}/api-keys`);
  await page.fill('#keyName', 'from the page');
  await page.click('button:has-text("Create key")');
  expect((await keysOf(email)).map((k) => k.name)).toEqual(['from the page']);
  // Sign-in and sign-up forms carry a token too (no login CSRF).
  const anonymous = await fetch(`${t.stack.url}/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    redirect: 'manual',
  });
  expect(anonymous.status).toBe(403);
  expect(anonymous.headers.get('set-cookie') ?? '').not.toContain('intent_session=');
});

test("another account's signal by URL is 404, for reading and for acting", async () => {
  const other = await createAccount(t.stack, { credits: 10 });
  const created = await call(`${t.stack.url}/api/v1/signals/job-changes`, {
    token: other.apiKey,
    body: { name: 'Not yours', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  expect(created.status).toBe(201);
  const page = await t.freshPage();
  await signUp(page, t.stack.url, `${uid('nosy')}@example.com`);
  const read = await page.goto(`${t.stack.url}/signals/${created.body.id}`);
  expect(read?.status()).toBe(404);
  expect(await page.textContent('main')).not.toContain('Not yours');
  expect(await textOf(page, 'h1')).toBe('Not found');
  for (const path of ['edit', 'resume', 'delete', 'test-webhook']) {
    await page.goto(`${t.stack.url}/signals`);
    const token = await page.inputValue('input[name=_csrf]');
    const acted = await page.request.post(`${t.stack.url}/signals/${created.body.id}/${path}`, {
      form: { _csrf: token, name: 'Taken' },
      maxRedirects: 0,
    });
    expect({ path, status: acted.status() }).toEqual({ path, status: 404 });
  }
  const after = await call(`${t.stack.url}/api/v1/signals/${created.body.id}`, { token: other.apiKey });
  expect(after.body).toMatchObject({ name: 'Not yours', status: 'draft' });
  // A malformed id names nothing either.
  expect((await page.goto(`${t.stack.url}/signals/not-a-uuid`))?.status()).toBe(404);
});

test('a revoked session is signed out everywhere it was used', async () => {
  const email = `${uid('revoked')}@example.com`;
  const laptop = await t.freshPage();
  await signUp(laptop, t.stack.url, email);
  const phone = await t.freshPage({ width: 390 });
  expect(await signIn(phone, t.stack.url, email)).toBe(303);
  expect(phone.url()).toBe(`${t.stack.url}/`);
  await screenshot(phone, 'refusal-phone-overview');
  // Changing the password on the laptop ends every other session (the phone's).
  await laptop.goto(`${t.stack.url}/team`);
  await laptop.fill('#currentPassword', PASSWORD);
  await laptop.fill('#newPassword', 'another long password');
  await laptop.click('button:has-text("Change password")');
  await laptop.waitForSelector('.notice.ok:has-text("Password changed; 1 other session(s) signed out.")');
  await screenshot(laptop, 'refusal-password-changed');
  await phone.goto(`${t.stack.url}/api-keys`);
  expect(phone.url()).toBe(`${t.stack.url}/sign-in?next=%2Fapi-keys`);
  // Its old cookie, replayed, opens nothing and changes nothing.
  const [member] = await t.stack.db.query(`SELECT id FROM members WHERE email = $1`, [email]);
  const [row] = await t.stack.db.query(
    `SELECT count(*)::int AS live FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL`,
    [member.id],
  );
  expect(row.live).toBe(1);
  const [revoked] = await t.stack.db.query(
    `SELECT csrf_token FROM member_sessions WHERE member_id = $1 AND revoked_at IS NOT NULL`,
    [member.id],
  );
  const replay = await phone.request.post(`${t.stack.url}/api-keys`, {
    form: { _csrf: revoked.csrf_token, name: 'late' },
    maxRedirects: 0,
  });
  expect(replay.status()).toBe(403);
  expect(await keysOf(email)).toEqual([]);
  // The laptop goes on; signing out there ends that session too.
  await laptop.goto(`${t.stack.url}/`);
  expect(laptop.url()).toBe(`${t.stack.url}/`);
  await laptop.click('button:has-text("Sign out")');
  await laptop.waitForURL(`${t.stack.url}/sign-in`);
  const [{ live }] = await t.stack.db.query(
    `SELECT count(*)::int AS live FROM member_sessions WHERE member_id = $1 AND revoked_at IS NULL`,
    [member.id],
  );
  expect(live).toBe(0);
});

test('too many wrong passwords lock the email out, even with the right password afterwards', async () => {
  const email = `${uid('guess')}@example.com`;
  const owner = await t.freshPage();
  await signUp(owner, t.stack.url, email);
  const attacker = await t.freshPage();
  for (let i = 0; i < 5; i++) {
    expect(await signIn(attacker, t.stack.url, email, `wrong password ${i}`)).toBe(401);
    expect(await textOf(attacker, '.notice.error')).toBe('Wrong email or password.');
  }
  expect(await signIn(attacker, t.stack.url, email, PASSWORD)).toBe(429);
  expect(await textOf(attacker, '.notice.error')).toMatch(/^Too many failed sign-ins; try again in \d+ minute/);
  await screenshot(attacker, 'refusal-too-many-passwords');
  expect(attacker.url()).toBe(`${t.stack.url}/sign-in`);
  // Another email from the same address is not locked by this one (its own budget is per address, 20).
  const neighbour = `${uid('neighbour')}@example.com`;
  await signUp(await t.freshPage(), t.stack.url, neighbour);
  expect(await signIn(attacker, t.stack.url, neighbour)).toBe(303);
});

test('a signal named <script>alert(1)</script> is shown as text', async () => {
  const page = await t.freshPage();
  const seen = watchPage(page);
  await signUp(page, t.stack.url, `${uid('xss')}@example.com`);
  await page.goto(`${t.stack.url}/api-keys`);
  await page.fill('#keyName', '<img src=x onerror=alert(2)>');
  await page.click('button:has-text("Create key")');
  const name = '<script>alert(1)</script>';
  await page.goto(`${t.stack.url}/signals/new/job-changes`);
  await page.fill('#name', name);
  await page.fill('#customTitles', '"><script>alert(3)</script>');
  await page.click('button:has-text("Create signal")');
  await page.waitForURL(/\/signals\/[0-9a-f-]{36}\?notice=created$/);
  expect(await textOf(page, 'h1')).toBe(name);
  expect(await page.locator('main script').count()).toBe(0);
  expect(await page.content()).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  await screenshot(page, 'refusal-script-name-as-text');
  await page.goto(`${t.stack.url}/signals`);
  expect(await page.locator('td[data-label=Name] a').textContent()).toBe(name);
  await page.goto(
    `${t.stack.url}/signals/${/\/signals\/([0-9a-f-]{36})/.exec((await page.locator('td[data-label=Name] a').getAttribute('href')) ?? '')![1]}/edit`,
  );
  expect(await page.inputValue('#name')).toBe(name);
  expect(await page.inputValue('#customTitles')).toBe('"><script>alert(3)</script>');
  await page.goto(`${t.stack.url}/signals/new/job-changes`);
  expect(await page.locator('#apiKeyId option').first().textContent()).toContain('<img src=x onerror=alert(2)>');
  expect(seen.dialogs).toEqual([]);
  expect(seen.errors).toEqual([]);
});
