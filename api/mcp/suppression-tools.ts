import { z } from 'zod';
import type { Services } from '../../src/services';
import { MAX_SUPPRESSIONS_PER_CALL } from '../../src/services/suppressions';
import { suppressionEntry, suppressionsQuery } from '../schemas/suppressions';
import { CHANGES, READS, defineTool, type AnyToolDef } from './tool';

/** The suppression list for assistants: the same service calls as its REST twins. */
export function suppressionTools(services: Pick<Services, 'suppressions'>): AnyToolDef[] {
  return [
    defineTool({
      name: 'list_suppressions',
      twin: 'listSuppressions',
      description:
        'Lists the account’s suppression list (emails, domains and company pages that never become leads), newest first; ' +
        'filter by kind or signalId, paged by limit and offset. Free.',
      input: suppressionsQuery,
      annotations: READS,
      run: (caller, query) => services.suppressions.list(caller.accountId, query),
    }),
    defineTool({
      name: 'add_suppressions',
      twin: 'addSuppressions',
      description:
        'Adds entries to the suppression list: {kind: email | domain | company_url, value, note?, signalId?} ' +
        '(a domain covers the company and every person of it; signalId limits an entry to one signal). ' +
        'Suppressed people and companies are never produced and never charged from the next evaluation on. ' +
        'Answers added, duplicates and rejected (by index). Free.',
      input: z.object({ entries: z.array(suppressionEntry).min(1).max(MAX_SUPPRESSIONS_PER_CALL) }),
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { entries }) => services.suppressions.add(caller.accountId, entries),
    }),
    defineTool({
      name: 'delete_suppression',
      twin: 'deleteSuppression',
      description:
        'Removes one suppression-list entry by id (from list_suppressions); later evaluations may produce its person or company again. Free.',
      input: z.object({ suppressionId: z.uuid() }),
      annotations: { ...CHANGES, destructiveHint: true },
      run: async (caller, { suppressionId }) => {
        await services.suppressions.remove(caller.accountId, suppressionId);
        return { removed: suppressionId };
      },
    }),
  ];
}
