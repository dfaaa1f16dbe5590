import { z } from 'zod';
import type { Services } from '../../src/services';
import { pageQuery } from '../schemas/common';
import { competitorChanges, competitorInput } from '../../src/services/competitors';
import { CHANGES, READS, defineTool, type AnyToolDef } from './tool';

/** The account's competitors for assistants: the same service calls as their REST twins. */
export function competitorTools(services: Pick<Services, 'competitors'>): AnyToolDef[] {
  return [
    defineTool({
      name: 'list_competitors',
      twin: 'listCompetitors',
      description:
        'Lists the account’s competitors (name, domain, Bluesky handles), newest first, paged by limit and offset. ' +
        'Reactions to their posts and their new followers are the watchlists’ competitor events. Free.',
      input: pageQuery,
      annotations: READS,
      run: (caller, query) => services.competitors.list(caller.accountId, query),
    }),
    defineTool({
      name: 'create_competitor',
      twin: 'createCompetitor',
      description:
        'Adds a competitor: {name, domain, blueskyHandles?}. Without handles, the domain is its handle when Bluesky verifies it. Free.',
      input: competitorInput,
      annotations: CHANGES,
      run: (caller, input) => services.competitors.create(caller.accountId, input),
    }),
    defineTool({
      name: 'get_competitor',
      twin: 'getCompetitor',
      description: 'One competitor by id (from list_competitors). Free.',
      input: z.object({ competitorId: z.uuid() }),
      annotations: READS,
      run: (caller, { competitorId }) => services.competitors.get(caller.accountId, competitorId),
    }),
    defineTool({
      name: 'update_competitor',
      twin: 'updateCompetitor',
      description: 'Changes a competitor’s name, domain or handles (a list sent replaces the list). Free.',
      input: competitorChanges.extend({ competitorId: z.uuid() }),
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { competitorId, ...changes }) =>
        services.competitors.update(caller.accountId, competitorId, changes),
    }),
    defineTool({
      name: 'delete_competitor',
      twin: 'deleteCompetitor',
      description: 'Removes a competitor by id; its events stop reaching the watchlists. Free.',
      input: z.object({ competitorId: z.uuid() }),
      annotations: { ...CHANGES, destructiveHint: true },
      run: async (caller, { competitorId }) => {
        await services.competitors.remove(caller.accountId, competitorId);
        return { removed: competitorId };
      },
    }),
  ];
}
