import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { changed, execute, firstRow, rows, type Queryable } from '../../db/sql';
import type { Config } from '../../config';
import { SecretBox } from '../../crypto/secret-box';
import { AppError, conflict, notFound, validationError } from '../../errors';
import { Accounts } from '../accounts';
import { GrantRefused, VendorOAuth, type VendorTokens } from './vendor-oauth';
import { crmVendors, isCrmProvider, type CrmProvider, type CrmVendor } from './vendors';

export { CRM_PROVIDERS, type CrmProvider } from './vendors';

/** Refresh this long before the vendor's stated expiry, so a push never starts with a dying token. */
const REFRESH_MARGIN_MS = 60_000;
/** An authorization the person never finished is forgotten after this. */
const AUTHORIZATION_TTL = '1 hour';

export interface CrmConnectionSummary {
  integrationId: string;
  provider: CrmProvider;
  label: string;
  status: 'connected' | 'broken';
  brokenReason: string | null;
  connectedAt: string;
}

export interface CrmConnectionInput {
  provider: CrmProvider;
  accessToken: string;
  refreshToken?: string;
  expiresAt?: string;
  apiBaseUrl?: string;
}

/** What a push needs: the current access token and the connection's API host (null: the vendor's fixed one). */
export interface CrmAccess {
  connectionId: string;
  accessToken: string;
  apiBaseUrl: string | null;
}

/** The connection cannot push until the person reconnects it; the reason says why. */
export class ConnectionBroken extends Error {}

/** The columns of `SELECT * FROM crm_connections` that are read. */
interface ConnectionRow {
  id: string;
  account_id: string;
  provider: CrmProvider;
  access_token_encrypted: string;
  refresh_token_encrypted: string | null;
  expires_at: Date | null;
  api_base_url: string | null;
  status: 'connected' | 'broken';
  broken_reason: string | null;
}

/**
 * CRM and Google Sheets connections, made by OAuth 2 (authorization code with PKCE) from the
 * dashboard: several per tool and account, tokens sealed at rest, refreshed before they expire
 * and once on a 401, marked broken (with the vendor's reason) when a refresh is refused, and
 * revoked at the vendor on disconnect.
 */
export class CrmConnections {
  private readonly vendors: Record<CrmProvider, CrmVendor>;
  /** One refresh in flight per connection in this process; the row lock covers the others. */
  private readonly refreshing = new Map<string, Promise<CrmAccess>>();

  constructor(
    private readonly db: DataSource,
    private readonly secrets: SecretBox,
    private readonly accounts: Accounts,
    config: Config,
  ) {
    this.vendors = crmVendors(config);
  }

  vendor(provider: CrmProvider): CrmVendor {
    return this.vendors[provider];
  }

  /** A tool is offered in the dashboard only once its OAuth app's client id is set. */
  isConfigured(provider: CrmProvider): boolean {
    return Boolean(this.vendors[provider].clientId);
  }

  /**
   * An operator's import of tokens obtained elsewhere (`POST /admin/v1/accounts/{id}/crm-connections`):
   * a new connection, refreshed like any other when it has a refresh token.
   */
  async record(accountId: string, input: CrmConnectionInput): Promise<CrmConnectionSummary> {
    await this.accounts.require(accountId);
    const [row] = await rows<{ id: string }>(
      this.db,
      `INSERT INTO crm_connections (account_id, provider, access_token_encrypted, refresh_token_encrypted, expires_at, api_base_url, label)
       VALUES ($1, $2, $3, $4, $5, $6, 'imported by an operator') RETURNING id`,
      [
        accountId,
        input.provider,
        this.secrets.seal(input.accessToken),
        input.refreshToken ? this.secrets.seal(input.refreshToken) : null,
        input.expiresAt ? new Date(input.expiresAt) : null,
        input.apiBaseUrl ?? null,
      ],
    );
    return (await this.list(accountId)).find((c) => c.integrationId === row.id)!;
  }

