import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { DocumentThreads } from './document-threads';
import type { IntentSource } from './intent-source';
import type { PoliteFetch } from './polite-fetch';
import type { SiteFindings } from './site-findings';
import type { SiteRobots } from './site-robots';

/** What every source is made with: the store, ingestion and the kit's shared parts. */
export interface SourceKit {
  db: DataSource;
  ingestion: Ingestion;
  politeFetch: PoliteFetch;
  /** Fetched documents are read off the event loop, within a heap and a time budget (document-threads.ts). */
  documents: DocumentThreads;
  siteRobots: SiteRobots;
  siteFindings: SiteFindings;
}

/**
 * One source, as its folder gives it to the registry (src/sources/registry.ts): its settings
 * (its part of the configuration), how often its schedule runs, and how it is made. `parts` are
 * the pieces of it the operator API and tests reach by name (`services.jobBoards`).
 */
export interface SourceModule<Shape extends z.ZodRawShape = z.ZodRawShape, Parts extends object = object> {
  readonly name: string;
  readonly settings: (production: boolean) => Shape;
  readonly intervalMs: (settings: z.output<z.ZodObject<Shape>>) => number;
  /** Hosts that ask for more time between requests than SOURCES_HOST_INTERVAL_MS, by host. */
  readonly hostIntervalsMs?: (settings: z.output<z.ZodObject<Shape>>) => Readonly<Record<string, number>>;
  readonly create: (kit: SourceKit, settings: z.output<z.ZodObject<Shape>>) => { source: IntentSource; parts: Parts };
}

/** A source module with its types checked where it is written. */
export const defineSource = <Shape extends z.ZodRawShape, Parts extends object>(
  module: SourceModule<Shape, Parts>,
): SourceModule<Shape, Parts> => module;
