import type { Signal } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import { reviewSettings } from './settings-review';
import { publicDestinations } from '../../destinations/settings';
import type { ImportResult } from './watchlists';

/** The Signal resource of the specification, as every read and write answers it. */
export function signalResource(signal: Signal, clock: Clock, watchlist?: ImportResult) {
  const { applied, warnings } = reviewSettings(signal);
  return {
    id: signal.id,
    name: signal.name,
    status: signal.status,
    signalTypeId: signal.signalTypeId,
    webhookUrl: signal.webhookUrl,
    config: signal.config,
    destinations: publicDestinations(signal.destinations),
    // Present once set, as `watchlist` is: a signal without CRM exclusions reads as before.
    ...(signal.crmExclusions ? { crmExclusions: signal.crmExclusions } : {}),
    dailyLeadLimit: signal.dailyLeadLimit,
    leadsToday: signal.leadsDay === clock.utcDay() ? signal.leadsToday : 0,
    leadsTotal: signal.leadsTotal,
    duplicateHandling: signal.duplicateHandling,
    createdAt: signal.createdAt.toISOString(),
    updatedAt: signal.updatedAt.toISOString(),
    lastLeadAt: signal.lastLeadAt ? signal.lastLeadAt.toISOString() : null,
    applied,
    warnings,
    ...(watchlist ? { watchlist } : {}),
  };
}

export type SignalResource = ReturnType<typeof signalResource>;
