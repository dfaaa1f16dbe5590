import { defineSource } from '../kit/source-module';
import { SecFilings } from './sec-filings';
import { secFilingsSettings } from './settings';

/** Officers, directors and deals from SEC EDGAR: Forms 3, 8-K, tender offers and business combinations (docs/sources/sec-filings.md). */
export const secFilingsSource = defineSource({
  name: 'sec-filings',
  settings: secFilingsSettings,
  intervalMs: (settings) => settings.SEC_FILINGS_INTERVAL,
  create: (kit, settings) => {
    const secFilings = new SecFilings(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: secFilings, parts: { secFilings } };
  },
});
