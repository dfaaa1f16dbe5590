import { Writable } from 'node:stream';
import { startStack, type Stack } from '../setup/stack';
import { uid } from '../leads/fixtures';
import {
  confirmationLinkOf,
  LocalMailbox,
  postSignedOutForm,
  sessionCookieOf,
  signUpOverHttp,
  type FormAnswer,
} from '../setup/mailbox';
import { createServices } from '../../src/services';
import { createLogger } from '../../src/logger';
import { startApi, type RunningApi } from '../../api/server';

/**
 * Sign-up that does not tell whether an email has a sign-in (issue 31): the same answer either
 * way, a mail to the address that says what happened, and a single-use link that expires. The
 * mail goes to a real SMTP server on 127.0.0.1 (the stack's mailbox); a second stack without
 * SMTP_URL writes its mail to the log instead.
 */
let stack: Stack;
let logged: Stack;
const logLines: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  [stack, logged] = await Promise.all([
    // Behind a trusted proxy, so each sign-up names its own client address (the per-address budget is another test's).
    startStack({ worker: false, env: { TRUST_PROXY_HOPS: '1' } }),
    startStack({ worker: false, env: { SMTP_URL: '', LOG_LEVEL: 'info' }, logDestination }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), logged?.stop()]);
});

const PASSWORD = 'correct horse battery';
let clients = 0;
const fromNewClient = () => ({ 'X-Forwarded-For': `198.51.100.${++clients}` });
const signUpForm = (s: Stack, email: string, extra: Record<string, string> = {}) =>
  postSignedOutForm(`${s.url}/sign-up`, { email, password: PASSWORD, ...extra }, fromNewClient());
const signUpFully = (email: string) => signUpOverHttp(stack.url, { email, password: PASSWORD }, fromNewClient());
const membersWith = async (s: Stack, email: string) =>
  Number((await s.db.query(`SELECT count(*) AS n FROM members WHERE email = $1`, [email]))[0].n);
/** What an answer shows a caller, the typed address aside. */
const shapeOf = (answer: FormAnswer, email: string) => ({
  status: answer.status,
  type: answer.headers.get('content-type'),
  cookies: answer.headers.get('set-cookie'),
  // The form's CSRF token is the caller's own cookie, echoed.
  body: answer.text.replaceAll(email, '<email>').replace(/name="_csrf" value="[^"]*"/, 'name="_csrf" value="<own>"'),
});

