import type { Connection } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { setTimeout as sleep } from 'node:timers/promises';
import { searchAttributeKeys } from './contract/search-attributes';

export interface RegistrationOptions {
  /** How long to keep trying while the server settles (a namespace or attribute just created). */
  timeoutMs?: number;
  onRetry?: (problem: string) => void;
}

/**
 * Makes sure the namespace has every search attribute the workflows set, adding the missing
 * ones through the operator service. Idempotent: a second start finds them and adds nothing.
 * A fresh server needs a few seconds before a new namespace or attribute is usable, so this
 * retries until every attribute is listed; it throws, naming what is missing and why, when
 * that does not happen in time (Temporal Cloud refuses the operator call: add them with tcld).
 */
export async function registerSearchAttributes(
  connection: Connection,
  namespace: string,
  options: RegistrationOptions = {},
): Promise<{ added: string[] }> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const added = new Set<string>();
  let problem = 'no answer yet';
  for (;;) {
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      const listed = customAttributes ?? {};
      const clash = searchAttributeKeys.find(
        (key) => listed[key.name] !== undefined && listed[key.name] !== indexedType(key),
      );
      if (clash) {
        throw new RegistrationRefused(
          `search attribute ${clash.name} exists in namespace ${namespace} with another type; this service needs ${TypedSearchAttributes.toMetadataType(clash.type)}`,
        );
      }
      const missing = searchAttributeKeys.filter((key) => listed[key.name] === undefined);
      if (missing.length === 0) return { added: [...added] };
      problem = `not registered yet: ${missing.map((key) => key.name).join(', ')}`;
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((key) => [key.name, indexedType(key)])),
      });
      for (const key of missing) added.add(key.name);
    } catch (err) {
      if (err instanceof RegistrationRefused) throw err;
      problem = (err as Error).message;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `cannot register the search attributes ${searchAttributeKeys.map((key) => key.name).join(', ')} in Temporal namespace ${namespace}: ${problem}. ` +
          'Register them on the server (temporal operator search-attribute create, or tcld for Temporal Cloud) and start again.',
      );
    }
    options.onRetry?.(problem);
    await sleep(1000);
  }
}

class RegistrationRefused extends Error {}

function indexedType(key: (typeof searchAttributeKeys)[number]) {
  return encodeSearchAttributeIndexedValueType(key.type)!;
}
