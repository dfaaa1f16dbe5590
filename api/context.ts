import type { ParameterizedContext } from 'koa';
import type { Logger } from '../src/logger';
import type { Caller } from '../src/services/api-keys';

export interface AppState {
  requestId: string;
  log: Logger;
  caller?: Caller;
}

export type AppContext = ParameterizedContext<AppState>;

/** This service's own address as the client reached it (behind a proxy, from X-Forwarded-Proto and -Host). */
export const siteOrigin = (ctx: { protocol: string; host: string }) => `${ctx.protocol}://${ctx.host}`;