  async list(accountId: string): Promise<CrmConnectionSummary[]> {
    const connections = await rows<{
      id: string;
      provider: CrmProvider;
      label: string;
      status: 'connected' | 'broken';
      broken_reason: string | null;
      created_at: Date;
    }>(
      this.db,
      `SELECT id, provider, label, status, broken_reason, created_at FROM crm_connections
       WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return connections.map((r) => ({
      integrationId: r.id,
      provider: r.provider,
      label: r.label,
      status: r.status,
      brokenReason: r.broken_reason,
      connectedAt: r.created_at.toISOString(),
    }));
  }

  /**
   * Where to send the person: the vendor's consent page, with our state and PKCE challenge.
   * `reconnectId` names a connection whose tokens the new grant replaces (a broken one).
   */
  async startAuthorization(input: {
    accountId: string;
    memberId: string;
    provider: CrmProvider;
    redirectUri: string;
    reconnectId?: string;
  }): Promise<URL> {
    const oauth = this.oauthOf(input.provider);
    if (input.reconnectId) await this.requireOwned(input.accountId, input.reconnectId, input.provider);
    const state = randomBytes(24).toString('base64url');
    const verifier = VendorOAuth.newVerifier();
    await execute(
      this.db,
      `INSERT INTO crm_authorizations (state, account_id, member_id, provider, code_verifier_encrypted, reconnect_id)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [state, input.accountId, input.memberId, input.provider, this.secrets.seal(verifier), input.reconnectId ?? null],
    );
    return oauth.authorizationUrl({ redirectUri: input.redirectUri, state, verifier });
  }

