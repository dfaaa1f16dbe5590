import { defineSource } from '../kit/source-module';
import { tedSettings } from './settings';
import { Ted } from './ted';

/** Public contract awards from TED, the EU's Tenders Electronic Daily (docs/sources/ted.md). */
export const tedSource = defineSource({
  name: 'ted',
  settings: tedSettings,
  intervalMs: (settings) => settings.TED_INTERVAL,
  create: (kit, settings) => {
    const ted = new Ted(kit.db, kit.ingestion, kit.politeFetch, settings, kit.documents);
    return { source: ted, parts: { ted } };
  },
});
