import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A vendor's OAuth 2 authorization server on 127.0.0.1, as the vendors document theirs: a
 * consent page at the authorize URL (the person clicks Allow), a token endpoint for the
 * authorization code (with PKCE S256 checked when a challenge was sent) and refresh grants,
 * RFC 7009 revocation. Errors are RFC 6749's (`invalid_grant`, `invalid_client`, ...).
 */
export interface OAuthServerOptions {
  /** The vendor's name on its consent page. */
  vendor: string;
  clientId: string;
  clientSecret: string;
  /** How the client must authenticate at the token endpoint. */
  clientAuth: 'post' | 'basic';
  authorizePath: string;
  tokenPath: string;
  revokePath?: string;
  /** HubSpot's revocation: `DELETE {path}/{refreshToken}`, answering 204. */
  deletePath?: string;
  /** Seconds; null: the answer names no lifetime (Salesforce). */
  expiresIn: number | null;
  /** Single-use refresh tokens: each refresh answers a new one and retires the old. */
  rotateRefreshTokens: boolean;
  /** Extra fields of every token answer (`instance_url`, `api_domain`). */
  extra?: () => Record<string, unknown>;
}

export interface OAuthServer {
  url: string;
  /** The token answers given, in order (authorization code and refresh). */
  grants: { grantType: string; accessToken: string }[];
  revoked: string[];
  /** PKCE challenges received at the authorize URL. */
  challenges: string[];
  /** Whether the API should accept this access token: issued, not expired, not revoked. */
  accepts(authorization: string | undefined): boolean;
  /** Every access token issued so far stops working, as if its hour had passed. */
  expireAccessTokens(): void;
  /** The person removed the app at the vendor: every token and refresh token is dead. */
  revokeEverything(): void;
  close(): Promise<void>;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  used: boolean;
}

export async function startOAuthServer(options: OAuthServerOptions): Promise<OAuthServer> {
  const codes = new Map<string, Code>();
  const accessTokens = new Map<string, { expiresAt: number; revoked: boolean }>();
  const refreshTokens = new Map<string, { live: boolean }>();
  const grants: OAuthServer['grants'] = [];
  const revoked: string[] = [];
  const challenges: string[] = [];
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('base64url')}`;

  const issue = (grantType: string, refreshToken?: string) => {
    const accessToken = token(`${options.vendor.toLowerCase()}-at`);
    accessTokens.set(accessToken, {
      expiresAt: options.expiresIn === null ? Infinity : Date.now() + options.expiresIn * 1000,
      revoked: false,
    });
    let refresh = refreshToken;
    if (!refresh || options.rotateRefreshTokens) {
      if (refresh) refreshTokens.set(refresh, { live: false });
      refresh = token(`${options.vendor.toLowerCase()}-rt`);
      refreshTokens.set(refresh, { live: true });
    }
    grants.push({ grantType, accessToken });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      ...(options.expiresIn === null ? {} : { expires_in: options.expiresIn }),
      ...(grantType === 'authorization_code' || options.rotateRefreshTokens ? { refresh_token: refresh } : {}),
      ...options.extra?.(),
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://vendor.test');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(body));
      };
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));

      if (req.method === 'GET' && url.pathname === options.authorizePath) {
        const q = url.searchParams;
        if (q.get('client_id') !== options.clientId) return json(400, { error: 'invalid_client' });
        if (q.get('code_challenge')) {
          if (q.get('code_challenge_method') !== 'S256') return json(400, { error: 'invalid_request' });
          challenges.push(q.get('code_challenge')!);
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const hidden = [...q].map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v)}">`).join('');
        res.end(
          `<!doctype html><title>${options.vendor}</title><h1>Allow access to your ${options.vendor} account?</h1>` +
            `<form method="get" action="${options.authorizePath}/decision">${hidden}` +
            `<button id="allow" name="decision" value="allow">Allow</button>` +
            `<button id="deny" name="decision" value="deny">Deny</button></form>`,
        );
        return;
      }
      if (req.method === 'GET' && url.pathname === `${options.authorizePath}/decision`) {
        const q = url.searchParams;
        const back = new URL(q.get('redirect_uri') ?? '');
        if (q.get('state')) back.searchParams.set('state', q.get('state')!);
        if (q.get('decision') !== 'allow') back.searchParams.set('error', 'access_denied');
        else {
          const code = token('code');
          codes.set(code, {
            clientId: q.get('client_id') ?? '',
            redirectUri: q.get('redirect_uri') ?? '',
            ...(q.get('code_challenge') ? { challenge: q.get('code_challenge')! } : {}),
            used: false,
          });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.href });
        res.end();
        return;
      }
      if (req.method === 'DELETE' && options.deletePath && url.pathname.startsWith(`${options.deletePath}/`)) {
        const value = decodeURIComponent(url.pathname.slice(options.deletePath.length + 1));
        const refresh = refreshTokens.get(value);
        if (!refresh) return json(404, { status: 'error', message: 'refresh token not found' });
        refresh.live = false;
        revoked.push(value);
        res.writeHead(204);
        res.end();
        return;
      }
      if (req.method === 'POST' && (url.pathname === options.tokenPath || url.pathname === options.revokePath)) {
        if (!clientAuthenticated(req, form, options)) return json(401, { error: 'invalid_client' });
        if (url.pathname === options.revokePath) {
          const value = form.get('token') ?? '';
          revoked.push(value);
          const refresh = refreshTokens.get(value);
          if (refresh) refresh.live = false;
          const access = accessTokens.get(value);
          if (access) access.revoked = true;
          res.writeHead(200);
          res.end();
          return;
        }
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          if (!code || code.used || code.redirectUri !== form.get('redirect_uri'))
            return json(400, { error: 'invalid_grant', error_description: 'unknown, used or mismatched code' });
          code.used = true;
          const verifier = form.get('code_verifier');
          if (
            code.challenge &&
            (!verifier || createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
          )
            return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          return json(200, issue('authorization_code'));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const value = form.get('refresh_token') ?? '';
          if (!refreshTokens.get(value)?.live)
            return json(400, { error: 'invalid_grant', error_description: 'the refresh token is revoked or expired' });
          return json(200, issue('refresh_token', value));
        }
        return json(400, { error: 'unsupported_grant_type' });
      }
      json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    grants,
    revoked,
    challenges,
    accepts(authorization) {
      const access = accessTokens.get((authorization ?? '').replace(/^Bearer /, ''));
      return Boolean(access && !access.revoked && access.expiresAt > Date.now());
    },
    expireAccessTokens() {
      for (const access of accessTokens.values()) access.expiresAt = 0;
    },
    revokeEverything() {
      for (const access of accessTokens.values()) access.revoked = true;
      for (const refresh of refreshTokens.values()) refresh.live = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function clientAuthenticated(req: http.IncomingMessage, form: URLSearchParams, options: OAuthServerOptions): boolean {
  if (options.clientAuth === 'basic') {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':')
      .map(decodeURIComponent);
    return id === options.clientId && secret === options.clientSecret;
  }
  return form.get('client_id') === options.clientId && form.get('client_secret') === options.clientSecret;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
