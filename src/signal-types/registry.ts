import { accountWatchlist } from './account-watchlist';
import { fundraising } from './fundraising';
import { hiring } from './hiring';
import { jobChanges } from './job-changes';
import type { MissingField, SignalType } from './signal-type';

/**
 * Every signal type, in the order the catalogue, the OpenAPI document and the tool server list
 * them. Adding a type is its module and one line here.
 */
export const SIGNAL_TYPES: readonly SignalType[] = [jobChanges, accountWatchlist, fundraising, hiring];

export const SIGNAL_TYPE_IDS = SIGNAL_TYPES.map((type) => type.signalTypeId) as [string, ...string[]];
export type SignalTypeId = string;

const BY_ID = new Map(SIGNAL_TYPES.map((type) => [type.signalTypeId, type]));

export function signalType(id: string): SignalType {
  const type = BY_ID.get(id);
  if (!type) throw new Error(`unknown signal type ${id}`);
  return type;
}

export type { MissingField, SignalType };
