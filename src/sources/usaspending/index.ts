import { defineSource } from '../kit/source-module';
import { usaspendingSettings } from './settings';
import { Usaspending } from './usaspending';

/** US federal contract awards from USAspending.gov's award search (docs/sources/usaspending.md). */
export const usaspendingSource = defineSource({
  name: 'usaspending',
  settings: usaspendingSettings,
  intervalMs: (settings) => settings.USASPENDING_INTERVAL,
  create: (kit, settings) => {
    const usaspending = new Usaspending(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: usaspending, parts: { usaspending } };
  },
});
