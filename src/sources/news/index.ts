import { defineSource } from '../kit/source-module';
import { CompanyFeeds } from './company-feeds';
import { GDELT_HOST } from './gdelt';
import { News } from './news';
import { newsSettings } from './settings';

/** Company news from companies' own feeds and GDELT (docs/sources/news.md). */
export const newsSource = defineSource({
  name: 'news',
  settings: newsSettings,
  intervalMs: (settings) => settings.NEWS_INTERVAL,
  hostIntervalsMs: (settings) => ({ [GDELT_HOST]: settings.NEWS_GDELT_INTERVAL_MS }),
  create: (kit) => {
    const companyFeeds = new CompanyFeeds(kit.db);
    // The feeds a company's site links (company-profiles) are read here.
    kit.siteFindings.take({ feeds: (companyId, urls) => companyFeeds.remember(companyId, urls) });
    const articleRobots = { allows: async (url: string) => (await kit.siteRobots.check(url)).allowed };
    const news = new News(kit.db, kit.ingestion, kit.politeFetch, companyFeeds, articleRobots, kit.documents);
    return { source: news, parts: { news, companyFeeds } };
  },
});
