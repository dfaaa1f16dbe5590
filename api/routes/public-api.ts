import type { Services } from '../../src/services';
import type { AnyRoute } from '../route';
import { catalogueRoutes } from './catalogue';
import { creditRoutes } from './credits';
import { signalRoutes } from './signals';
import { suppressionRoutes } from './suppressions';
import { competitorRoutes } from './competitors';
import { watchlistRoutes } from './watchlists';
import { leadRoutes } from './leads';
import { deliveryRoutes } from './deliveries';
import { integrationRoutes } from './integrations';
import { enrichmentRoutes } from './enrichment';
import { searchRoutes } from './search';
import { scoringRoutes } from './scoring';

/** Every route under /api/v1. Static paths come before `{signalId}` ones so they win the match. */
export function publicApiRoutes(services: Services): AnyRoute[] {
  return [
    ...catalogueRoutes(),
    ...signalRoutes(services),
    ...leadRoutes(services),
    ...deliveryRoutes(services),
    ...watchlistRoutes(services),
    ...suppressionRoutes(services),
    ...competitorRoutes(services),
    ...creditRoutes(services),
    ...integrationRoutes(services),
    ...enrichmentRoutes(services),
    ...searchRoutes(services),
    ...scoringRoutes(services),
  ];
}
