import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows, type Queryable } from '../db/sql';
import { AppError, fieldProblemsOf, notFound, validationError } from '../errors';
import { decoyHash, hashPassword, passwordMatches } from '../crypto/password';
import { Accounts } from './accounts';

export const MEMBER_ROLES = ['owner', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface Member {
  id: string;
  accountId: string;
  email: string;
  role: MemberRole;
  createdAt: string;
}

const INVITE_DAYS = 7;
export const email = z
  .email('is not an email address')
  .max(254)
  .transform((v) => v.trim().toLowerCase());
export const password = z.string().min(10, 'needs at least 10 characters').max(200, 'is longer than 200 characters');

export const acceptInviteInput = z.strictObject({ email, password });
export const changePasswordInput = z.strictObject({ currentPassword: z.string().max(200), newPassword: password });

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
  return parsed.data;
}

interface MemberRow {
  id: string;
  account_id: string;
  email: string;
  role: MemberRole;
  created_at: Date;
  password_hash: string;
}

const toMember = (row: MemberRow): Member => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at.toISOString(),
});

/** The people who sign in to an account's dashboard: passwords and invite links (sign-up: ./sign-ups.ts). */
export class Members {
  constructor(
    private readonly db: DataSource,
    private readonly accounts: Accounts,
  ) {}

  /** The member whose email and password these are, or null; as slow for an unknown email as for a wrong password. */
  async verify(emailText: string, passwordText: string): Promise<Member | null> {
    const row = await firstRow<MemberRow>(this.db, `SELECT * FROM members WHERE lower(email) = lower($1)`, [
      emailText.trim(),
    ]);
    const matches = await passwordMatches(row?.password_hash ?? (await decoyHash()), passwordText);
    return row && matches ? toMember(row) : null;
  }

  async require(memberId: string): Promise<Member> {
    const row = await firstRow<MemberRow>(this.db, `SELECT * FROM members WHERE id = $1`, [memberId]);
    if (!row) throw notFound('Member');
    return toMember(row);
  }

  async list(accountId: string): Promise<Member[]> {
    const members = await rows<MemberRow>(
      this.db,
      `SELECT * FROM members WHERE account_id = $1 ORDER BY created_at, email`,
      [accountId],
    );
    return members.map(toMember);
  }

  async changePassword(memberId: string, input: unknown): Promise<void> {
    const body = parseInput(changePasswordInput, input);
    const row = await firstRow<MemberRow>(this.db, `SELECT * FROM members WHERE id = $1`, [memberId]);
    if (!row) throw notFound('Member');
    if (!(await passwordMatches(row.password_hash, body.currentPassword))) {
      throw validationError([{ field: 'currentPassword', message: 'is not your current password' }]);
    }
    await execute(this.db, `UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [
      memberId,
      await hashPassword(body.newPassword),
    ]);
  }

  /**
   * The operator's reset of a member's forgotten password (the demo person's, printed only at the
   * first start): a new generated one, answered once; sessions signed in before it end, as after
   * a change.
   */
  async resetPassword(emailText: string): Promise<{ email: string; password: string }> {
    const address = parseInput(z.strictObject({ email }), { email: emailText }).email;
    const newPassword = randomBytes(12).toString('base64url');
    const updated = await changed(
      this.db,
      `UPDATE members SET password_hash = $2, password_changed_at = now() WHERE email = $1`,
      [address, await hashPassword(newPassword)],
    );
    if (updated.count === 0) throw notFound('Member');
    return { email: address, password: newPassword };
  }

  /** A single-use link token for one more person of the account; only its digest is stored. */
  async createInvite(
    accountId: string,
    options: { createdBy?: string; role?: MemberRole } = {},
  ): Promise<{ token: string; expiresAt: string }> {
    await this.accounts.require(accountId);
    const token = randomBytes(24).toString('base64url');
    const [row] = await rows<{ expires_at: Date }>(
      this.db,
      `INSERT INTO member_invites (account_id, token_hash, role, created_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING expires_at`,
      [accountId, digest(token), options.role ?? 'member', options.createdBy ?? null, INVITE_DAYS],
    );
    return { token, expiresAt: row.expires_at.toISOString() };
  }

  /** The open invite behind a token, or null when unknown, used or expired. */
  async openInvite(token: string): Promise<{ accountId: string; accountName: string; role: MemberRole } | null> {
    const row = await firstRow<{ account_id: string; role: MemberRole; name: string }>(
      this.db,
      `SELECT i.account_id, i.role, a.name FROM member_invites i JOIN accounts a ON a.id = i.account_id
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > now()`,
      [digest(token)],
    );
    return row ? { accountId: row.account_id, accountName: row.name, role: row.role } : null;
  }

  async pendingInvites(
    accountId: string,
  ): Promise<Array<{ id: string; role: MemberRole; createdAt: string; expiresAt: string }>> {
    const invites = await rows<{ id: string; role: MemberRole; created_at: Date; expires_at: Date }>(
      this.db,
      `SELECT id, role, created_at, expires_at FROM member_invites
        WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > now() ORDER BY created_at DESC`,
      [accountId],
    );
    return invites.map((r) => ({
      id: r.id,
      role: r.role,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
    }));
  }

  /** Creates the invited person; the invite is used up in the same transaction, so a link works once. */
  async acceptInvite(token: string, input: unknown): Promise<Member> {
    const body = parseInput(acceptInviteInput, input);
    const passwordHash = await hashPassword(body.password);
    await this.assertEmailFree(body.email);
    return this.db.transaction(async (tx) => {
      const accepted = await changed<{ id: string; account_id: string; role: MemberRole }>(
        tx,
        `UPDATE member_invites SET accepted_at = now()
          WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > now() RETURNING id, account_id, role`,
        [digest(token)],
      );
      const [invite] = accepted.rows;
      if (!invite) throw new AppError(410, 'INVITE_NOT_VALID', 'This invite link is unknown, already used or expired');
      const member = await this.add(invite.account_id, body.email, passwordHash, invite.role, tx);
      await execute(tx, `UPDATE member_invites SET accepted_by = $2 WHERE id = $1`, [invite.id, member.id]);
      return member;
    });
  }

  private async assertEmailFree(emailText: string): Promise<void> {
    const taken = await firstRow<unknown>(this.db, `SELECT 1 FROM members WHERE lower(email) = lower($1)`, [emailText]);
    if (taken) throw validationError([{ field: 'email', message: 'already has a sign-in; sign in instead' }]);
  }

  /** A new member row; the unique index on the email decides between two at the same instant. */
  async add(
    accountId: string,
    emailText: string,
    passwordHash: string,
    role: MemberRole,
    db: Queryable = this.db,
  ): Promise<Member> {
    try {
      const [row] = await rows<MemberRow>(
        db,
        `INSERT INTO members (account_id, email, password_hash, role) VALUES ($1, $2, $3, $4) RETURNING *`,
        [accountId, emailText, passwordHash, role],
      );
      return toMember(row);
    } catch (err) {
      // Two sign-ups with one email at the same instant: the unique index decides.
      if ((err as { code?: string }).code === '23505') {
        throw validationError([{ field: 'email', message: 'already has a sign-in; sign in instead' }]);
      }
      throw err;
    }
  }
}
