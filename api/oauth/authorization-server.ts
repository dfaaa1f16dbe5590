import { createPrivateKey, hkdfSync } from 'node:crypto';
import type Koa from 'koa';
import mount from 'koa-mount';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Services } from '../../src/services';
import { PERMISSIONS } from '../../src/db/entities/api-key';
import type { Caller } from '../../src/services/api-keys';
import { OAuthRecordStore } from '../../src/oauth/record-store';
import { UNUSED_CLIENT_TTL_SECONDS } from '../../src/services/assistant-registrations';
import { siteOrigin, type AppState } from '../context';
import { html } from '../dashboard/html';
import { page } from '../dashboard/layout';
import { setDashboardHeaders } from '../dashboard/security-headers';
import { SESSION_COOKIE } from '../dashboard/web';

/** Where the authorization server lives: its issuer is `<origin>/oauth`. */
export const OAUTH_PATH = '/oauth';
/** The dashboard page where a person signs in and says yes or no to an assistant. */
export const CONSENT_PATH = '/assistants/consent';
const TOOL_SERVER_PATH = '/mcp';
const REGISTRATION_PATH = `${OAUTH_PATH}/reg`;
/** Without PUBLIC_URL each origin a request names gets its issuer; this bounds how many are kept. */
const MAX_ORIGINS = 16;
/** RFC 8414 and OIDC discovery at the root, path-inserted for the `/oauth` issuer, as MCP clients look first. */
const ROOT_DISCOVERY = new Map([
  [`/.well-known/oauth-authorization-server${OAUTH_PATH}`, `${OAUTH_PATH}/.well-known/oauth-authorization-server`],
  [`/.well-known/openid-configuration${OAUTH_PATH}`, `${OAUTH_PATH}/.well-known/openid-configuration`],
]);

interface Issuer {
  provider: Provider;
  serve: Koa.Middleware;
  resource: string;
}

/**
 * The OAuth 2.1 authorization server assistants sign in with before calling /mcp:
 * oidc-provider under our Koa app, its records in PostgreSQL, its sign-in and consent pages the
 * dashboard's. Access tokens are opaque, bound to the `/mcp` resource (RFC 8707), and stored,
 * so revoking a grant in the dashboard ends them at once.
 */
export class AssistantAuthorization {
  private readonly issuers = new Map<string, Issuer>();
  /** Signs the authorization server's cookies; koa-mount runs it on our app's context, so the app needs them too. */
  readonly cookieKeys: string[];
  private readonly signingKey: Record<string, unknown>;

