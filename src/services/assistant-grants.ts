import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows } from '../db/sql';
import { PERMISSIONS, type Permission } from '../db/entities/api-key';
import { notFound } from '../errors';
import { endOAuthSessions, keepOAuthClient, revokeOAuthGrant } from '../oauth/record-store';
import type { Caller } from './api-keys';

export interface AssistantGrantSummary {
  id: string;
  clientName: string;
  clientId: string;
  grantedBy: string;
  permissions: Permission[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AssistantGrantInput {
  accountId: string;
  memberId: string;
  oauthGrantId: string;
  clientId: string;
  clientName: string;
  permissions: Permission[];
}

/** How long a grant found live is trusted without asking PostgreSQL again; revocation waits at most this. */
const CACHE_MS = 2_000;

/** The scopes an assistant may ask for are the permissions of an API key, by the same names. */
export const permissionsOf = (scope: string): Permission[] =>
  PERMISSIONS.filter((permission) => scope.split(' ').includes(permission));

/**
 * What a person let an assistant do on their account, by OAuth at /mcp: listed in the
 * dashboard, revocable there. A grant calls the tools as a key does: its own rate-limit
 * budget, the account's credits, the permissions it was granted.
 */
export class AssistantGrants {
  private readonly cache = new Map<string, { caller: Caller | null; until: number }>();

  constructor(private readonly db: DataSource) {}

  /**
   * The person's consent; a second consent of the same OAuth grant (the assistant asked again)
   * updates it, and only when it is the same person's: another's grant is never widened. The
   * assistant's registration then stays (an unused one expires).
   */
  async record(input: AssistantGrantInput): Promise<string> {
    const row = await firstRow<{ id: string }>(
      this.db,
      `INSERT INTO assistant_grants (id, account_id, member_id, oauth_grant_id, client_id, client_name, permissions)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (oauth_grant_id) DO UPDATE SET permissions = EXCLUDED.permissions, client_name = EXCLUDED.client_name
       WHERE assistant_grants.member_id = EXCLUDED.member_id AND assistant_grants.account_id = EXCLUDED.account_id
       RETURNING id`,
      [
        randomUUID(),
        input.accountId,
        input.memberId,
        input.oauthGrantId,
        input.clientId,
        input.clientName,
        input.permissions,
      ],
    );
    if (!row) throw new Error(`OAuth grant ${input.oauthGrantId} belongs to another person`);
    this.cache.delete(input.oauthGrantId);
    await keepOAuthClient(this.db, input.clientId);
    return row.id;
  }

  /** A person signs out: the authorization server forgets them too, so the next assistant sign-in asks who is there. */
  async endSignIns(memberId: string): Promise<void> {
    await endOAuthSessions(this.db, memberId);
  }

  /** The OAuth grant a person already gave an assistant (client), if still live: asked again, it is widened, not doubled. */
  async oauthGrantIdOf(memberId: string, clientId: string): Promise<string | undefined> {
    const row = await firstRow<{ oauth_grant_id: string }>(
      this.db,
      `SELECT oauth_grant_id FROM assistant_grants WHERE member_id = $1 AND client_id = $2 AND revoked_at IS NULL
       ORDER BY created_at DESC LIMIT 1`,
      [memberId, clientId],
    );
    return row?.oauth_grant_id;
  }

  async list(accountId: string): Promise<AssistantGrantSummary[]> {
    const grants = await rows<{
      id: string;
      client_name: string;
      client_id: string;
      email: string;
      permissions: Permission[];
      created_at: Date;
      last_used_at: Date | null;
    }>(
      this.db,
      `SELECT g.id, g.client_name, g.client_id, m.email, g.permissions, g.created_at, g.last_used_at
       FROM assistant_grants g JOIN members m ON m.id = g.member_id
       WHERE g.account_id = $1 AND g.revoked_at IS NULL ORDER BY g.created_at DESC`,
      [accountId],
    );
    return grants.map((r) => ({
      id: r.id,
      clientName: r.client_name,
      clientId: r.client_id,
      grantedBy: r.email,
      permissions: r.permissions,
      createdAt: r.created_at.toISOString(),
      lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
    }));
  }

  /** Ends the grant and every code and token it gave: the assistant's next call is refused. */
  async revoke(accountId: string, id: string): Promise<void> {
    const revoked = await changed<{ oauth_grant_id: string }>(
      this.db,
      `UPDATE assistant_grants SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL
       RETURNING oauth_grant_id`,
      [id, accountId],
    );
    const oauthGrantId = revoked.rows[0]?.oauth_grant_id;
    if (!oauthGrantId) throw notFound('Assistant');
    this.cache.delete(oauthGrantId);
    await revokeOAuthGrant(this.db, oauthGrantId);
  }

  /**
   * The caller behind a live OAuth grant, or null when it was revoked or its person left the
   * account. The token's own scope narrows what the grant allows.
   */
  async callerFor(oauthGrantId: string, scope: string): Promise<Caller | null> {
    const now = Date.now();
    let cached = this.cache.get(oauthGrantId);
    if (!cached || cached.until <= now) {
      const row = await firstRow<{ id: string; account_id: string; permissions: Permission[] }>(
        this.db,
        `SELECT id, account_id, permissions FROM assistant_grants WHERE oauth_grant_id = $1 AND revoked_at IS NULL`,
        [oauthGrantId],
      );
      const caller: Caller | null = row
        ? { keyId: row.id, accountId: row.account_id, permissions: row.permissions, assistant: true }
        : null;
      if (row) this.noteUse(row.id);
      if (this.cache.size > 10_000) this.cache.clear();
      cached = { caller, until: now + CACHE_MS };
      this.cache.set(oauthGrantId, cached);
    }
    if (!cached.caller) return null;
    const allowed = permissionsOf(scope);
    return { ...cached.caller, permissions: cached.caller.permissions.filter((p) => allowed.includes(p)) };
  }

  /** As for keys: the last use, written off the request's path at most once a minute. */
  private noteUse(id: string): void {
    execute(
      this.db,
      `UPDATE assistant_grants SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    ).catch(() => undefined);
  }
}
