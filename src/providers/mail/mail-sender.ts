import { createTransport } from 'nodemailer';
import type { Logger } from '../../logger';

/** One plain-text mail to one person. Plain text only: nothing a sender typed can become markup. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail is about, said in the log line when mail is not sent (development). */
  link: string;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Mail over SMTP through nodemailer, from `SMTP_URL` (`smtp://` upgrades with STARTTLS when the
 * server offers it, `smtps://` is TLS from the start). Short time-outs: a mail server that
 * hangs must not hold a sign-up's mail for nodemailer's default ten minutes.
 */
export class SmtpMailSender implements MailSender {
  private readonly transport;

  constructor(smtpUrl: string, from: string) {
    this.transport = createTransport(
      { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from },
    );
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
  }
}

/**
 * Without `SMTP_URL` (development and tests only; production refuses to start without it while
 * sign-up is open): the mail is written to the log, so a fresh `npm start` still lets someone
 * follow a sign-up link.
 */
export class LoggedMailSender implements MailSender {
  constructor(private readonly logger: Logger) {}

  send(mail: OutgoingMail): Promise<void> {
    this.logger.info(
      { mailTo: mail.to, subject: mail.subject, link: mail.link, text: mail.text },
      `mail not sent (no SMTP_URL): "${mail.subject}" to ${mail.to}; its link: ${mail.link}`,
    );
    return Promise.resolve();
  }
}

export function mailSenderFor(
  config: { SMTP_URL?: string | undefined; MAIL_FROM?: string | undefined },
  logger: Logger,
): MailSender {
  return config.SMTP_URL
    ? new SmtpMailSender(config.SMTP_URL, config.MAIL_FROM ?? DEVELOPMENT_FROM)
    : new LoggedMailSender(logger);
}

/** The From outside production when MAIL_FROM is unset. */
const DEVELOPMENT_FROM = 'Intent leads <no-reply@localhost>';
