import type { ParameterizedContext } from 'koa';
import type { Logger } from '../src/logger';
import type { Caller } from '../src/services/api-keys';

export interface AppState {
  requestId: string;
  log: Logger;
  caller?: Caller;
}

export type AppContext = ParameterizedContext<AppState>;
