import * as oauth from 'openid-client';
import { vendorRequestOk } from '../../providers/vendor-http';
import type { CrmVendor } from './vendors';

/** What a token answer leaves us with. `expiresAt` is null where the vendor sends no lifetime (Salesforce). */
export interface VendorTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: Date | null;
  /** Salesforce `instance_url`, Pipedrive `api_domain`: where this connection's API lives. */
  apiBaseUrl: string | null;
}

/** The vendor said no to our refresh token (`invalid_grant`: revoked, expired, or used): only the person can mend it. */
export class GrantRefused extends Error {}

/**
 * One vendor's OAuth 2 authorization server through `openid-client`: authorization code with
 * PKCE (S256), refresh, revocation. The vendors publish no discovery document, so the
 * endpoints come from their documentation (vendors.ts). Plain http is allowed only where a
 * setting points at one (the tests' stand-ins).
 */
export class VendorOAuth {
  private readonly configuration: oauth.Configuration;

  constructor(private readonly vendor: CrmVendor & { clientId: string }) {
    const secret = vendor.clientSecret ?? '';
    this.configuration = new oauth.Configuration(
      {
        issuer: new URL(vendor.tokenUrl).origin,
        authorization_endpoint: vendor.authorizeUrl,
        token_endpoint: vendor.tokenUrl,
        ...(vendor.revokeUrl ? { revocation_endpoint: vendor.revokeUrl } : {}),
      },
      vendor.clientId,
      undefined,
      vendor.clientAuth === 'basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret),
    );
    if (new URL(vendor.tokenUrl).protocol === 'http:') oauth.allowInsecureRequests(this.configuration);
  }

  static newVerifier(): string {
    return oauth.randomPKCECodeVerifier();
  }

  async authorizationUrl(options: { redirectUri: string; state: string; verifier: string }): Promise<URL> {
    return oauth.buildAuthorizationUrl(this.configuration, {
      redirect_uri: options.redirectUri,
      response_type: 'code',
      state: options.state,
      code_challenge: await oauth.calculatePKCECodeChallenge(options.verifier),
      code_challenge_method: 'S256',
      ...(this.vendor.scope ? { scope: this.vendor.scope } : {}),
      ...this.vendor.authorizeParams,
    });
  }

  /** The person is back at our callback URL with a code: exchange it (state and PKCE checked). */
  async exchange(
    callbackUrl: URL,
    checks: { state: string; verifier: string; redirectUri: string },
  ): Promise<VendorTokens> {
    const answer = await oauth.authorizationCodeGrant(
      this.configuration,
      callbackUrl,
      { expectedState: checks.state, pkceCodeVerifier: checks.verifier },
      { redirect_uri: checks.redirectUri },
    );
    return this.tokensOf(answer);
  }

  async refresh(refreshToken: string): Promise<VendorTokens> {
    try {
      return this.tokensOf(await oauth.refreshTokenGrant(this.configuration, refreshToken));
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError && err.error === 'invalid_grant')
        throw new GrantRefused(
          `${this.vendor.name} refused the refresh token (invalid_grant): ${err.error_description ?? 'revoked or expired'}`,
        );
      throw err;
    }
  }

  get canRevoke(): boolean {
    return Boolean(this.vendor.revokeUrl ?? this.vendor.refreshTokenDeleteUrl);
  }

  /** RFC 7009 revocation, or HubSpot's deletion of the refresh token. */
  async revoke(token: string): Promise<void> {
    if (this.vendor.revokeUrl) return oauth.tokenRevocation(this.configuration, token);
    if (this.vendor.refreshTokenDeleteUrl)
      await vendorRequestOk({
        vendor: this.vendor.provider,
        operation: 'DELETE /oauth/v1/refresh-tokens/{token}',
        method: 'DELETE',
        url: new URL(`${this.vendor.refreshTokenDeleteUrl}/${encodeURIComponent(token)}`),
        secrets: [token],
      });
  }

  private tokensOf(answer: oauth.TokenEndpointResponse): VendorTokens {
    const apiBase = this.vendor.apiBaseField ? answer[this.vendor.apiBaseField] : undefined;
    return {
      accessToken: answer.access_token,
      ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
      expiresAt: typeof answer.expires_in === 'number' ? new Date(Date.now() + answer.expires_in * 1000) : null,
      apiBaseUrl: typeof apiBase === 'string' ? apiBase.replace(/\/+$/, '') : null,
    };
  }
}
