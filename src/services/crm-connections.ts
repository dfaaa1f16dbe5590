import { DataSource } from 'typeorm';
import { CrmConnection } from '../db/entities/crm-connection';
import { SecretBox } from '../crypto/secret-box';
import { Accounts } from './accounts';

export const CRM_PROVIDERS = ['hubspot', 'salesforce', 'pipedrive', 'google-sheets'] as const;
export type CrmProvider = (typeof CRM_PROVIDERS)[number];

export interface CrmConnectionInput {
  provider: CrmProvider;
  accessToken: string;
  refreshToken?: string;
  expiresAt?: string;
}

/** CRM connections as the dashboard's OAuth flow will leave them; tokens are sealed at rest. */
export class CrmConnections {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: SecretBox,
    private readonly accounts: Accounts,
  ) {}

  async record(accountId: string, input: CrmConnectionInput) {
    await this.accounts.require(accountId);
    const repo = this.db.getRepository(CrmConnection);
    await repo.upsert(
      {
        accountId,
        provider: input.provider,
        accessTokenEncrypted: this.secrets.seal(input.accessToken),
        refreshTokenEncrypted: input.refreshToken ? this.secrets.seal(input.refreshToken) : null,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      },
      ['accountId', 'provider'],
    );
    const row = await repo.findOneByOrFail({ accountId, provider: input.provider });
    return { id: row.id, provider: row.provider, connected: true, connectedAt: row.createdAt.toISOString() };
  }

  async accessToken(accountId: string, provider: CrmProvider): Promise<string | null> {
    const row = await this.db.getRepository(CrmConnection).findOneBy({ accountId, provider });
    return row ? this.secrets.open(row.accessTokenEncrypted) : null;
  }

  async isConnected(accountId: string, provider: CrmProvider): Promise<boolean> {
    return this.db.getRepository(CrmConnection).existsBy({ accountId, provider });
  }
}
