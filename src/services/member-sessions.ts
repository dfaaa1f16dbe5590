import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows } from '../db/sql';
import type { MemberRole } from './members';

/** A session lasts this long from sign-in, however active; signing in again starts a new one. */
const SESSION_DAYS = 14;

export interface MemberSession {
  sessionId: string;
  memberId: string;
  accountId: string;
  email: string;
  role: MemberRole;
  /** The synchronizer token every state-changing request of this session must carry. */
  csrfToken: string;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Dashboard sessions, kept in PostgreSQL so that signing out, changing the password or an
 * operator can end them at once. The browser holds only a random token; the table holds its digest.
 */
export class MemberSessions {
  constructor(private readonly db: DataSource) {}

  async start(memberId: string): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const [row] = await rows<{ expires_at: Date }>(
      this.db,
      `INSERT INTO member_sessions (member_id, token_hash, csrf_token, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4)) RETURNING expires_at`,
      [memberId, digest(token), csrfToken, SESSION_DAYS],
    );
    return { token, csrfToken, expiresAt: row.expires_at };
  }

  /** The live session behind a cookie's token, or null when unknown, ended or expired. */
  async resolve(token: string): Promise<MemberSession | null> {
    const row = await firstRow<{
      id: string;
      member_id: string;
      csrf_token: string;
      account_id: string;
      email: string;
      role: MemberRole;
    }>(
      this.db,
      `SELECT s.id, s.member_id, s.csrf_token, m.account_id, m.email, m.role
         FROM member_sessions s JOIN members m ON m.id = s.member_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [digest(token)],
    );
    if (!row) return null;
    return {
      sessionId: row.id,
      memberId: row.member_id,
      accountId: row.account_id,
      email: row.email,
      role: row.role,
      csrfToken: row.csrf_token,
    };
  }

  async end(sessionId: string): Promise<void> {
    await execute(this.db, `UPDATE member_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [
      sessionId,
    ]);
  }

  /** Every other session of the member (after a password change); answers how many ended. */
  async endOthers(memberId: string, keepSessionId?: string): Promise<number> {
    const ended = await changed(
      this.db,
      `UPDATE member_sessions SET revoked_at = now()
        WHERE member_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
      [memberId, keepSessionId ?? null],
    );
    return ended.count;
  }
}
