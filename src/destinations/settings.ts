import { z } from 'zod';
import { destinationOf, registeredDestinations } from './registry';
import type { DestinationRoute, SettingsTools } from './kit/destination';

/** A `destinations` patch: one key per destination kind; `null` removes a destination. */
export type DestinationsPatch = Record<string, unknown>;

/** The `destinations` schema of PATCH, one key per registered destination. */
export function destinationsPatchSchema() {
  return z.strictObject(
    Object.fromEntries(registeredDestinations().map((d) => [d.kind, d.settings.nullable().optional()])),
  ) as z.ZodType<DestinationsPatch>;
}

/** Each sent destination as it is stored (connections resolved, secrets sealed), in registry order. */
export async function storedDestinations(patch: DestinationsPatch, tools: SettingsTools): Promise<DestinationsPatch> {
  const stored: DestinationsPatch = { ...patch };
  for (const destination of registeredDestinations()) {
    const settings = patch[destination.kind];
    if (settings === undefined || settings === null || !destination.stored) continue;
    stored[destination.kind] = await destination.stored(settings, tools);
  }
  return stored;
}

export function mergeDestinations(current: Record<string, unknown>, patch: DestinationsPatch): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [kind, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[kind];
    else {
      const destination = destinationOf(kind);
      merged[kind] = destination?.merged ? destination.merged(current[kind], value as Record<string, unknown>) : value;
    }
  }
  return merged;
}

/** Refuses merged destinations one of which could never be delivered to. */
export function assertDeliverable(destinations: Record<string, unknown>): void {
  for (const [kind, value] of Object.entries(destinations)) {
    if (value) destinationOf(kind)?.assertDeliverable?.(value);
  }
}

/** The stored destinations as the API answers them: sealed values never leave. */
export function publicDestinations(destinations: Record<string, unknown>): Record<string, unknown> {
  let answered = destinations;
  for (const [kind, value] of Object.entries(destinations)) {
    const destination = destinationOf(kind);
    if (value && destination?.answered) answered = { ...answered, [kind]: destination.answered(value) };
  }
  return answered;
}

/** The routes a signal's stored `destinations` give each new lead, each as its destination reads it. */
export function destinationRoutesOf(destinations: Record<string, unknown> | null | undefined): DestinationRoute[] {
  const routes: DestinationRoute[] = [];
  for (const [route, value] of Object.entries(destinations ?? {})) {
    const routed = destinationOf(route)?.routeOf(value);
    if (routed) routes.push({ route, ...routed });
  }
  return routes;
}

/** The dashboard form's fields as the `destinations` patch, each destination reading its own. */
export function destinationsPatchFromForm(
  form: URLSearchParams,
  destinations: Record<string, unknown>,
): DestinationsPatch {
  const patch: DestinationsPatch = {};
  for (const destination of registeredDestinations()) {
    const settings = destination.settingsFromForm?.(form, destinations[destination.kind]);
    if (settings !== undefined) patch[destination.kind] = settings;
  }
  return patch;
}
