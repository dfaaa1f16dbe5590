import type { Services } from '../../src/services';
import type { AnyRoute } from '../route';
import { creditRoutes } from './credits';

/** Every route under /api/v1. Each capability adds its router module here. */
export function publicApiRoutes(services: Services): AnyRoute[] {
  return [...creditRoutes(services)];
}
