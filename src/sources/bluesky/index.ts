import { defineSource } from '../kit/source-module';
import { Bluesky } from './bluesky';
import { blueskySettings } from './settings';

/** Reactions to watched companies' and competitors' posts, and competitors' new followers, from Bluesky (docs/sources/bluesky.md). */
export const blueskySource = defineSource({
  name: 'bluesky',
  settings: blueskySettings,
  intervalMs: (settings) => settings.BLUESKY_INTERVAL,
  create: (kit, settings) => {
    const bluesky = new Bluesky(kit.db, kit.ingestion, kit.politeFetch, settings);
    kit.siteFindings.take({ blueskyAccount: (companyId, account) => bluesky.homepageAccount(companyId, account) });
    return { source: bluesky, parts: { bluesky } };
  },
});
