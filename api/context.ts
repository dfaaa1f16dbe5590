import type { ParameterizedContext } from 'koa';
import type { Logger } from '../src/logger';
import type { Caller } from '../src/services/api-keys';

export interface AppState {
  requestId: string;
  log: Logger;
  caller?: Caller;
}

export type AppContext = ParameterizedContext<AppState>;

/**
 * The address people reach this service at: PUBLIC_URL, else the request's own (its Host, or
 * X-Forwarded-Proto and -Host when TRUST_PROXY_HOPS says a proxy set them).
 */
export const siteOrigin = (ctx: { protocol: string; host: string }, config: { PUBLIC_URL?: string | undefined }) =>
  config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;
