// Imported by workflow code too: it may import nothing but @temporalio/common.
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

// Values are stored unencrypted by the server: ids and enum-like names only, never personal data.
export const SignalIdKey = defineSearchAttributeKey('SignalId', SearchAttributeType.KEYWORD);
export const AccountIdKey = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
/** The signal type id, e.g. `job_changes`, `account_watchlist`. */
export const SignalTypeKey = defineSearchAttributeKey('SignalType', SearchAttributeType.KEYWORD);
export const LeadIdKey = defineSearchAttributeKey('LeadId', SearchAttributeType.KEYWORD);
/** The delivery route of a delivery workflow: `webhook`, a sequencer or a CRM name. */
export const RouteKey = defineSearchAttributeKey('Route', SearchAttributeType.KEYWORD);

/** Every custom attribute the workflows set; a server must have all of them registered. */
export const searchAttributeKeys: ReadonlyArray<typeof SignalIdKey> = [
  SignalIdKey,
  AccountIdKey,
  SignalTypeKey,
  LeadIdKey,
  RouteKey,
];

/** `temporal server start-dev` arguments that register {@link searchAttributeKeys}. */
export function devServerSearchAttributeFlags(): string[] {
  return searchAttributeKeys.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${TypedSearchAttributes.toMetadataType(key.type)}`,
  ]);
}
