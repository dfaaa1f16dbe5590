import type { DataSource } from 'typeorm';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Ingestion } from '../ingestion/ingestion';
import { CompanyProfiles } from './company-profiles';
import { JobBoards } from './job-boards';
import { PoliteFetch } from './polite-fetch';
import { SourceSchedules } from './schedules';
import { SiteReader } from './site-reader';
import { SiteRobots } from './site-robots';
import { Sources } from './sources';

/** The intent sources (docs/sources.md), their one polite fetcher and their schedules. */
export function createSources(
  deps: { db: DataSource; config: Config; logger: Logger; temporal?: Client },
  ingestion: Ingestion,
) {
  const politeFetch = new PoliteFetch(deps.db, deps.config);
  const jobBoards = new JobBoards(deps.db, ingestion, politeFetch);
  const siteReader = new SiteReader(politeFetch, new SiteRobots(deps.db, politeFetch));
  const companyProfiles = new CompanyProfiles(deps.db, ingestion, politeFetch, siteReader, jobBoards);
  const schedules = new SourceSchedules(
    deps.db,
    deps.config,
    {
      [jobBoards.name]: deps.config.JOB_BOARDS_INTERVAL,
      [companyProfiles.name]: deps.config.COMPANY_PROFILES_INTERVAL,
    },
    deps.temporal,
  );
  const all = [jobBoards, companyProfiles];
  return { politeFetch, jobBoards, companyProfiles, sources: new Sources(deps.db, deps.logger, schedules, all) };
}
