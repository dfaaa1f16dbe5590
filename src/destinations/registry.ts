import type { Destination } from './kit/destination';
import { hubspot } from './hubspot';
import { salesforce } from './salesforce';
import { pipedrive } from './pipedrive';
import { googleSheets } from './google-sheets';
import { lemlist } from './lemlist';
import { instantly } from './instantly';
import { smartlead } from './smartlead';
import { slack } from './slack';

const destinations = new Map<string, Destination>();

/**
 * Adds a destination: its settings join the `destinations` schema, its routes the leads made
 * after it. Schemas are built when the API modules load, so a destination registers before.
 */
export function register(destination: Destination): void {
  if (destinations.has(destination.kind)) throw new Error(`destination ${destination.kind} is registered twice`);
  destinations.set(destination.kind, destination);
}

/** Every destination, in the order they were registered (the API schema's and the form's order). */
export function registeredDestinations(): Destination[] {
  return [...destinations.values()];
}

/** The destination a stored key or a delivery's route names; undefined for `webhook` and unknown ones. */
export function destinationOf(kind: string): Destination | undefined {
  return destinations.get(kind);
}

// One line a destination.
register(hubspot);
register(salesforce);
register(pipedrive);
register(googleSheets);
register(lemlist);
register(instantly);
register(smartlead);
register(slack);
