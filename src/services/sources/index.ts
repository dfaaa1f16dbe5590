import type { DataSource } from 'typeorm';
import type { Client } from '@temporalio/client';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Ingestion } from '../ingestion/ingestion';
import { JobBoards } from './job-boards';
import { PoliteFetch } from './polite-fetch';
import { SourceSchedules } from './schedules';
import { Sources } from './sources';

/** The intent sources (docs/sources.md), their one polite fetcher and their schedules. */
export function createSources(
  deps: { db: DataSource; config: Config; logger: Logger; temporal?: Client },
  ingestion: Ingestion,
) {
  const politeFetch = new PoliteFetch(deps.db, deps.config);
  const jobBoards = new JobBoards(deps.db, ingestion, politeFetch, deps.config.JOB_BOARDS_INTERVAL);
  const schedules = new SourceSchedules(
    deps.db,
    deps.config,
    { [jobBoards.name]: deps.config.JOB_BOARDS_TICK },
    deps.temporal,
  );
  return { politeFetch, jobBoards, sources: new Sources(deps.db, deps.logger, schedules, [jobBoards]) };
}
