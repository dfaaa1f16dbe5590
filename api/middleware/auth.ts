import { timingSafeEqual, createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Permission } from '../../src/db/entities/api-key';
import { AppError, forbidden, invalidApiKey, unauthorized } from '../../src/errors';
import { API_KEY_PREFIX, type ApiKeys } from '../../src/services/api-keys';
import type { AppState } from '../context';

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** `Authorization: Bearer USR_...`: 401 UNAUTHORIZED when absent or malformed, 401 INVALID_API_KEY when unknown or revoked. */
export function apiKeyAuth(apiKeys: ApiKeys): Middleware<AppState> {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'));
    if (!token || !token.startsWith(API_KEY_PREFIX)) throw unauthorized();
    const caller = await apiKeys.authenticate(token);
    if (!caller) throw invalidApiKey();
    ctx.state.caller = caller;
    await next();
  };
}

export function requirePermission(permission: Permission): Middleware<AppState> {
  return async (ctx, next) => {
    if (!ctx.state.caller?.permissions.includes(permission)) throw forbidden(permission);
    await next();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The operator API's bearer token, compared in constant time. */
export function adminAuth(adminToken: string): Middleware<AppState> {
  const expected = digest(adminToken);
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'));
    if (!token)
      throw unauthorized('Missing or malformed Authorization header; send "Authorization: Bearer <ADMIN_TOKEN>"');
    if (!timingSafeEqual(digest(token), expected)) throw new AppError(401, 'UNAUTHORIZED', 'Invalid admin token');
    await next();
  };
}
