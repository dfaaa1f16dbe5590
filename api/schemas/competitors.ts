import { z } from 'zod';
import { MAX_HANDLES_PER_COMPETITOR, blueskyHandle, competitorInput } from '../../src/services/competitors';
import { pageEnvelope } from './common';

const handles = z.array(blueskyHandle).max(MAX_HANDLES_PER_COMPETITOR).meta({
  description: 'Its Bluesky accounts (acme.com, acme.bsky.social); none: the domain handle if Bluesky verifies it',
});

/** The service's schema (one for REST, the tool and the dashboard), described. */
export const competitorBody = competitorInput
  .extend({
    name: competitorInput.shape.name.meta({ description: 'The company as the account calls it' }),
    domain: competitorInput.shape.domain.meta({ description: 'Its website or domain, kept as the registrable domain' }),
    blueskyHandles: handles.optional(),
  })
  .meta({ id: 'CompetitorInput' });

export const competitorPatch = competitorBody.partial().meta({ id: 'CompetitorChanges' });

export const competitor = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    blueskyHandles: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Competitor' });

export const competitorPage = z.object({ items: z.array(competitor), ...pageEnvelope });
