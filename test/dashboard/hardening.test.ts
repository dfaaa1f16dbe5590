import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { uid } from '../leads/fixtures';
import { SIGN_IN_LIMITS, SIGN_UP_LIMITS } from '../../src/services/sign-in-throttle';
import { SIGN_UP_MAILS_PER_EMAIL } from '../../src/services/sign-ups';
import { postSignedOutForm as postForm, signUpOverHttp } from '../setup/mailbox';

/**
 * Issue 22's dashboard findings through real HTTP: throttles that hold under parallel bursts,
 * proxy headers trusted only when configured, and a page for people at unknown paths.
 */
let stack: Stack;
let proxied: Stack;
beforeAll(async () => {
  [stack, proxied] = await Promise.all([
    startStack({ worker: false }),
    startStack({ worker: false, env: { TRUST_PROXY_HOPS: '1' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), proxied?.stop()]);
});

const PASSWORD = 'correct horse battery';

const signIn = (s: Stack, email: string, password: string, headers?: Record<string, string>) =>
  postForm(`${s.url}/sign-in`, { email, password }, headers);
/** The sign-up form alone (answered "check your email"). */
const signUp = (s: Stack, email: string, headers?: Record<string, string>) =>
  postForm(`${s.url}/sign-up`, { email, password: PASSWORD }, headers);
/** A whole sign-up: the form, then the mailed link followed. */
const signUpFully = (s: Stack, email: string, headers?: Record<string, string>) =>
  signUpOverHttp(s.url, { email, password: PASSWORD }, headers);

test('a parallel burst of wrong passwords gets no more checks than the limit, and locks the email', async () => {
  const email = `${uid('burst')}@example.com`;
  expect((await signUpFully(stack, email, { 'X-Forwarded-For': '198.51.100.1' })).status).toBe(302);
  const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(stack, email, `wrong password ${i}`)));
  const statuses = burst.map((answer) => answer.status);
  // Each 401 is a password that was checked; every other answer is a refusal before the check.
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.perEmail);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - SIGN_IN_LIMITS.perEmail);
  expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  const refused = burst.find((answer) => answer.status === 429)!;
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.text).toContain('Too many failed sign-ins');
  // Locked: the right password is refused too, and starts no session.
  const right = await signIn(stack, email, PASSWORD);
  expect(right.status).toBe(429);
  expect(right.headers.get('set-cookie') ?? '').not.toContain('intent_session=');
});

test('a successful sign-in clears its email and does not spend the address budget', async () => {
  const email = `${uid('regular')}@example.com`;
  const address = { 'X-Forwarded-For': '198.51.100.2' };
  expect((await signUpFully(stack, email)).status).toBe(302);
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail - 1; i++) {
      expect((await signIn(stack, email, 'a typo in it', address)).status).toBe(401);
    }
    const answer = await signIn(stack, email, PASSWORD, address);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('set-cookie') ?? '').toContain('intent_session=');
  }
});

test('sign-ups are throttled per address: past the budget, a 429 page, and nothing is recorded or mailed', async () => {
  // Other tests of this file signed up from this (loopback) address too: spend what is left.
  let answer = await signUp(stack, `${uid('spend')}@example.com`);
  for (let i = 0; i < SIGN_UP_LIMITS.perAddress && answer.status !== 429; i++) {
    expect([200, 422]).toContain(answer.status);
    answer = await signUp(stack, `${uid('spend')}@example.com`);
  }
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  expect(answer.text).toContain('Too many sign-ups from this address');
  const refusedEmail = `${uid('refused')}@example.com`;
  expect((await signUp(stack, refusedEmail)).status).toBe(429);
  const [{ count }] = await stack.db.query(
    `SELECT (SELECT count(*) FROM members WHERE email = $1) + (SELECT count(*) FROM sign_up_requests WHERE email = $1) AS count`,
    [refusedEmail],
  );
  expect(Number(count)).toBe(0);
  await stack.services.signUps.mailsHandedOff();
  expect(stack.mailbox!.to(refusedEmail)).toEqual([]);
});

test('a burst of sign-ups with one known email from many addresses: one answer for all, and at most the mail budget reaches it', async () => {
  const known = `${uid('known')}@example.com`;
  expect((await signUpFully(proxied, known, { 'X-Forwarded-For': '203.0.113.50' })).status).toBe(302);
  const burst = await Promise.all(
    Array.from({ length: 30 }, (_, i) => signUp(proxied, known, { 'X-Forwarded-For': `203.0.113.${100 + i}` })),
  );
  expect(burst.map((a) => a.status)).toEqual(Array.from({ length: 30 }, () => 200));
  expect(new Set(burst.map((a) => a.text)).size).toBe(1);
  await proxied.services.signUps.mailsHandedOff();
  // The confirmation mail of the sign-up itself, then the budget's worth of notices, no more.
  const mails = proxied.mailbox!.to(known);
  expect(mails.map((m) => m.subject)).toEqual([
    'Confirm your email to finish signing up',
    ...Array.from({ length: SIGN_UP_MAILS_PER_EMAIL.limit - 1 }, () => 'Someone tried to sign up with your email'),
  ]);
});

