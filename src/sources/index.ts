import type { DataSource } from 'typeorm';
import type { Client } from '@temporalio/client';
import type { Logger } from '../logger';
import type { Ingestion } from '../services/ingestion/ingestion';
import { DocumentThreads } from './kit/document-threads';
import { PoliteFetch } from './kit/polite-fetch';
import { SourceSchedules } from './kit/schedules';
import { SiteFindings } from './kit/site-findings';
import { SiteRobots } from './kit/site-robots';
import type { SourceKit } from './kit/source-module';
import type { SourceKitConfig } from './kit/settings';
import { sourceModules, type SourceParts, type SourcesConfig } from './registry';
import { Sources } from './sources';

/** The intent sources (docs/sources.md) of the registry, their one polite fetcher and their schedules. */
export function createSources(
  deps: {
    db: DataSource;
    /** The configuration's sources part (src/config.ts reads it from the registry and the kit). */
    config: SourceKitConfig &
      SourcesConfig & {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
        TEMPORAL_TASK_QUEUE: string;
        TEMPORAL_ANSWER_WAIT_MS: number;
      };
    logger: Logger;
    temporal?: Client;
  },
  ingestion: Ingestion,
) {
  const modules = sourceModules();
  const hostIntervalsMs = Object.assign({}, ...modules.map((module) => module.hostIntervalsMs?.(deps.config) ?? {}));
  const politeFetch = new PoliteFetch(deps.db, deps.config, hostIntervalsMs);
  // Fetched documents are read off the event loop, within a heap and a time budget (document-threads.ts).
  const documents = new DocumentThreads({
    threads: deps.config.SOURCES_PARSE_THREADS,
    heapMb: deps.config.SOURCES_PARSE_HEAP_MB,
    budgetMs: deps.config.SOURCES_PARSE_BUDGET_MS,
  });
  const kit: SourceKit = {
    db: deps.db,
    ingestion,
    politeFetch,
    documents,
    siteRobots: new SiteRobots(deps.db, politeFetch),
    siteFindings: new SiteFindings(),
  };
  const made = modules.map((module) => ({
    ...module.create(kit, deps.config),
    intervalMs: module.intervalMs(deps.config),
  }));
  const schedules = new SourceSchedules(
    deps.db,
    deps.config,
    Object.fromEntries(made.map(({ source, intervalMs }) => [source.name, intervalMs])),
    deps.temporal,
  );
  return {
    politeFetch,
    documents,
    ...(Object.assign({}, ...made.map(({ parts }) => parts)) as SourceParts),
    sources: new Sources(
      deps.db,
      deps.logger,
      schedules,
      made.map(({ source }) => source),
      deps.config.TEMPORAL_ANSWER_WAIT_MS,
    ),
  };
}
