import type { z } from 'zod';
import { blueskySource } from './bluesky';
import { companiesHouseSource } from './companies-house';
import { companyProfilesSource } from './company-profiles';
import { forecastsSource } from './forecasts';
import { jobBoardsSource } from './job-boards';
import type { SourceModule } from './kit/source-module';
import { newsSource } from './news';
import { peopleDataLabsSource } from './people-data-labs';
import { secFilingsSource } from './sec-filings';
import { secFormDSource } from './sec-form-d';
import { tedSource } from './ted';
import { findATenderSource } from './find-a-tender';
import { contractsFinderSource } from './contracts-finder';
import { usaspendingSource } from './usaspending';

/**
 * Every intent source (docs/sources.md), in the order the worker makes them and schedules them.
 * Adding a source is its folder (src/sources/<name>/) and one line here.
 */
const SOURCES = [
  jobBoardsSource,
  companyProfilesSource,
  newsSource,
  secFormDSource,
  tedSource,
  peopleDataLabsSource,
  companiesHouseSource,
  findATenderSource,
  contractsFinderSource,
  usaspendingSource,
  secFilingsSource,
  blueskySource,
  forecastsSource,
] as const;

type AnySourceModule = SourceModule<any, object>;
type Registered = (typeof SOURCES)[number];
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The registered sources' settings, as src/config.ts types them. */
export type SourceSettingsShape = Intersection<ReturnType<Registered['settings']>>;
/** The registered sources' settings as read. */
export type SourcesConfig = z.output<z.ZodObject<SourceSettingsShape>>;
/** The parts of the registered sources the API and tests reach by name (`jobBoards`, `companyFeeds`, ...). */
export type SourceParts = Intersection<ReturnType<Registered['create']>['parts']>;

const registered: AnySourceModule[] = [...SOURCES];

/**
 * Adds a source from outside this list (a plugin, the extension test): call it before the
 * configuration is read and the services are made, so its settings and schedule are theirs.
 */
export function registerSource(module: AnySourceModule): void {
  if (registered.some((known) => known.name === module.name))
    throw new Error(`source ${module.name} is registered already`);
  registered.push(module);
}

export function sourceModules(): readonly AnySourceModule[] {
  return registered;
}

/** Every registered source's settings, for the configuration's schema. */
export function sourceSettings(production: boolean): SourceSettingsShape {
  return Object.assign({}, ...registered.map((module) => module.settings(production) as z.ZodRawShape));
}
