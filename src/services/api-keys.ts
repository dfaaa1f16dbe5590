import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { execute, firstRow, rows } from '../db/sql';
import { ApiKey, Permission, PERMISSIONS } from '../db/entities/api-key';
import { SecretBox } from '../crypto/secret-box';
import { notFound } from '../errors';

export const API_KEY_PREFIX = 'USR_';

export interface Caller {
  /** The API key's id, or for an assistant signed in with OAuth its grant's id (assistant-grants.ts). */
  keyId: string;
  accountId: string;
  permissions: Permission[];
  /** Set for an assistant signed in with OAuth: `keyId` then names no API key. */
  assistant?: true;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  permissions: Permission[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** How long an authenticated key is trusted without asking PostgreSQL again; revocation waits at most this. */
const CACHE_MS = 2_000;

export class ApiKeys {
  private readonly cache = new Map<string, { caller: Caller | null; until: number }>();

  constructor(
    private readonly db: DataSource,
    private readonly secrets: SecretBox,
  ) {}

  async create(
    accountId: string,
    options: { name?: string; permissions?: Permission[] } = {},
  ): Promise<{ id: string; apiKey: string; webhookSecret: string; permissions: Permission[] }> {
    const apiKey = `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    const webhookSecret = newWebhookSecret();
    const permissions = options.permissions?.length ? [...new Set(options.permissions)] : [...PERMISSIONS];
    const row = await this.db.getRepository(ApiKey).save({
      accountId,
      name: options.name ?? '',
      keyHash: hashApiKey(apiKey),
      keyPrefix: apiKey.slice(0, 10),
      permissions,
      webhookSecretEncrypted: this.secrets.seal(webhookSecret),
    });
    return { id: row.id, apiKey, webhookSecret, permissions };
  }

  /** The caller behind a presented key, or null when the key is unknown or revoked. */
  async authenticate(apiKey: string): Promise<Caller | null> {
    const hash = hashApiKey(apiKey);
    const cached = this.cache.get(hash);
    const now = Date.now();
    if (cached && cached.until > now) return cached.caller;
    const row = await this.db.getRepository(ApiKey).findOneBy({ keyHash: hash, revokedAt: IsNull() });
    const caller = row ? { keyId: row.id, accountId: row.accountId, permissions: row.permissions } : null;
    if (row) this.noteUse(row.id);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { caller, until: now + CACHE_MS });
    return caller;
  }

  /**
   * Records when a key was last used, for the dashboard's key list. Only on a cache miss and at
   * most once a minute per key, off the request's path; a failed write loses only this note.
   */
  private noteUse(keyId: string): void {
    execute(
      this.db,
      `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [keyId],
    ).catch(() => undefined);
  }

  /** The account's newest live key: it signs the webhooks of signals an assistant creates. */
  async newestLive(accountId: string): Promise<string | null> {
    const row = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      [accountId],
    );
    return row?.id ?? null;
  }

  /** The account's keys, newest first, by prefix: the keys themselves are never stored. */
  async list(accountId: string): Promise<ApiKeySummary[]> {
    const keys = await rows<{
      id: string;
      name: string;
      key_prefix: string;
      permissions: Permission[];
      created_at: Date;
      last_used_at: Date | null;
      revoked_at: Date | null;
    }>(
      this.db,
      `SELECT id, name, key_prefix, permissions, created_at, last_used_at, revoked_at FROM api_keys
        WHERE account_id = $1 ORDER BY revoked_at IS NOT NULL, created_at DESC`,
      [accountId],
    );
    return keys.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.key_prefix,
      permissions: r.permissions,
      createdAt: r.created_at.toISOString(),
      lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
      revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
    }));
  }

  /** 404 unless the key belongs to the account (revoked keys included). */
  async requireOwned(accountId: string, keyId: string): Promise<ApiKey> {
    const row = await this.db.getRepository(ApiKey).findOneBy({ id: keyId, accountId });
    if (!row) throw notFound('API key');
    return row;
  }

  /** The current webhook secret of one of the account's live keys, shown in the dashboard. */
  async revealWebhookSecret(accountId: string, keyId: string): Promise<{ webhookSecret: string }> {
    const row = await this.requireOwned(accountId, keyId);
    if (row.revokedAt) throw notFound('API key');
    return { webhookSecret: this.secrets.open(row.webhookSecretEncrypted) };
  }

  async revoke(keyId: string): Promise<void> {
    const result = await this.db
      .getRepository(ApiKey)
      .update({ id: keyId, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected) {
      const exists = await this.db.getRepository(ApiKey).existsBy({ id: keyId });
      if (!exists) throw notFound('API key');
    }
    this.cache.clear();
  }

  async regenerateWebhookSecret(keyId: string): Promise<{ webhookSecret: string }> {
    const webhookSecret = newWebhookSecret();
    const result = await this.db
      .getRepository(ApiKey)
      .update({ id: keyId }, { webhookSecretEncrypted: this.secrets.seal(webhookSecret) });
    if (!result.affected) throw notFound('API key');
    return { webhookSecret };
  }

  /** A sealed webhook secret read along with other rows, opened; null stays null (no key, or revoked). */
  openWebhookSecret(sealed: string | null): string | null {
    return sealed === null ? null : this.secrets.open(sealed);
  }

  /** The current secret that signs deliveries of signals linked to this key; null once revoked. */
  async webhookSecret(keyId: string): Promise<string | null> {
    const row = await this.db.getRepository(ApiKey).findOneBy({ id: keyId, revokedAt: IsNull() });
    return row ? this.secrets.open(row.webhookSecretEncrypted) : null;
  }
}
