import { accountScoreSignal } from './account-score';
import { accountWatchlist } from './account-watchlist';
import { fundraising } from './fundraising';
import { hiring } from './hiring';
import { jobChanges } from './job-changes';
import type { MissingField, SignalType } from './kit/signal-type';

/**
 * Every signal type, in the order the catalogue, the OpenAPI document and the tool server list
 * them. Adding a type is its module and one line here.
 */
const types: SignalType[] = [jobChanges, accountWatchlist, fundraising, hiring, accountScoreSignal];

export const SIGNAL_TYPES: readonly SignalType[] = types;

export const SIGNAL_TYPE_IDS = types.map((type) => type.signalTypeId) as [string, ...string[]];
export type SignalTypeId = string;

const BY_ID = new Map(types.map((type) => [type.signalTypeId, type]));

/**
 * Adds a type after the listed ones, from a module of its own (the extension test's throwaway
 * type). The API builds its create bodies, type-id enums and tool schemas when its modules
 * load, so a type registers before they are imported.
 */
export function registerSignalType(type: SignalType): void {
  for (const key of ['signalTypeId', 'createPath', 'operationName'] as const) {
    if (types.some((known) => known[key] === type[key]))
      throw new Error(`a signal type has ${key} ${type[key]} already`);
  }
  types.push(type);
  SIGNAL_TYPE_IDS.push(type.signalTypeId);
  BY_ID.set(type.signalTypeId, type);
}

export function signalType(id: string): SignalType {
  const type = BY_ID.get(id);
  if (!type) throw new Error(`unknown signal type ${id}`);
  return type;
}

export type { MissingField, SignalType };