test('a new and a taken email get the same answer; only the mail to the address says which', async () => {
  const taken = `${uid('taken')}@example.com`;
  expect((await signUpFully(taken)).status).toBe(302);
  const fresh = `${uid('fresh')}@example.com`;

  const toTaken = await signUpForm(stack, taken);
  const toFresh = await signUpForm(stack, fresh);
  expect(toFresh.status).toBe(200);
  expect(toFresh.text).toContain('Check your email');
  expect(shapeOf(toTaken, taken)).toEqual(shapeOf(toFresh, fresh));
  // Nothing is made before the link is followed.
  expect(await membersWith(stack, fresh)).toBe(0);

  const freshMail = await stack.mailbox!.take(fresh);
  expect(freshMail.subject).toBe('Confirm your email to finish signing up');
  expect(freshMail.from).toMatch(/^"?Intent leads"? <no-reply@localhost>$/);
  const link = confirmationLinkOf(freshMail);
  expect(link).toMatch(new RegExp(`^${stack.url}/sign-up/confirm/[\\w-]{32}$`));
  expect(freshMail.text).toContain('24 hours');

  const takenMail = await stack.mailbox!.take(taken);
  expect(takenMail.subject).toBe('Someone tried to sign up with your email');
  expect(takenMail.text).toContain('already has a sign-in');
  expect(takenMail.links).toEqual([`${stack.url}/sign-in`]);

  // At rest: the password as Argon2id, the link's token as its SHA-256 only; a taken email keeps no password.
  const rows: Array<{ email: string; password_hash: string | null; token_hash: string; email_had_sign_in: boolean }> =
    await stack.db.query(
      `SELECT email, password_hash, token_hash, email_had_sign_in FROM sign_up_requests WHERE email = ANY($1) ORDER BY created_at`,
      [[fresh, taken]],
    );
  const freshRow = rows.find((r) => r.email === fresh)!;
  expect(freshRow.password_hash).toMatch(/^\$argon2id\$/);
  expect(freshRow.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(freshRow.token_hash).not.toContain(link.split('/').at(-1));
  expect(rows.filter((r) => r.email === taken).at(-1)).toMatchObject({ email_had_sign_in: true, password_hash: null });
});

test('the link finishes the sign-up once, signed in; a second use fails clearly', async () => {
  const email = `${uid('once')}@example.com`;
  expect((await signUpForm(stack, email, { accountName: 'Once Ltd' })).status).toBe(200);
  const link = confirmationLinkOf(await stack.mailbox!.take(email));

  // Opening the link (as a mail scanner would) changes nothing: it shows the button.
  const opened = await fetch(link);
  expect(opened.status).toBe(200);
  expect(await opened.text()).toContain(email);
  expect(await membersWith(stack, email)).toBe(0);

  const finished = await postSignedOutForm(link, {});
  expect(finished.status).toBe(302);
  expect(finished.headers.get('location')).toBe('/');
  const overview = await fetch(`${stack.url}/`, { headers: { Cookie: sessionCookieOf(finished) } });
  expect(overview.status).toBe(200);
  const page = await overview.text();
  expect(page).toMatch(/id="balance"[^>]*>100</);
  const made = await stack.db.query(
    `SELECT a.name, m.role FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.email = $1`,
    [email],
  );
  expect(made).toEqual([{ name: 'Once Ltd', role: 'owner' }]);

  const again = await postSignedOutForm(link, {});
  expect(again.status).toBe(410);
  expect(again.text).toContain('This sign-up link is unknown, already used or expired. Sign up again.');
  expect(again.headers.get('set-cookie') ?? '').not.toContain('intent_session=');
  expect((await fetch(link)).status).toBe(410);
  expect(await membersWith(stack, email)).toBe(1);
});

test('an expired link fails and makes nothing', async () => {
  const email = `${uid('late')}@example.com`;
  expect((await signUpForm(stack, email)).status).toBe(200);
  const link = confirmationLinkOf(await stack.mailbox!.take(email));
  // A day later, as the clock of PostgreSQL sees it.
  await stack.db.query(`UPDATE sign_up_requests SET expires_at = now() - interval '1 second' WHERE email = $1`, [
    email,
  ]);
  const late = await postSignedOutForm(link, {});
  expect(late.status).toBe(410);
  expect(late.text).toContain('already used or expired');
  expect(await membersWith(stack, email)).toBe(0);
});

test('two links for one email: the second, once the first made the sign-in, says so and leaves no empty account', async () => {
  const email = `${uid('twice')}@example.com`;
  const accountName = `Twice ${uid('co')}`;
  expect((await signUpForm(stack, email, { accountName })).status).toBe(200);
  expect((await signUpForm(stack, email, { accountName })).status).toBe(200);
  const first = confirmationLinkOf(await stack.mailbox!.take(email));
  const second = confirmationLinkOf(await stack.mailbox!.take(email));
  expect(first).not.toBe(second);
  expect((await postSignedOutForm(second, {})).status).toBe(302);
  const loser = await postSignedOutForm(first, {});
  expect(loser.status).toBe(422);
  expect(loser.text).toContain('already has a sign-in; sign in instead');
  // The account, its credits and the member are made together or not at all.
  const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM accounts WHERE name = $1`, [accountName]);
  expect(n).toBe(1);
});

test('bad input is refused on the form, the same for any email, and records nothing', async () => {
  const taken = `${uid('taken')}@example.com`;
  await signUpFully(taken);
  const fresh = `${uid('short')}@example.com`;
  const short = (email: string) =>
    postSignedOutForm(`${stack.url}/sign-up`, { email, password: 'short' }, fromNewClient());
  const [toTaken, toFresh] = [await short(taken), await short(fresh)];
  expect(toFresh.status).toBe(422);
  expect(toFresh.text).toContain('password: needs at least 10 characters');
  expect(shapeOf(toTaken, taken)).toEqual(shapeOf(toFresh, fresh));
  const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM sign_up_requests WHERE email = $1`, [fresh]);
  expect(n).toBe(0);
});

