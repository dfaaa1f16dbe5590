import { defineSource } from '../kit/source-module';
import { FindATender } from './find-a-tender';
import { FIND_A_TENDER_HOST } from './releases';
import { findATenderSettings } from './settings';

/** UK contract awards from Find a Tender's OCDS API (docs/sources/find-a-tender.md). */
export const findATenderSource = defineSource({
  name: 'find-a-tender',
  settings: findATenderSettings,
  intervalMs: (settings) => settings.FIND_A_TENDER_INTERVAL,
  hostIntervalsMs: (settings) => ({ [FIND_A_TENDER_HOST]: settings.FIND_A_TENDER_HOST_INTERVAL_MS }),
  create: (kit, settings) => {
    const findATender = new FindATender(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: findATender, parts: { findATender } };
  },
});
