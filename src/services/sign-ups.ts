import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows } from '../db/sql';
import { AppError } from '../errors';
import { hashPassword } from '../crypto/password';
import type { Logger } from '../logger';
import type { MailSender, OutgoingMail } from '../providers/mail/mail-sender';
import type { Accounts } from './accounts';
import type { AttemptBudgets } from './attempt-budgets';
import { email, parseInput, password, type Member, type Members } from './members';

export const signUpInput = z.strictObject({
  email,
  password,
  accountName: z.string().trim().max(255).optional(),
});

/** How long a sign-up's mailed link works. */
export const SIGN_UP_LINK_HOURS = 24;
/**
 * Sign-up mails one address gets per window, whoever asks for them: past it a sign-up answers
 * the same and mails nothing, so the form cannot be used to flood someone's mailbox.
 */
export const SIGN_UP_MAILS_PER_EMAIL = { limit: 3, windowSeconds: 60 * 60 } as const;
/** Sign-up requests are kept this long past their link's end (the operator can see attempts), then swept. */
const KEPT_DAYS_AFTER_EXPIRY = 7;
const SWEEP_PROBABILITY = 0.01;

/** Where a sign-up mail's links lead: the dashboard as the person reaches it (PUBLIC_URL in production). */
export interface SignUpLinks {
  confirm(token: string): string;
  signIn: string;
}

export const signUpLinkNotValid = () =>
  new AppError(410, 'SIGN_UP_LINK_NOT_VALID', 'This sign-up link is unknown, already used or expired. Sign up again.');

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

interface SignUpRequestRow {
  id: string;
  email: string;
  password_hash: string;
  account_name: string | null;
}

/**
 * Dashboard sign-up in two steps (issue 31): the form records the request and mails the address,
 * answering the same whether or not the email already has a sign-in; the mailed link then creates
 * the account and its owner. Until then nothing exists but the request row, whose password is
 * hashed as a member's and whose link token is stored as SHA-256 only.
 */
export class SignUps {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly deps: {
      accounts: Accounts;
      members: Members;
      budgets: AttemptBudgets;
      mail: MailSender;
      logger: Logger;
      starterCredits: number;
    },
  ) {}

  /**
   * Records a sign-up and mails its address: a link that finishes it for a new email, a notice
   * for one that already has a sign-in. Both cases do the same work (an Argon2id hash, one
   * budget reservation, one insert) and the mail goes out after the answer, so neither what the
   * caller answers nor when tells the two apart.
   */
  async request(input: unknown, links: SignUpLinks): Promise<void> {
    const body = parseInput(signUpInput, input);
    const passwordHash = await hashPassword(body.password);
    const token = randomBytes(24).toString('base64url');
    const mailBudget = await this.deps.budgets.reserve([
      { kind: 'sign-up-mail', owner: body.email, ...SIGN_UP_MAILS_PER_EMAIL },
    ]);
    // One statement decides and records: a taken email keeps no password, and its token is never mailed.
    const [recorded] = await rows<{ email_had_sign_in: boolean }>(
      this.db,
      `INSERT INTO sign_up_requests (email, email_had_sign_in, password_hash, account_name, token_hash, expires_at)
       SELECT $1, had, CASE WHEN had THEN NULL ELSE $2 END, CASE WHEN had THEN NULL ELSE $3 END,
              $4, now() + make_interval(hours => $5)
         FROM (SELECT EXISTS (SELECT 1 FROM members WHERE lower(email) = lower($1)) AS had) AS taken
       RETURNING email_had_sign_in`,
      [body.email, passwordHash, body.accountName || null, digest(token), SIGN_UP_LINK_HOURS],
    );
    if (Math.random() < SWEEP_PROBABILITY) await this.sweep();
    if (!mailBudget.ok) {
      this.deps.logger.info('sign-up mail not sent: this address had its sign-up mails for the hour');
      return;
    }
    this.sendLater(
      recorded.email_had_sign_in
        ? alreadySignedUpMail(body.email, links)
        : confirmationMail(body.email, links.confirm(token)),
    );
  }

  /** The address an open sign-up link is for, or null when the link is unknown, used or expired. */
  async open(token: string): Promise<{ email: string } | null> {
    const row = await firstRow<{ email: string }>(
      this.db,
      `SELECT email FROM sign_up_requests
        WHERE token_hash = $1 AND NOT email_had_sign_in AND confirmed_at IS NULL AND expires_at > now()`,
      [digest(token)],
    );
    return row ? { email: row.email } : null;
  }

  /**
   * Finishes a sign-up from its mailed link: the link is used up, the account made with its
   * starter credits and the person added as its owner, all in one transaction (all or none), so
   * a link works once and a taken email leaves no empty account behind.
   */
  async confirm(token: string): Promise<Member> {
    return this.db.transaction(async (tx) => {
      const used = await changed<SignUpRequestRow>(
        tx,
        `UPDATE sign_up_requests SET confirmed_at = now()
          WHERE token_hash = $1 AND NOT email_had_sign_in AND confirmed_at IS NULL AND expires_at > now()
          RETURNING id, email, password_hash, account_name`,
        [digest(token)],
      );
      const [request] = used.rows;
      if (!request) throw signUpLinkNotValid();
      const account = await this.deps.accounts.create(
        request.account_name || request.email,
        this.deps.starterCredits,
        tx,
      );
      const member = await this.deps.members.add(account.id, request.email, request.password_hash, 'owner', tx);
      await execute(tx, `UPDATE sign_up_requests SET member_id = $2 WHERE id = $1`, [request.id, member.id]);
      return member;
    });
  }

  /** Settles when every mail handed off so far has been sent or has failed (a stopping process, a test). */
  async mailsHandedOff(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** Off the request's path: a slow or failing mail server neither delays nor changes the answer. */
  private sendLater(mail: OutgoingMail): void {
    const sending = this.deps.mail.send(mail).catch((err: unknown) => {
      this.deps.logger.warn({ err, subject: mail.subject }, 'sign-up mail not sent: the mail server refused it');
    });
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }

  private async sweep(): Promise<void> {
    await execute(this.db, `DELETE FROM sign_up_requests WHERE expires_at < now() - make_interval(days => $1)`, [
      KEPT_DAYS_AFTER_EXPIRY,
    ]);
  }
}

/**
 * Plain text without anything the person typed but their address: the form cannot be used to
 * send someone a message of the sender's choosing.
 */
function confirmationMail(to: string, link: string): OutgoingMail {
  return {
    to,
    link,
    subject: 'Confirm your email to finish signing up',
    text: [
      'Someone, hopefully you, asked to create an Intent leads account with this email address.',
      '',
      `To confirm the address and finish creating the account, open this link (it works once, for ${SIGN_UP_LINK_HOURS} hours):`,
      '',
      link,
      '',
      'If it was not you, ignore this mail: no account is made without the link.',
    ].join('\n'),
  };
}

function alreadySignedUpMail(to: string, links: SignUpLinks): OutgoingMail {
  return {
    to,
    link: links.signIn,
    subject: 'Someone tried to sign up with your email',
    text: [
      'Someone just tried to create an Intent leads account with this email address, which already has a sign-in.',
      'No account was made and your sign-in is unchanged.',
      '',
      'If it was you, sign in instead:',
      '',
      links.signIn,
      '',
      'Forgot your password? The operator of this service can reset it for you.',
      'If it was not you, you can ignore this mail.',
    ].join('\n'),
  };
}