  /**
   * The vendor sent the person back: the state must be one this person started (used once), the
   * code is exchanged with its PKCE verifier, and the connection is stored (or mended).
   */
  async completeAuthorization(input: {
    memberId: string;
    provider: CrmProvider;
    callbackUrl: URL;
    redirectUri: string;
    label: string;
  }): Promise<CrmConnectionSummary> {
    const state = input.callbackUrl.searchParams.get('state') ?? '';
    const taken = await changed<{ account_id: string; code_verifier_encrypted: string; reconnect_id: string | null }>(
      this.db,
      `DELETE FROM crm_authorizations WHERE state = $1 AND member_id = $2 AND provider = $3
         AND created_at > now() - interval '${AUTHORIZATION_TTL}'
       RETURNING account_id, code_verifier_encrypted, reconnect_id`,
      [state, input.memberId, input.provider],
    );
    const pending = taken.rows[0];
    if (!pending)
      throw new AppError(
        400,
        'OAUTH_STATE_INVALID',
        'This connection attempt is unknown, expired or was started by someone else: start it again',
      );
    const refused = input.callbackUrl.searchParams.get('error');
    if (refused)
      throw new AppError(400, 'OAUTH_REFUSED', `${this.vendors[input.provider].name} did not connect: ${refused}`);
    const tokens = await this.oauthOf(input.provider)
      .exchange(input.callbackUrl, {
        state,
        verifier: this.secrets.open(pending.code_verifier_encrypted),
        redirectUri: input.redirectUri,
      })
      .catch((err: unknown) => {
        throw new AppError(
          502,
          'OAUTH_EXCHANGE_FAILED',
          `${this.vendors[input.provider].name} did not give us a token: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    const accountId = pending.account_id;
    const label = tokens.apiBaseUrl ? new URL(tokens.apiBaseUrl).host : input.label;
    const connectionId = pending.reconnect_id
      ? await this.storeTokens(this.db, pending.reconnect_id, tokens, { reconnected: true })
      : (
          await rows<{ id: string }>(
            this.db,
            `INSERT INTO crm_connections (account_id, provider, access_token_encrypted, refresh_token_encrypted, expires_at, api_base_url, label)
             VALUES ($6, $7, $1, $2, $3, $4, $5) RETURNING id`,
            [...this.sealedTokens(tokens), label, accountId, input.provider],
          )
        )[0]?.id;
    if (!connectionId) throw notFound('Connection');
    return (await this.list(accountId)).find((c) => c.integrationId === connectionId)!;
  }

  /** Forgets the connection, after asking the vendor to revoke its grant where the vendor offers that. */
  async disconnect(accountId: string, connectionId: string): Promise<{ revoked: boolean }> {
    const row = await this.requireOwned(accountId, connectionId);
    let revoked = false;
    const token = row.refresh_token_encrypted ?? row.access_token_encrypted;
    const oauth = this.isConfigured(row.provider) ? this.oauthOf(row.provider) : undefined;
    if (oauth?.canRevoke) {
      // A vendor that is down must not keep the connection here: it is removed either way.
      revoked = await oauth
        .revoke(this.secrets.open(token))
        .then(() => true)
        .catch(() => false);
    }
    await execute(this.db, `DELETE FROM crm_connections WHERE id = $1`, [row.id]);
    return { revoked };
  }

  /**
   * The connection a destination names (`integrationId`), or the account's only one of the
   * tool: 409 when none, 400 when several and none named, 404 for one not of this account.
   */
  async resolveDestination(
    accountId: string,
    provider: CrmProvider,
    integrationId: string | undefined,
    field: string,
  ): Promise<string> {
    const connections = (await this.list(accountId)).filter((c) => c.provider === provider);
    if (integrationId) {
      if (!connections.some((c) => c.integrationId === integrationId))
        throw validationError([{ field, message: `no ${this.vendors[provider].name} connection with this id` }]);
      return integrationId;
    }
    if (connections.length === 0)
      throw conflict(
        'INTEGRATION_NOT_CONNECTED',
        `${provider} is not connected; connect it once in the dashboard, then enable it`,
      );
    if (connections.length > 1)
      throw validationError([
        {
          field,
          message: `several ${this.vendors[provider].name} connections: name one (${connections.map((c) => c.integrationId).join(', ')})`,
        },
      ]);
    return connections[0]!.integrationId;
  }

  /**
   * A token to push with: the stored one while it has more than a minute left, else a fresh one.
   * `after401` forces a refresh (the vendor refused the token we hold). Throws ConnectionBroken
   * when the connection is gone or the vendor refused our refresh token.
   */
  async accessFor(
    accountId: string,
    provider: CrmProvider,
    connectionId: string | null,
    after401 = false,
  ): Promise<CrmAccess> {
    const row = await this.connectionFor(accountId, provider, connectionId);
    if (row.status === 'broken') throw new ConnectionBroken(this.brokenText(row.provider, row.broken_reason));
    if (!after401 && !this.dueForRefresh(row)) return this.accessOf(row);
    let running = this.refreshing.get(row.id);
    if (!running) {
      running = this.refresh(row.id, after401 ? this.secrets.open(row.access_token_encrypted) : null).finally(() =>
        this.refreshing.delete(row.id),
      );
      this.refreshing.set(row.id, running);
    }
    return running;
  }

  async sheetHeaderWritten(connectionId: string, spreadsheetId: string, sheet: string): Promise<boolean> {
    const written = await rows<unknown>(
      this.db,
      `SELECT 1 FROM sheet_headers WHERE crm_connection_id = $1 AND spreadsheet_id = $2 AND sheet_name = $3`,
      [connectionId, spreadsheetId, sheet],
    );
    return written.length > 0;
  }

  async recordSheetHeader(connectionId: string, spreadsheetId: string, sheet: string): Promise<void> {
    await execute(this.db, `INSERT INTO sheet_headers VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      connectionId,
      spreadsheetId,
      sheet,
    ]);
  }

  /**
   * Under the row's lock, so that one process refreshes and the others then read its result
   * (Salesforce and Pipedrive refresh tokens are single-use: a second refresh would break it).
   */
  private async refresh(connectionId: string, refusedToken: string | null): Promise<CrmAccess> {
    const outcome = await this.db.transaction(async (tx: EntityManager): Promise<CrmAccess | { broken: string }> => {
      const row = await firstRow<ConnectionRow>(tx, `SELECT * FROM crm_connections WHERE id = $1 FOR UPDATE`, [
        connectionId,
      ]);
      if (!row) return { broken: 'not sent: the connection was removed; connect the tool again in the dashboard' };
      if (row.status === 'broken') return { broken: this.brokenText(row.provider, row.broken_reason) };
      const current = this.secrets.open(row.access_token_encrypted);
      // Someone refreshed while we waited for the lock: their token is the one to use.
      if (refusedToken ? current !== refusedToken : !this.dueForRefresh(row)) return this.accessOf(row);
      let tokens: VendorTokens;
      try {
        if (!row.refresh_token_encrypted)
          throw new GrantRefused('the tool gave no refresh token and the access token was refused');
        tokens = await this.oauthOf(row.provider).refresh(this.secrets.open(row.refresh_token_encrypted));
      } catch (err) {
        if (!(err instanceof GrantRefused)) throw err;
        // Committed with the transaction, so the page shows "reconnect" from now on.
        await execute(
          tx,
          `UPDATE crm_connections SET status = 'broken', broken_reason = $2, updated_at = now() WHERE id = $1`,
          [row.id, err.message],
        );
        return { broken: this.brokenText(row.provider, err.message) };
      }
      await this.storeTokens(tx, row.id, tokens, { reconnected: false });
      return {
        connectionId: row.id,
        accessToken: tokens.accessToken,
        apiBaseUrl: tokens.apiBaseUrl ?? row.api_base_url,
      };
    });
    if ('broken' in outcome) throw new ConnectionBroken(outcome.broken);
    return outcome;
  }

  private brokenText(provider: CrmProvider, reason: string | null): string {
    return `not sent: the ${this.vendors[provider].name} connection is broken (${reason ?? 'refused'}); reconnect it in the dashboard`;
  }

  private dueForRefresh(row: ConnectionRow): boolean {
    return row.expires_at !== null && row.expires_at.getTime() - Date.now() < REFRESH_MARGIN_MS;
  }

  private accessOf(row: ConnectionRow): CrmAccess {
    return {
      connectionId: row.id,
      accessToken: this.secrets.open(row.access_token_encrypted),
      apiBaseUrl: row.api_base_url,
    };
  }

  /** The named connection, or the only one of the tool (an older destination names none). */
  private async connectionFor(
    accountId: string,
    provider: CrmProvider,
    connectionId: string | null,
  ): Promise<ConnectionRow> {
    const found = await rows<ConnectionRow>(
      this.db,
      `SELECT * FROM crm_connections WHERE account_id = $1 AND provider = $2 ${connectionId ? 'AND id = $3' : ''}`,
      connectionId ? [accountId, provider, connectionId] : [accountId, provider],
    );
    if (found.length !== 1)
      throw new ConnectionBroken(
        `not sent: ${this.vendors[provider].name} is not connected any more (or several are and none is named); connect it again in the dashboard`,
      );
    return found[0]!;
  }

  private async requireOwned(accountId: string, connectionId: string, provider?: CrmProvider): Promise<ConnectionRow> {
    await this.accounts.require(accountId);
    const row = await firstRow<ConnectionRow>(
      this.db,
      `SELECT * FROM crm_connections WHERE id = $1 AND account_id = $2`,
      [connectionId, accountId],
    );
    if (!row || (provider && row.provider !== provider)) throw notFound('Connection');
    return row;
  }

  private oauthOf(provider: CrmProvider): VendorOAuth {
    const vendor = this.vendors[provider];
    if (!vendor.clientId)
      throw new AppError(
        409,
        'INTEGRATION_NOT_CONFIGURED',
        `${vendor.name} is not configured on this service: its OAuth app's client id is not set`,
      );
    return new VendorOAuth({ ...vendor, clientId: vendor.clientId });
  }

  /**
   * A vendor's new tokens for a connection (a refresh token or API host it did not resend is
   * kept); `reconnected`: the person granted again, so a broken connection works again.
   * Answers the connection's id, or undefined when it is gone.
   */
  private async storeTokens(
    db: Queryable,
    connectionId: string,
    tokens: VendorTokens,
    { reconnected }: { reconnected: boolean },
  ): Promise<string | undefined> {
    const stored = await changed<{ id: string }>(
      db,
      `UPDATE crm_connections SET access_token_encrypted = $2, refresh_token_encrypted = coalesce($3, refresh_token_encrypted),
         expires_at = $4, api_base_url = coalesce($5, api_base_url), updated_at = now()
         ${reconnected ? ", status = 'connected', broken_reason = NULL" : ''}
       WHERE id = $1 RETURNING id`,
      [connectionId, ...this.sealedTokens(tokens)],
    );
    return stored.rows[0]?.id;
  }

  private sealedTokens(tokens: VendorTokens): [string, string | null, Date | null, string | null] {
    return [
      this.secrets.seal(tokens.accessToken),
      tokens.refreshToken ? this.secrets.seal(tokens.refreshToken) : null,
      tokens.expiresAt,
      tokens.apiBaseUrl,
    ];
  }
}

export const crmProviderOf = (name: string): CrmProvider => {
  if (!isCrmProvider(name)) throw notFound('Tool');
  return name;
};
