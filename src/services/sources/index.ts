import type { DataSource } from 'typeorm';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Ingestion } from '../ingestion/ingestion';
import { GDELT_HOST } from '../../providers/sources/news/gdelt';
import { CompaniesHouse } from './companies-house';
import { CompanyFeeds } from './company-feeds';
import { CompanyProfiles } from './company-profiles';
import { JobBoards } from './job-boards';
import { News } from './news';
import { PeopleDataLabsApi } from '../../providers/sources/people-data/people-data-labs';
import { PeopleDataChanges } from './people-data-changes';
import { PoliteFetch } from './polite-fetch';
import { SecFormD } from './sec-form-d';
import { SourceSchedules } from './schedules';
import { SiteReader } from './site-reader';
import { SiteRobots } from './site-robots';
import { Sources } from './sources';
import { Ted } from './ted';

/** The intent sources (docs/sources.md), their one polite fetcher and their schedules. */
export function createSources(
  deps: { db: DataSource; config: Config; logger: Logger; temporal?: Client },
  ingestion: Ingestion,
) {
  const politeFetch = new PoliteFetch(deps.db, deps.config, { [GDELT_HOST]: deps.config.NEWS_GDELT_INTERVAL_MS });
  const jobBoards = new JobBoards(deps.db, ingestion, politeFetch, deps.config.JOB_BOARDS_INTERVAL);
  const companyFeeds = new CompanyFeeds(deps.db);
  const siteRobots = new SiteRobots(deps.db, politeFetch);
  const articleRobots = { allows: async (url: string) => (await siteRobots.check(url)).allowed };
  const news = new News(deps.db, ingestion, politeFetch, companyFeeds, articleRobots);
  const secFormD = new SecFormD(deps.db, ingestion, politeFetch, deps.config);
  const ted = new Ted(deps.db, ingestion, politeFetch, deps.config);
  const companiesHouse = new CompaniesHouse(deps.db, ingestion, politeFetch, deps.config);
  const siteReader = new SiteReader(politeFetch, siteRobots);
  const companyProfiles = new CompanyProfiles(deps.db, ingestion, politeFetch, siteReader, jobBoards, companyFeeds);
  const pdlKey = deps.config.PEOPLE_DATA_LABS_API_KEY;
  const peopleDataLabs = new PeopleDataChanges(deps.db, ingestion, politeFetch, {
    name: 'people-data-labs',
    vendor: pdlKey ? new PeopleDataLabsApi(pdlKey, (request) => politeFetch.send(request)) : null,
    release: deps.config.PEOPLE_DATA_LABS_VERSION,
    creditPriceUsd: deps.config.PEOPLE_DATA_LABS_CREDIT_PRICE_USD,
  });
  const schedules = new SourceSchedules(
    deps.db,
    deps.config,
    {
      [jobBoards.name]: deps.config.JOB_BOARDS_TICK,
      [news.name]: deps.config.NEWS_INTERVAL,
      [secFormD.name]: deps.config.SEC_FORM_D_INTERVAL,
      [companyProfiles.name]: deps.config.COMPANY_PROFILES_INTERVAL,
      [ted.name]: deps.config.TED_INTERVAL,
      [peopleDataLabs.name]: deps.config.PEOPLE_DATA_LABS_INTERVAL,
      [companiesHouse.name]: deps.config.COMPANIES_HOUSE_INTERVAL,
    },
    deps.temporal,
  );
  return {
    politeFetch,
    jobBoards,
    companyFeeds,
    companyProfiles,
    news,
    secFormD,
    ted,
    peopleDataLabs,
    companiesHouse,
    sources: new Sources(deps.db, deps.logger, schedules, [
      jobBoards,
      companyProfiles,
      news,
      secFormD,
      ted,
      peopleDataLabs,
      companiesHouse,
    ]),
  };
}