  constructor(
    private readonly services: Pick<
      Services,
      'db' | 'config' | 'assistantGrants' | 'assistantRegistrations' | 'memberSessions'
    >,
  ) {
    const secret = Buffer.from(services.config.SECRETS_KEY, 'base64');
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));
    this.cookieKeys = [derive('oauth cookies').toString('base64url')];
    this.signingKey = ed25519Jwk(derive('oauth signing key'));
  }

  /** The origin people and assistants reach us at: one rule with the dashboard's (siteOrigin). */
  originOf(ctx: { protocol: string; host: string }): string {
    return siteOrigin(ctx, this.services.config);
  }

  issuerUrl(origin: string): string {
    return `${origin}${OAUTH_PATH}`;
  }

  resourceUrl(origin: string): string {
    return `${origin}${TOOL_SERVER_PATH}`;
  }

  providerFor(origin: string): Provider {
    return this.issuerFor(origin).provider;
  }

  /** Serves the authorization server's own paths and the root discovery documents; passes the rest on. */
  middleware(): Koa.Middleware<AppState> {
    return async (ctx, next) => {
      const discovery = ctx.method === 'GET' ? ROOT_DISCOVERY.get(ctx.path) : undefined;
      if (discovery) ctx.path = discovery;
      else if (ctx.path !== OAUTH_PATH && !ctx.path.startsWith(`${OAUTH_PATH}/`)) return next();
      const publicUrl = this.services.config.PUBLIC_URL;
      if (publicUrl) {
        // oidc-provider builds every endpoint it names (discovery, redirects) from the request's
        // href: with PUBLIC_URL set, a forged Host or X-Forwarded-Host must not choose them.
        const origin = new URL(publicUrl).origin;
        const request = ctx.request;
        Object.defineProperty(request, 'href', { configurable: true, get: () => `${origin}${request.originalUrl}` });
      }
      if (ctx.method === 'POST' && ctx.path === REGISTRATION_PATH) {
        const waitSeconds = await this.services.assistantRegistrations.admit(ctx.ip);
        if (waitSeconds !== null) {
          // RFC 7591's error shape; 429 and Retry-After say when to try again.
          ctx.status = 429;
          ctx.set({ 'Retry-After': String(waitSeconds), 'Cache-Control': 'no-store' });
          ctx.body = {
            error: 'temporarily_unavailable',
            error_description: `too many client registrations from this address; try again in ${waitSeconds} seconds`,
          };
          return;
        }
      }
      await this.issuerFor(this.originOf(ctx)).serve(ctx as unknown as Koa.Context, next);
    };
  }

  /**
   * The caller behind an access token this server issued for the tool server at `origin`, or
   * null: unknown, expired, revoked, or for another resource.
   */
  async callerForToken(origin: string, value: string): Promise<Caller | null> {
    const { provider, resource } = this.issuerFor(origin);
    const token = await provider.AccessToken.find(value);
    if (!token || token.isExpired) return null;
    const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
    if (!audiences.includes(resource)) return null;
    return this.services.assistantGrants.callerFor(token.grantId, token.scope ?? '');
  }

  private issuerFor(origin: string): Issuer {
    let issuer = this.issuers.get(origin);
    if (!issuer) {
      if (this.issuers.size >= MAX_ORIGINS) this.issuers.delete(this.issuers.keys().next().value as string);
      const provider = new Provider(this.issuerUrl(origin), this.configuration(this.resourceUrl(origin)));
      // Proxy headers count only where the app trusts them (TRUST_PROXY_HOPS), as for the rest of the app.
      provider.proxy = this.services.config.TRUST_PROXY_HOPS > 0;
      provider.maxIpsCount = this.services.config.TRUST_PROXY_HOPS;
      issuer = { provider, serve: mount(OAUTH_PATH, provider), resource: this.resourceUrl(origin) };
      this.issuers.set(origin, issuer);
    }
    return issuer;
  }

  /** The member signed in to the dashboard in this browser, if anyone (its session cookie, as the dashboard reads it). */
  private async dashboardMemberOf(ctx: KoaContextWithOIDC): Promise<string | undefined> {
    const token = ctx.cookies.get(SESSION_COOKIE);
    return token ? (await this.services.memberSessions.resolve(token))?.memberId : undefined;
  }

  /**
   * The provider's own sign-in lasts 14 days and outlives the dashboard's: it counts only while
   * the same person is signed in to the dashboard in this browser. Otherwise the person signs in
   * (again) through the dashboard, whose consent page starts the interaction over for them.
   */
  private interactionPolicy() {
    const policy = interactionPolicy.base();
    policy.get('login')!.checks.add(
      new interactionPolicy.Check(
        'dashboard_member_changed',
        'the person signed in to the dashboard is not the one signed in here',
        async (ctx) => {
          const accountId = ctx.oidc.session?.accountId;
          if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT; // `no_session` asks already
          return (await this.dashboardMemberOf(ctx)) === accountId
            ? interactionPolicy.Check.NO_NEED_TO_PROMPT
            : interactionPolicy.Check.REQUEST_PROMPT;
        },
      ),
    );
    return policy;
  }

  private configuration(resource: string): Configuration {
    const { db, config, assistantRegistrations } = this.services;
    const scope = PERMISSIONS.join(' ');
    return {
      adapter: (model: string) => new OAuthRecordStore(db, model, UNUSED_CLIENT_TTL_SECONDS),
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      jwks: { keys: [this.signingKey] },
      cookies: { keys: this.cookieKeys },
      // read, write and enrich are the /mcp resource's scopes; listed here too because registration
      // checks a client's `scope` against this list (the MCP SDK registers with them).
      scopes: ['openid', 'offline_access', ...PERMISSIONS],
      // Production serves the authorization code flow alone: the hybrid flow's ID token in the
      // fragment is refused at /oauth/auth (unsupported_response_type) and in registrations.
      ...(config.NODE_ENV === 'production' ? { responseTypes: ['code'] } : {}),
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        id_token_signed_response_alg: 'EdDSA',
        token_endpoint_auth_method: 'none',
      },
      // Assistants run in browsers too (claude.ai, chatgpt.com): the token endpoints answer any origin.
      clientBasedCORS: () => true,
      // Not extra fields: listing two standard ones runs our production rules on them at registration.
      extraClientMetadata: {
        properties: ['redirect_uris', 'response_types'],
        validator: (ctx, key, value, client) => {
          if (ctx?.oidc?.route !== 'registration') return; // a stored client is loaded as it was accepted
          const problem = assistantRegistrations.problemWith(
            key as 'redirect_uris' | 'response_types',
            value,
            client as { application_type?: unknown },
          );
          // The provider names a problem that starts with `redirect_uris` invalid_redirect_uri (RFC 7591).
          if (problem) throw new errors.InvalidClientMetadata(problem.description);
        },
      },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        revocation: { enabled: true },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`unknown resource: only ${resource} is served`);
            return {
              scope,
              audience: resource,
              accessTokenFormat: 'opaque',
              accessTokenTTL: Math.round(config.ASSISTANT_TOKEN_TTL / 1000),
            };
          },
        },
      },
      pkce: { required: () => true },
      // Every assistant gets a refresh token, rotated on use (RFC 9700 for public clients).
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      // An assistant's tokens live as long as its grant (revocable in /assistants), not as the
      // browser sign-in it came through: signing out of the dashboard must not cut assistants off.
      expiresWithSession: () => false,
      interactions: {
        policy: this.interactionPolicy(),
        url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}`,
      },
      // A refusal that cannot go back to the assistant (an unknown client or redirect URL) is a dashboard page.
      renderError: (ctx, out) => {
        setDashboardHeaders(ctx);
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'html';
        ctx.body = page({
          title: 'Sign-in refused',
          notice: { kind: 'error', text: `${out.error}: ${out.error_description ?? ''}` },
          body: html`<p>Start the sign-in again from the assistant.</p>`,
        });
      },
      ttl: {
        AccessToken: Math.round(config.ASSISTANT_TOKEN_TTL / 1000),
        AuthorizationCode: 60,
        Interaction: 3600,
        Session: 14 * 86_400,
        Grant: 365 * 86_400,
        RefreshToken: 30 * 86_400,
        IdToken: 3600,
      },
    };
  }
}

/** An Ed25519 key as a JWK from 32 bytes of seed: the same on every API process. */
function ed25519Jwk(seed: Buffer): Record<string, unknown> {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return { ...createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }), alg: 'EdDSA' };
}
