import type { DataSource } from 'typeorm';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Ingestion } from '../ingestion/ingestion';
import { JobBoards } from './job-boards';
import { PoliteFetch } from './polite-fetch';
import { SecFormD } from './sec-form-d';
import { SourceSchedules } from './schedules';
import { Sources } from './sources';

/** The intent sources (docs/sources.md), their one polite fetcher and their schedules. */
export function createSources(
  deps: { db: DataSource; config: Config; logger: Logger; temporal?: Client },
  ingestion: Ingestion,
) {
  const politeFetch = new PoliteFetch(deps.db, deps.config);
  const jobBoards = new JobBoards(deps.db, ingestion, politeFetch);
  const secFormD = new SecFormD(deps.db, ingestion, politeFetch, deps.config);
  const schedules = new SourceSchedules(
    deps.db,
    deps.config,
    { [jobBoards.name]: deps.config.JOB_BOARDS_INTERVAL, [secFormD.name]: deps.config.SEC_FORM_D_INTERVAL },
    deps.temporal,
  );
  return {
    politeFetch,
    jobBoards,
    secFormD,
    sources: new Sources(deps.db, deps.logger, schedules, [jobBoards, secFormD]),
  };
}
