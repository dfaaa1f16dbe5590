import { defineSource } from '../kit/source-module';
import { ContractsFinder } from './contracts-finder';
import { CONTRACTS_FINDER_HOST } from './releases';
import { contractsFinderSettings } from './settings';

/** UK contract awards from Contracts Finder's OCDS search (below the thresholds) (docs/sources/contracts-finder.md). */
export const contractsFinderSource = defineSource({
  name: 'contracts-finder',
  settings: contractsFinderSettings,
  intervalMs: (settings) => settings.CONTRACTS_FINDER_INTERVAL,
  hostIntervalsMs: (settings) => ({ [CONTRACTS_FINDER_HOST]: settings.CONTRACTS_FINDER_HOST_INTERVAL_MS }),
  create: (kit, settings) => {
    const contractsFinder = new ContractsFinder(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: contractsFinder, parts: { contractsFinder } };
  },
});
