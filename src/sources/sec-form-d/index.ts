import { defineSource } from '../kit/source-module';
import { SecFormD } from './sec-form-d';
import { secFormDSettings } from './settings';

/** Fundraising from SEC EDGAR's Form D filings (docs/sources/sec-form-d.md). */
export const secFormDSource = defineSource({
  name: 'sec-form-d',
  settings: secFormDSettings,
  intervalMs: (settings) => settings.SEC_FORM_D_INTERVAL,
  create: (kit, settings) => {
    const secFormD = new SecFormD(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: secFormD, parts: { secFormD } };
  },
});
