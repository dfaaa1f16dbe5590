import type { Middleware } from 'koa';
import { AppError } from '../../src/errors';
import type { AppState } from '../context';

interface HttpLikeError {
  status?: number;
  expose?: boolean;
  message?: string;
}

/**
 * The one place that writes error bodies. Domain errors carry their own status and code;
 * Koa's own client errors (bad JSON, body too large) become INVALID_REQUEST; anything else is
 * a 500 whose details go to the log under the request id, never to the client.
 */
export const errorEnvelope: Middleware<AppState> = async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new AppError(404, 'NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
    }
  } catch (err) {
    if (err instanceof AppError) {
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.body = { error: { code: err.code, message: err.message, ...err.extra } };
      return;
    }
    const httpError = err as HttpLikeError;
    if (httpError.status && httpError.status >= 400 && httpError.status < 500 && httpError.expose) {
      ctx.status = 400;
      ctx.body = { error: { code: 'INVALID_REQUEST', message: httpError.message ?? 'Invalid request' } };
      return;
    }
    ctx.state.log.error({ err }, 'unhandled error');
    ctx.status = 500;
    ctx.body = {
      error: {
        code: 'INTERNAL_ERROR',
        message: `Internal error; quote request id ${ctx.state.requestId} when reporting it`,
      },
    };
  }
};
