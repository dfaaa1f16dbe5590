import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../src/logger';
import type { AppState } from '../context';

/** Path segments that are themselves a secret: an invite link's token. */
const SECRET_SEGMENT = /(\/invites\/+)[^/]+/gi;

/**
 * A request's path as it may be written to the log: an invite link's token, like a key or a
 * secret, never reaches it. The query string is never logged (OAuth codes, `next` links).
 */
export const loggablePath = (path: string) => path.replace(SECRET_SEGMENT, '$1[redacted]');

/** Gives every request an id (echoed as X-Request-Id) and one structured log line when it ends. */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info(
        {
          method: ctx.method,
          path: loggablePath(ctx.path),
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          keyId: ctx.state.caller?.keyId,
        },
        'request',
      );
    }
  };
}