test('without TRUST_PROXY_HOPS a spoofed X-Forwarded-For does not change the throttled address', async () => {
  // Each attempt a new email (so the per-email budget never bites) and a new spoofed address.
  const statuses: number[] = [];
  for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i++) {
    const answer = await signIn(stack, `${uid('nobody')}@example.com`, 'wrong', { 'X-Forwarded-For': `192.0.2.${i}` });
    statuses.push(answer.status);
  }
  expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  // One budget, the socket's (loopback, partly spent by the tests above), ran out whatever the header said.
  expect(statuses.filter((s) => s === 401).length).toBeLessThan(SIGN_IN_LIMITS.perAddress);
  expect(statuses.at(-1)).toBe(429);
  expect(stack.config.TRUST_PROXY_HOPS).toBe(0);
});

test('with TRUST_PROXY_HOPS=1 the last hop is the client: the leftmost, client-written entry is ignored', async () => {
  // The client varies the leftmost entry; the proxy appends the same real address each time.
  const statuses: number[] = [];
  for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i++) {
    const answer = await signIn(proxied, `${uid('nobody')}@example.com`, 'wrong', {
      'X-Forwarded-For': `192.0.2.${i}, 203.0.113.7`,
    });
    statuses.push(answer.status);
  }
  expect(statuses.slice(0, SIGN_IN_LIMITS.perAddress)).toEqual(Array(SIGN_IN_LIMITS.perAddress).fill(401));
  expect(statuses.at(-1)).toBe(429);
  // Another real client behind the same proxy has its own budget.
  const other = await signIn(proxied, `${uid('nobody')}@example.com`, 'wrong', {
    'X-Forwarded-For': '192.0.2.1, 203.0.113.8',
  });
  expect(other.status).toBe(401);
  expect(proxied.config.TRUST_PROXY_HOPS).toBe(1);
});

test('invite links use PUBLIC_URL, else the Host; X-Forwarded-Host only when proxies are trusted', async () => {
  const inviteUrl = async (s: Stack, headers: Record<string, string>) => {
    const created = await call(`${s.url}/admin/v1/accounts`, {
      token: TEST_ADMIN_TOKEN,
      body: { name: 'Invited', credits: 0, ownerInvite: true },
      headers,
    });
    expect(created.status).toBe(201);
    return created.body.ownerInvite.url as string;
  };
  const port = (s: Stack) => new URL(s.url).port;
  // Not trusted: the forged X-Forwarded-Host is ignored, the Host chooses.
  expect(await inviteUrl(stack, { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' })).toMatch(
    new RegExp(`^http://127\\.0\\.0\\.1:${port(stack)}/invites/`),
  );
  // Trusted (behind one proxy): the proxy's X-Forwarded-Host and -Proto say how people reach us.
  expect(await inviteUrl(proxied, { 'X-Forwarded-Host': 'leads.example.com', 'X-Forwarded-Proto': 'https' })).toMatch(
    /^https:\/\/leads\.example\.com\/invites\//,
  );
});

test('an unknown path answers people a page, and API clients the JSON envelope', async () => {
  const asPerson = await fetch(`${stack.url}/no/such/page`, {
    headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
  });
  expect(asPerson.status).toBe(404);
  expect(asPerson.headers.get('content-type')).toMatch(/^text\/html/);
  expect(asPerson.headers.get('content-security-policy')).toContain("default-src 'none'");
  const page = await asPerson.text();
  expect(page).toContain('<h1>Page not found</h1>');
  expect(page).toContain('href="/"');
  expect(page).toContain('/assets/dashboard.css');

  const asClient = await call(`${stack.url}/no/such/page`, { headers: { Accept: 'application/json' } });
  expect(asClient.status).toBe(404);
  expect(asClient.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /no/such/page' } });

  // API paths stay JSON even for a browser.
  for (const path of ['/api/v1/nothing', '/admin/v1/nothing', '/v1/nothing', '/mcp/nothing', '/oauth/nothing']) {
    const answer = await fetch(`${stack.url}${path}`, { headers: { Accept: 'text/html' } });
    expect({ path, status: answer.status, type: answer.headers.get('content-type') }).toEqual({
      path,
      status: 404,
      type: expect.stringMatching(/^application\/json/),
    });
  }
});
