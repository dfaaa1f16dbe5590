import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** A mail as the local SMTP server received it, parsed as a mail client would. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Every http(s) link in the text, in order. */
  links: string[];
}

/** How long a test waits for a mail before it fails saying so (a bound, not a measured time). */
const MAIL_WAIT_MS = 60_000;

/**
 * A real SMTP server on 127.0.0.1 (`smtp-server`, nodemailer's own) that keeps what it receives,
 * for the service's `SMTP_URL` in tests. No STARTTLS (a loopback server has no certificate the
 * client would trust) and no sign-in, as a relay inside a private network has it.
 */
export class LocalMailbox {
  readonly received: ReceivedMail[] = [];
  private readonly taken = new Set<ReceivedMail>();
  private readonly arrivals = new EventEmitter();

  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
  ) {}

  static async start(options: Partial<SMTPServerOptions> = {}): Promise<LocalMailbox> {
    let mailbox: LocalMailbox | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            const text = parsed.text ?? '';
            const mail: ReceivedMail = {
              from: parsed.from?.text ?? '',
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text,
              links: text.match(/https?:\/\/\S+/g) ?? [],
            };
            mailbox?.received.push(mail);
            mailbox?.arrivals.emit('mail');
            callback();
          })
          .catch(callback);
      },
      ...options,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.server.address() as AddressInfo;
    mailbox = new LocalMailbox(server, `smtp://127.0.0.1:${port}`);
    return mailbox;
  }

  /** The oldest mail to `address` not taken yet, waiting for it to come; each mail is taken once. */
  async take(address: string): Promise<ReceivedMail> {
    const to = address.trim().toLowerCase();
    const find = () => this.received.find((m) => !this.taken.has(m) && m.to.includes(to));
    let mail = find();
    if (!mail) {
      mail = await new Promise<ReceivedMail>((resolve, reject) => {
        const arrived = () => {
          const found = find();
          if (!found) return;
          clearTimeout(timer);
          this.arrivals.off('mail', arrived);
          resolve(found);
        };
        const timer = setTimeout(() => {
          this.arrivals.off('mail', arrived);
          reject(new Error(`no mail to ${to} reached the local SMTP server within ${MAIL_WAIT_MS / 1000} s`));
        }, MAIL_WAIT_MS);
        this.arrivals.on('mail', arrived);
      });
    }
    this.taken.add(mail);
    return mail;
  }

  /** Mails to `address` received so far, taken or not. */
  to(address: string): ReceivedMail[] {
    const to = address.trim().toLowerCase();
    return this.received.filter((m) => m.to.includes(to));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The mailbox of each running stack, by the stack's URL, so helpers given only a URL find its mail. */
const mailboxes = new Map<string, LocalMailbox>();

export function registerMailbox(stackUrl: string, mailbox: LocalMailbox): void {
  mailboxes.set(stackUrl, mailbox);
}

export function forgetMailbox(stackUrl: string): void {
  mailboxes.delete(stackUrl);
}

export function mailboxAt(stackUrl: string): LocalMailbox {
  const mailbox = mailboxes.get(stackUrl);
  if (!mailbox) throw new Error(`no local mailbox for ${stackUrl}: was the stack started with its own SMTP_URL?`);
  return mailbox;
}

/** The sign-up link of a confirmation mail. */
export function confirmationLinkOf(mail: ReceivedMail): string {
  const link = mail.links.find((l) => /\/sign-up\/confirm\/[\w-]+$/.test(l));
  if (!link) throw new Error(`no sign-up link in the mail "${mail.subject}": ${mail.text}`);
  return link;
}

export interface FormAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/** A signed-out form as a browser sends it: the double-submitted CSRF token in cookie and body. */
export async function postSignedOutForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const token = randomBytes(32).toString('base64url');
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `intent_form=${token}`, ...headers },
    body: new URLSearchParams({ ...fields, _csrf: token }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/**
 * A whole sign-up over HTTP as a person makes it: the form (answered "check your email"), then
 * the link of the mail the local SMTP server received, followed. Answers the link's answer (a
 * redirect with the session cookie when it worked).
 */
export async function signUpOverHttp(
  stackUrl: string,
  fields: { email: string; password: string; accountName?: string },
  headers: Record<string, string> = {},
): Promise<FormAnswer & { requested: FormAnswer }> {
  const requested = await postSignedOutForm(`${stackUrl}/sign-up`, fields, headers);
  if (requested.status !== 200) {
    throw new Error(`the sign-up form answered ${requested.status}: ${requested.text.slice(0, 500)}`);
  }
  const link = confirmationLinkOf(await mailboxAt(stackUrl).take(fields.email));
  return { ...(await postSignedOutForm(link, {}, headers)), requested };
}

/** The `intent_session=…` pair of an answer's cookies. */
export function sessionCookieOf(answer: FormAnswer): string {
  const cookie = /intent_session=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`no session cookie in an answer of status ${answer.status}`);
  return cookie;
}
