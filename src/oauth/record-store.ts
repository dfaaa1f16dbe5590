import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { execute, firstRow } from '../db/sql';

/** What oidc-provider hands its adapter: a model's record, with the fields it looks records up by. */
export interface OAuthRecord {
  jti?: string;
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [field: string]: unknown;
}

/**
 * Records whose id is itself a credential a client presents (a token, a code, a request URI):
 * kept under the id's SHA-256, with no copy of it in the payload, as API keys and dashboard
 * sessions are, so a read of the table yields nothing that works. Session and Interaction ids
 * are cookie values signed with a key the database never sees, so they stay as they are.
 * (Device and CIBA flows, which look records up by user code, are off.)
 */
export const HASHED_MODELS: ReadonlySet<string> = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
]);

export const hashOAuthId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * oidc-provider's storage adapter on PostgreSQL, one instance per model (Client, Grant,
 * AccessToken, AuthorizationCode, RefreshToken, Session, Interaction, ...): every API process
 * sees the same clients, codes and tokens, and a restart loses none. Expired records are
 * never answered; each new sign-in attempt (an Interaction) deletes a few of them.
 */
export class OAuthRecordStore {
  private readonly hashed: boolean;

  constructor(
    private readonly db: DataSource,
    private readonly model: string,
    /** A registered client lasts this long unless a person grants it something (then it stays). */
    private readonly unusedClientTtlSeconds?: number,
  ) {
    this.hashed = HASHED_MODELS.has(model);
  }

  async upsert(id: string, payload: OAuthRecord, expiresIn?: number): Promise<void> {
    let stored = payload;
    if (this.hashed) {
      const { jti: _value, ...rest } = payload;
      stored = rest;
    }
    if (this.model === 'Client' && expiresIn === undefined) expiresIn = this.unusedClientTtlSeconds;
    await execute(
      this.db,
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
      [
        this.model,
        this.key(id),
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresIn ?? null,
      ],
    );
    if (this.model === 'Interaction')
      await execute(
        this.db,
        `DELETE FROM oauth_records WHERE ctid IN (SELECT ctid FROM oauth_records WHERE expires_at <= now() LIMIT 20)`,
      );
  }

  async find(id: string): Promise<OAuthRecord | undefined> {
    const found = await this.findWhere('id = $2', this.key(id));
    // The provider knows a record by its value: the one it was asked for.
    return found && this.hashed ? { ...found, jti: id } : found;
  }

  findByUid(uid: string): Promise<OAuthRecord | undefined> {
    return this.findWhere('uid = $2', uid);
  }

  findByUserCode(userCode: string): Promise<OAuthRecord | undefined> {
    return this.findWhere('user_code = $2', userCode);
  }

  /** A code or token used once: marked, so that a replay finds it consumed (and revokes what it gave). */
  async consume(id: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE oauth_records SET payload = payload || jsonb_build_object('consumed', extract(epoch FROM now())::int)
       WHERE model = $1 AND id = $2`,
      [this.model, this.key(id)],
    );
  }

  async destroy(id: string): Promise<void> {
    await execute(this.db, `DELETE FROM oauth_records WHERE model = $1 AND id = $2`, [this.model, this.key(id)]);
  }

  /** Every record of a grant, whatever its model: a revoked grant leaves no code or token behind. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeOAuthGrant(this.db, grantId);
  }

  private key(id: string): string {
    return this.hashed ? hashOAuthId(id) : id;
  }

  private async findWhere(condition: string, value: string): Promise<OAuthRecord | undefined> {
    const row = await firstRow<{ payload: OAuthRecord; expired: boolean }>(
      this.db,
      `SELECT payload, expires_at IS NOT NULL AND expires_at <= now() AS expired
       FROM oauth_records WHERE model = $1 AND ${condition}`,
      [this.model, value],
    );
    if (!row || row.expired) return undefined;
    return row.payload;
  }
}

export async function revokeOAuthGrant(db: DataSource, grantId: string): Promise<void> {
  await execute(db, `DELETE FROM oauth_records WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [grantId]);
}

/** A client a person granted something: it no longer expires unused. */
export async function keepOAuthClient(db: DataSource, clientId: string): Promise<void> {
  await execute(db, `UPDATE oauth_records SET expires_at = NULL WHERE model = 'Client' AND id = $1`, [clientId]);
}

/**
 * Ends the authorization server's sign-ins of a person (every browser): its next authorization
 * request starts with no one signed in, so it goes through the dashboard's sign-in and consent.
 */
export async function endOAuthSessions(db: DataSource, memberId: string): Promise<void> {
  await execute(db, `DELETE FROM oauth_records WHERE model = 'Session' AND payload->>'accountId' = $1`, [memberId]);
}
