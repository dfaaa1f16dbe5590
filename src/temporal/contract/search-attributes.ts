// Part of the workflows' contract: imported by workflow code, so nothing but @temporalio/common.
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

// Values are stored unencrypted by the server: ids and enum-like names only, never personal data.
export const SignalIdKey = defineSearchAttributeKey('SignalId', SearchAttributeType.KEYWORD);
export const AccountIdKey = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
/** The signal type id, e.g. `job_changes`, `account_watchlist`. */
export const SignalTypeKey = defineSearchAttributeKey('SignalType', SearchAttributeType.KEYWORD);
export const LeadIdKey = defineSearchAttributeKey('LeadId', SearchAttributeType.KEYWORD);
/** Where a lead goes: `webhook`, sequencer and CRM names (one of the namespace's 3 KeywordList attributes). */
export const RoutesKey = defineSearchAttributeKey('Routes', SearchAttributeType.KEYWORD_LIST);
/** A signal workflow's state: `active`, `paused` or `credits_exhausted`; lists every paused signal in one query. */
export const SignalStatusKey = defineSearchAttributeKey('SignalStatus', SearchAttributeType.KEYWORD);
/** The intent source a sync run is of, e.g. `job-boards`: the Web UI finds a source's runs by it. */
export const SourceNameKey = defineSearchAttributeKey('SourceName', SearchAttributeType.KEYWORD);

/** Every custom attribute the workflows set; a server must have all of them registered. */
export const searchAttributeKeys = [
  SignalIdKey,
  AccountIdKey,
  SignalTypeKey,
  LeadIdKey,
  RoutesKey,
  SignalStatusKey,
  SourceNameKey,
] as const;

/** `temporal server start-dev` arguments that register {@link searchAttributeKeys}. */
export function devServerSearchAttributeFlags(): string[] {
  return searchAttributeKeys.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${TypedSearchAttributes.toMetadataType(key.type)}`,
  ]);
}
