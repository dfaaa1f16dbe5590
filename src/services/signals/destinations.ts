import { z } from 'zod';
import { CRM_PROVIDERS } from '../crm-connections';

export const SEQUENCER_PROVIDERS = ['lemlist', 'instantly', 'smartlead'] as const;

const crmDestination = z.strictObject({ enabled: z.boolean() });
const sequencerDestination = z.strictObject({
  campaignId: z.string().trim().min(1).max(255),
  integrationId: z.string().trim().min(1).max(255).optional(),
});

/** One key per destination kind; `null` removes a destination. */
export const destinationsPatch = z.strictObject({
  ...(Object.fromEntries(CRM_PROVIDERS.map((p) => [p, crmDestination.nullable().optional()])) as Record<
    (typeof CRM_PROVIDERS)[number],
    z.ZodOptional<z.ZodNullable<typeof crmDestination>>
  >),
  ...(Object.fromEntries(SEQUENCER_PROVIDERS.map((p) => [p, sequencerDestination.nullable().optional()])) as Record<
    (typeof SEQUENCER_PROVIDERS)[number],
    z.ZodOptional<z.ZodNullable<typeof sequencerDestination>>
  >),
});
export type DestinationsPatch = z.output<typeof destinationsPatch>;
export type CrmDestination = z.output<typeof crmDestination>;
export type SequencerDestination = z.output<typeof sequencerDestination>;

export function mergeDestinations(current: Record<string, unknown>, patch: DestinationsPatch): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
