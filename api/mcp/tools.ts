import type { Services } from '../../src/services';
import type { AnyToolDef } from './tool';
import { signalTools } from './signal-tools';
import { enrichmentTools } from './enrichment-tools';
import { suppressionTools } from './suppression-tools';
import { competitorTools } from './competitor-tools';
import { scoringTools } from './scoring-tools';

/** Every tool of the assistant tool server: the specification's, in its order, then the suppression list's, the competitors' and the account score's. */
export function assistantTools(services: Services): AnyToolDef[] {
  return [
    ...signalTools(services),
    ...enrichmentTools(services),
    ...suppressionTools(services),
    ...competitorTools(services),
    ...scoringTools(services),
  ];
}
