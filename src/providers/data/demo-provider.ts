import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { rows } from '../../db/sql';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import {
  ingestionSink,
  type DataProvider,
  type IngestResult,
  type IngestSink,
  type IngestionPort,
  type RunningDataProvider,
} from './data-provider';
import { DEMO_HISTORY, DemoRecords, demoEventId, type DemoCompanyRef, type DemoPersonRef } from './demo-records';
import { forecastStories } from './demo-forecast-stories';

/** Below this many companies the store is taken to be fresh, and the demo history is loaded. */
const FRESH_STORE_COMPANIES = 200;
/** How many known companies and people a live tick picks its events from. */
const POOL_SIZE = 60;

interface CompanyRow {
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  employee_count: number | null;
  hq_city: string | null;
  hq_country_code: string | null;
}

const companyOf = (row: CompanyRow): DemoCompanyRef => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  industry: row.industry,
  employeeCount: row.employee_count,
  hqCity: row.hq_city,
  hqCountryCode: row.hq_country_code,
});

/** What the demo feed reads back from the store: how far it got, and who its events can be about. */
export class DemoStore {
  constructor(private readonly db: DataSource) {}

  /** True when the history should be loaded: a fresh store, or a demo history cut short by a stop. */
  async needsHistory(): Promise<boolean> {
    const [row] = await rows<{ companies: number; has_demo: boolean; complete: boolean }>(
      this.db,
      `SELECT (SELECT count(*)::int FROM companies) AS companies,
              EXISTS (SELECT 1 FROM companies WHERE id LIKE 'demo-company-%') AS has_demo,
              EXISTS (SELECT 1 FROM events WHERE id = $1) AS complete`,
      [demoEventId(DEMO_HISTORY.events - 1)],
    );
    return !row.complete && (row.companies < FRESH_STORE_COMPANIES || row.has_demo);
  }

  /** The next free demo company and person numbers. */
  async nextNumbers(): Promise<{ company: number; person: number }> {
    const [row] = await rows<{ company: number; person: number }>(
      this.db,
      `SELECT (SELECT coalesce(max(substring(id from '^demo-company-(\\d+)$')::int), -1) + 1 FROM companies WHERE id LIKE 'demo-company-%') AS company,
              (SELECT coalesce(max(substring(id from '^demo-person-(\\d+)$')::int), -1) + 1 FROM people WHERE id LIKE 'demo-person-%') AS person`,
    );
    return { company: row.company, person: row.person };
  }

  async pool(size = POOL_SIZE): Promise<{ companies: DemoCompanyRef[]; people: DemoPersonRef[] }> {
    const companies = await rows<CompanyRow>(
      this.db,
      `SELECT id, name, domain, industry, employee_count, hq_city, hq_country_code
       FROM companies WHERE id LIKE 'demo-company-%' ORDER BY random() LIMIT $1`,
      [size],
    );
    const people = await rows<
      CompanyRow & {
        person_id: string;
        first_name: string;
        last_name: string;
        title: string;
        started_on: string | null;
      }
    >(
      this.db,
      `SELECT p.id AS person_id, p.first_name, p.last_name, p.title, p.started_on,
                c.id, c.name, c.domain, c.industry, c.employee_count, c.hq_city, c.hq_country_code
         FROM people p JOIN companies c ON c.id = p.company_id
         WHERE p.id LIKE 'demo-person-%' ORDER BY random() LIMIT $1`,
      [size],
    );
    return {
      companies: companies.map(companyOf),
      people: people.map((row) => ({
        id: row.person_id,
        firstName: row.first_name,
        lastName: row.last_name,
        title: row.title,
        startedOn: row.started_on,
        company: companyOf(row),
      })),
    };
  }
}

export interface DemoFeedOptions {
  /** Time between live ticks (`DEMO_FEED_INTERVAL`). */
  intervalMs: number;
  clock?: Clock;
  seed?: number;
}

/**
 * The built-in provider behind `DEMO_DATA`: on start, a history of companies, people and
 * events over the last months (only into a fresh store), then every interval a few new
 * companies and people and a handful of events dated now, so that active signals keep
 * producing leads. It goes through the ingestion like any vendor would.
 */
export class DemoDataProvider implements DataProvider {
  readonly name = 'demo';
  private readonly records: DemoRecords;

  constructor(
    private readonly store: DemoStore,
    private readonly logger: Logger,
    private readonly options: DemoFeedOptions,
  ) {
    this.records = new DemoRecords(options.seed);
  }

  private now(): Date {
    return this.options.clock?.now() ?? new Date();
  }

  /** Loads the history when the store needs it; answers null when it did not. */
  async seedHistory(sink: IngestSink): Promise<IngestResult | null> {
    if (!(await this.store.needsHistory())) return null;
    const now = this.now();
    const history = this.records.history(now);
    const companies = history.flatMap((record) => (record.kind === 'company' ? [record] : []));
    // Older arcs of a few companies, for the forecasts and their backtest (docs/decisions/forecasts.md).
    const result = await sink([...history, ...forecastStories(now, companies)]);
    this.report('demo history loaded', result, 'info');
    return result;
  }

  /** One live tick. */
  async feed(sink: IngestSink): Promise<IngestResult> {
    const [pool, next] = await Promise.all([this.store.pool(), this.store.nextNumbers()]);
    const tick = this.records.tick(this.now(), pool, next);
    const result = await sink(tick.records);
    // Every interval: at info level it would drown the log.
    this.report('demo records fed', result, 'debug');
    return result;
  }

  async start(sink: IngestSink): Promise<RunningDataProvider> {
    const abort = new AbortController();
    const safely = async (what: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        // The feed is a convenience: a failed tick is logged and the next one tries again.
        if (!abort.signal.aborted) this.logger.warn({ err }, `${what} failed`);
      }
    };
    const running = (async () => {
      await safely('demo history', () => this.seedHistory(sink));
      while (!abort.signal.aborted) {
        try {
          await sleep(this.options.intervalMs, undefined, { signal: abort.signal, ref: false });
        } catch {
          break;
        }
        await safely('demo feed', () => this.feed(sink));
      }
    })();
    return {
      stop: async () => {
        abort.abort();
        await running;
      },
    };
  }

  private report(message: string, result: IngestResult, level: 'info' | 'debug'): void {
    const { errors, ...counts } = result;
    // Generated records that fail validation are a generator bug, worth seeing.
    if (result.rejected > 0) this.logger.warn({ ...counts, errors: errors.slice(0, 5) }, `${message} with rejections`);
    else this.logger[level](counts, message);
  }
}

/** Starts the demo feed of this process (`worker/main.ts` when `DEMO_DATA` is on). */
export async function startDemoFeed(
  services: { db: DataSource; ingestion: IngestionPort; clock: Clock },
  logger: Logger,
  options: { intervalMs: number; seed?: number },
): Promise<RunningDataProvider> {
  const provider = new DemoDataProvider(new DemoStore(services.db), logger, { ...options, clock: services.clock });
  logger.info({ intervalMs: options.intervalMs }, 'demo data feed starting');
  return provider.start(ingestionSink(services.ingestion));
}
