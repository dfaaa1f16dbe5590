import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { ApiKey, Permission, PERMISSIONS } from '../db/entities/api-key';
import { SecretBox } from '../crypto/secret-box';
import { notFound } from '../errors';

export const API_KEY_PREFIX = 'USR_';

export interface Caller {
  keyId: string;
  accountId: string;
  permissions: Permission[];
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
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { caller, until: now + CACHE_MS });
    return caller;
  }

  async revoke(keyId: string): Promise<void> {
    const result = await this.db.getRepository(ApiKey).update({ id: keyId, revokedAt: IsNull() }, { revokedAt: new Date() });
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
