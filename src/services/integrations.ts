import { createHmac, hkdfSync } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { rows } from '../db/sql';
import type { Config } from '../config';
import type { SecretBox } from '../crypto/secret-box';
import { AppError, conflict, invalidRequest, notFound, validationError } from '../errors';
import { OutboundHttpError } from '../providers/outbound-error';
import {
  createSequencer,
  isSequencerName,
  SEQUENCER_NAMES,
  type Sequencer,
  type SequencerCampaign,
  type SequencerName,
} from '../providers/sequencers';
import { CRM_PROVIDERS, type CrmConnections, type CrmProvider } from './crm/connections';

export type IntegrationKind = 'sequencer' | 'crm';

/** Every tool the overview lists: the sequencers (connected by API key) and the OAuth-only tools. */
export const INTEGRATION_PROVIDERS: readonly (SequencerName | CrmProvider)[] = [...SEQUENCER_NAMES, ...CRM_PROVIDERS];

/** How each tool names itself, for messages and pages. */
export const DISPLAY_NAMES: Record<SequencerName | CrmProvider, string> = {
  lemlist: 'lemlist',
  instantly: 'Instantly',
  smartlead: 'Smartlead',
  hubspot: 'HubSpot',
  salesforce: 'Salesforce',
  pipedrive: 'Pipedrive',
  'google-sheets': 'Google Sheets',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ConnectInput {
  apiKey: string;
  label?: string;
}

export interface ConnectedIntegration {
  provider: SequencerName;
  integrationId: string;
  label: string;
  connected: true;
  connectedAt: string;
}

export interface IntegrationAccount {
  integrationId: string;
  label: string;
  connectedAt: string;
  /** CRMs only: a connection whose refresh the vendor refused is broken until reconnected in the dashboard. */
  status?: 'connected' | 'broken';
  brokenReason?: string;
}

export interface IntegrationOverview {
  integrations: { provider: string; kind: IntegrationKind; connected: boolean; accounts: IntegrationAccount[] }[];
}

interface IntegrationRow {
  id: string;
  provider: SequencerName;
  label: string;
  api_key_encrypted: string;
  connected_at: Date;
}

/** Where a path or body names a connected account, so errors point at the field the client sent. */
export interface IntegrationFieldNames {
  integrationId: string;
  campaignId: string;
}

/**
 * Email-sequencing tools connected with the customer's own API key (contract section 7). The
 * key is checked against the vendor before anything is stored, stored sealed, and opened only
 * to call the vendor: it is never answered, and never put in an error or a log line.
 */
export class Integrations {
  private readonly fingerprintKey: Buffer;

  constructor(
    private readonly db: DataSource,
    private readonly secrets: SecretBox,
    private readonly crmConnections: Pick<CrmConnections, 'list'>,
    private readonly config: Pick<
      Config,
      'SECRETS_KEY' | 'LEMLIST_API_URL' | 'INSTANTLY_API_URL' | 'SMARTLEAD_API_URL' | 'WEBHOOK_TIMEOUT_MS'
    >,
  ) {
    // A key of its own (derived, not SECRETS_KEY itself), so the fingerprint column alone can
    // neither confirm a guessed vendor key nor help against the sealed values.
    this.fingerprintKey = Buffer.from(
      hkdfSync(
        'sha256',
        Buffer.from(config.SECRETS_KEY, 'base64'),
        Buffer.alloc(0),
        'integration api key fingerprint',
        32,
      ),
    );
  }

  /** The vendor adapter with this process's base URLs (tests point them at local servers). */
  sequencer(provider: SequencerName): Sequencer {
    return createSequencer(
      provider,
      {
        lemlist: this.config.LEMLIST_API_URL,
        instantly: this.config.INSTANTLY_API_URL,
        smartlead: this.config.SMARTLEAD_API_URL,
      },
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS },
    );
  }

  /**
   * `PUT /api/v1/integrations/{sequencer}`: the vendor checks the key first; a refused key is
   * 422 on `apiKey` and nothing is stored. The same key again (same account and tool) is the
   * same connection: its label changes, its id and `connectedAt` stay.
   */
  async connect(accountId: string, name: string, input: ConnectInput): Promise<ConnectedIntegration> {
    const provider = requireSequencerName(name, 'connect');
    const apiKey = input.apiKey.trim();
    let check;
    try {
      check = await this.sequencer(provider).validateKey(apiKey);
    } catch (err) {
      throw vendorUnavailable(provider, err, 'could not check the API key');
    }
    if (!check.ok) {
      throw validationError([{ field: 'apiKey', message: `${DISPLAY_NAMES[provider]} refused this API key` }]);
    }
    const label = input.label?.trim() || null;
    const [row] = await rows<{ id: string; label: string; connected_at: Date }>(
      this.db,
      `INSERT INTO integrations (account_id, provider, label, api_key_encrypted, api_key_sha256)
       VALUES ($1, $2, coalesce($3, $4), $5, $6)
       ON CONFLICT (account_id, provider, api_key_sha256)
         DO UPDATE SET label = coalesce($3, integrations.label), updated_at = now()
       RETURNING id, label, connected_at`,
      [
        accountId,
        provider,
        label,
        check.accountLabel ?? DISPLAY_NAMES[provider],
        this.secrets.seal(apiKey),
        this.fingerprint(apiKey),
      ],
    );
    return {
      provider,
      integrationId: row.id,
      label: row.label,
      connected: true,
      connectedAt: new Date(row.connected_at).toISOString(),
    };
  }

  /** Every tool, connected or not: the sequencers' keys and the CRMs' OAuth connections with their status. */
  async overview(accountId: string): Promise<IntegrationOverview> {
    const sequencers = await rows<{ id: string; provider: string; label: string; connected_at: Date }>(
      this.db,
      `SELECT id, provider, label, connected_at FROM integrations WHERE account_id = $1 ORDER BY connected_at, id`,
      [accountId],
    );
    const crms = await this.crmConnections.list(accountId);
    const accounts = (provider: string): IntegrationAccount[] =>
      isSequencerName(provider)
        ? sequencers
            .filter((row) => row.provider === provider)
            .map((row) => ({
              integrationId: row.id,
              label: row.label,
              connectedAt: new Date(row.connected_at).toISOString(),
            }))
        : crms
            .filter((connection) => connection.provider === provider)
            .map((connection) => ({
              integrationId: connection.integrationId,
              label: connection.label || DISPLAY_NAMES[connection.provider],
              connectedAt: connection.connectedAt,
              status: connection.status,
              ...(connection.brokenReason ? { brokenReason: connection.brokenReason } : {}),
            }));
    return {
      integrations: INTEGRATION_PROVIDERS.map((provider) => {
        const connected = accounts(provider);
        return {
          provider,
          kind: isSequencerName(provider) ? 'sequencer' : 'crm',
          connected: connected.length > 0,
          accounts: connected,
        };
      }),
    };
  }

  /** `GET /api/v1/integrations/{sequencer}/campaigns`, straight from the vendor. */
  async campaigns(accountId: string, name: string, integrationId?: string): Promise<{ items: SequencerCampaign[] }> {
    const provider = requireSequencerName(name, 'campaigns');
    const row = await this.resolve(accountId, provider, integrationId, {
      integrationId: 'integrationId',
      campaignId: 'campaignId',
    });
    return { items: await this.listCampaigns(provider, row) };
  }

  /**
   * A sequencer destination as PATCH stores it: the connected account it goes through (named,
   * or the only one) and a campaign that exists at the vendor. The resolved `integrationId` is
   * stored with it, so connecting a second account later never makes it ambiguous.
   */
  async resolveSequencerDestination(
    accountId: string,
    provider: SequencerName,
    destination: { campaignId: string; integrationId?: string | undefined },
  ): Promise<{ campaignId: string; integrationId: string }> {
    const fields = {
      integrationId: `destinations.${provider}.integrationId`,
      campaignId: `destinations.${provider}.campaignId`,
    };
    const row = await this.resolve(accountId, provider, destination.integrationId, fields);
    const campaigns = await this.listCampaigns(provider, row);
    if (!campaigns.some((campaign) => campaign.id === destination.campaignId)) {
      throw validationError([
        {
          field: fields.campaignId,
          message: `no campaign with this id in the connected ${DISPLAY_NAMES[provider]} account; list them with GET /api/v1/integrations/${provider}/campaigns`,
        },
      ]);
    }
    return { campaignId: destination.campaignId, integrationId: row.id };
  }

  /**
   * The key a delivery pushes with: the named connected account, or the only one. Null when
   * none fits any more (disconnected, or several and none named): the delivery cannot succeed.
   */
  async apiKeyFor(accountId: string, provider: SequencerName, integrationId?: string | null): Promise<string | null> {
    const rows = await this.rowsOf(accountId, provider);
    const row = integrationId ? rows.find((r) => r.id === integrationId) : rows.length === 1 ? rows[0] : undefined;
    return row ? this.secrets.open(row.api_key_encrypted) : null;
  }

  private async listCampaigns(provider: SequencerName, row: IntegrationRow): Promise<SequencerCampaign[]> {
    try {
      return await this.sequencer(provider).listCampaigns(this.secrets.open(row.api_key_encrypted));
    } catch (err) {
      throw vendorUnavailable(provider, err, 'could not list campaigns');
    }
  }

  /** 409 when none is connected, 400 when several are and none is named, 404 for an id not of this account and tool. */
  private async resolve(
    accountId: string,
    provider: SequencerName,
    integrationId: string | undefined,
    fields: IntegrationFieldNames,
  ): Promise<IntegrationRow> {
    const rows = await this.rowsOf(accountId, provider);
    if (integrationId !== undefined) {
      const row = UUID.test(integrationId) ? rows.find((r) => r.id === integrationId) : undefined;
      if (!row) throw notFound('Integration');
      return row;
    }
    if (rows.length === 0) {
      throw conflict(
        'INTEGRATION_NOT_CONNECTED',
        `${DISPLAY_NAMES[provider]} is not connected; connect it first with PUT /api/v1/integrations/${provider}`,
      );
    }
    if (rows.length > 1) {
      throw invalidRequest(
        `${rows.length} ${DISPLAY_NAMES[provider]} accounts are connected; name one with ${fields.integrationId} (ids in GET /api/v1/integrations)`,
        {
          details: [
            { field: fields.integrationId, message: 'required when several accounts of this tool are connected' },
          ],
        },
      );
    }
    return rows[0] as IntegrationRow;
  }

  private rowsOf(accountId: string, provider: SequencerName): Promise<IntegrationRow[]> {
    return rows<IntegrationRow>(
      this.db,
      `SELECT id, provider, label, api_key_encrypted, connected_at FROM integrations
       WHERE account_id = $1 AND provider = $2 ORDER BY connected_at, id`,
      [accountId, provider],
    );
  }

  private fingerprint(apiKey: string): string {
    return createHmac('sha256', this.fingerprintKey).update(apiKey, 'utf8').digest('hex');
  }
}