test('without SMTP_URL (development) the mail is written to the log, and its link works', async () => {
  expect(logged.config.SMTP_URL).toBeUndefined();
  const email = `${uid('logged')}@example.com`;
  expect((await signUpForm(logged, email)).status).toBe(200);
  await logged.services.signUps.mailsHandedOff();
  const line = logLines.find((l) => l.mailTo === email);
  expect(line).toMatchObject({ subject: 'Confirm your email to finish signing up' });
  expect(String(line!.msg)).toContain(`its link: ${logged.url}/sign-up/confirm/`);
  const finished = await postSignedOutForm(String(line!.link), {});
  expect(finished.status).toBe(302);
  expect(await membersWith(logged, email)).toBe(1);
});

describe('with SIGN_UP=closed', () => {
  let closed: RunningApi;
  beforeAll(async () => {
    const services = createServices({
      db: stack.db,
      config: { ...stack.config, SIGN_UP: 'closed' },
      logger: createLogger('silent', 'test'),
      temporal: stack.temporal,
    });
    closed = await startApi(services, 0, '127.0.0.1');
  });
  afterAll(async () => {
    closed?.server.closeAllConnections();
    await closed?.close();
  });

  test('the page and the form say sign-up is by invite, and pending links no longer work', async () => {
    const page = await fetch(`${closed.url}/sign-up`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('by invite only');
    const email = `${uid('closed')}@example.com`;
    const posted = await postSignedOutForm(`${closed.url}/sign-up`, { email, password: PASSWORD });
    expect(posted.status).toBe(403);
    expect(await (await fetch(`${closed.url}/sign-in`)).text()).not.toContain('Create an account');
    // A link mailed while sign-up was open (by the open API on the same database) is refused here.
    expect((await signUpForm(stack, email)).status).toBe(200);
    const link = confirmationLinkOf(await stack.mailbox!.take(email)).replace(stack.url, closed.url);
    expect((await postSignedOutForm(link, {})).status).toBe(410);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM sign_up_requests WHERE email = $1`, [email]);
    expect(n).toBe(1);
    expect(await membersWith(stack, email)).toBe(0);
  });
});

test('a mail server that refuses the mail: the same answer, and the refusal in the log', async () => {
  // RFC 5321's 550 to RCPT TO, as a server that knows no such mailbox answers.
  const refusing = await LocalMailbox.start({
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Requested action not taken: mailbox unavailable'), { responseCode: 550 }));
    },
  });
  const lines: Array<Record<string, unknown>> = [];
  const services = createServices({
    db: stack.db,
    config: { ...stack.config, SMTP_URL: refusing.url },
    logger: createLogger(
      'info',
      'test',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      }),
    ),
    temporal: stack.temporal,
  });
  const api = await startApi(services, 0, '127.0.0.1');
  try {
    const email = `${uid('bounced')}@example.com`;
    const answer = await postSignedOutForm(`${api.url}/sign-up`, { email, password: PASSWORD }, fromNewClient());
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Check your email');
    await services.signUps.mailsHandedOff();
    const warning = lines.find((l) => l.msg === 'sign-up mail not sent: the mail server refused it');
    expect(warning).toMatchObject({ level: 40, subject: 'Confirm your email to finish signing up' });
    expect(JSON.stringify(warning)).toContain('550');
    expect(refusing.received).toEqual([]);
  } finally {
    api.server.closeAllConnections();
    await api.close();
    await refusing.close();
  }
});
