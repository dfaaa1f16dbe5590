import type { Services } from '../../src/services';
import type { AnyToolDef } from './tool';
import { signalTools } from './signal-tools';
import { enrichmentTools } from './enrichment-tools';

/** Every tool of the assistant tool server, in the order the specification names them. */
export function assistantTools(services: Services): AnyToolDef[] {
  return [...signalTools(services), ...enrichmentTools(services)];
}