/**
 * The `{sequencer}` path segment: a sequencer name, else 400 `USE_DASHBOARD_OAUTH` for the
 * OAuth-only tools when connecting (404 when asking them for campaigns, which they do not
 * have), else 404 for a name we do not know.
 */
export function requireSequencerName(name: string, purpose: 'connect' | 'campaigns'): SequencerName {
  if (isSequencerName(name)) return name;
  if ((CRM_PROVIDERS as readonly string[]).includes(name)) {
    const display = DISPLAY_NAMES[name as CrmProvider];
    if (purpose === 'connect') {
      throw new AppError(
        400,
        'USE_DASHBOARD_OAUTH',
        `${display} connects once by OAuth in the dashboard, not with an API key`,
      );
    }
    throw new AppError(
      404,
      'NOT_FOUND',
      `${display} has no campaigns; campaigns belong to ${SEQUENCER_NAMES.join(', ')}`,
    );
  }
  throw new AppError(
    404,
    'NOT_FOUND',
    `No integration named "${name.slice(0, 64)}"; sequencers are ${SEQUENCER_NAMES.join(', ')}`,
  );
}

/**
 * The vendor did not answer usefully (outage, 5xx, time-out, rate limit, or a refusal of a key
 * it accepted before): 502, never the client's fault. The vendor's own 429 wait is passed on.
 */
function vendorUnavailable(provider: SequencerName, err: unknown, what: string): unknown {
  // Anything else is our own bug: it stays what it is and becomes a 500.
  if (!(err instanceof OutboundHttpError)) return err;
  const display = DISPLAY_NAMES[provider];
  const refused = err.status === 401 || err.status === 403;
  const message = refused
    ? `${display} refused the stored API key (HTTP ${err.status}); connect it again with PUT /api/v1/integrations/${provider}`
    : `${display} ${what}: ${err.message}`;
  return new AppError(
    502,
    'INTEGRATION_UNAVAILABLE',
    message,
    { provider },
    err.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.retryAfterSeconds) } : {},
  );
}
