import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Clock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { openDatabase } from '../../src/db/data-source';
import { changed, execute } from '../../src/db/sql';
import { createServices, type Services } from '../../src/services';
import { matchPersona } from '../../src/catalogue/personas';
import { sizeBandOf } from '../../src/catalogue/company-sizes';
import { nameKeyOf } from '../../src/catalogue/identifiers';
import { Ingestion } from '../../src/services/ingestion/ingestion';
import { createTestDatabase } from '../setup/database';
import {
  COUNTRIES,
  EMPLOYEE_COUNTS,
  FUNDING_AMOUNTS,
  FUNDING_TYPES,
  INDUSTRIES,
  POSTING_DESCRIPTIONS,
  POSTING_LOCATIONS,
  POSTING_TITLES,
  TITLES,
  type CompanyTraits,
  type EventDraft,
  type PersonTraits,
} from './scenario';

/**
 * The shared world of the incremental-evaluation property: this file's own database, the
 * services built on it without Temporal (no workflow runs; the test evaluates by hand), and
 * the companies, people and events every signal reads, changed as sources change them.
 */

/** Business time that moves only when told, so two evaluations of one step see the same instant. */
export class ScenarioClock extends Clock {
  private at = Date.now();

  override now(): Date {
    return new Date(this.at);
  }

  override advance(ms: number): void {
    this.at += ms;
  }

  override reset(): void {
    this.at = Date.now();
  }

  startAt(ms: number): void {
    this.at = ms;
  }
}

export interface OpenWorld {
  db: DataSource;
  services: Services;
  clock: ScenarioClock;
  /** The signals the arrivals announcer told (docs/decisions/wake-on-arrival.md), until taken. */
  woken: Set<string>;
  close(): Promise<void>;
}

export async function openWorld(): Promise<OpenWorld> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
    // A step here is a moment: a signal told is evaluated at the next step, not held back for a gap.
    SIGNAL_WAKE_GAP: '0ms',
  });
  const db = await openDatabase(config.DATABASE_URL, 5);
  const clock = new ScenarioClock();
  const woken = new Set<string>();
  const services = createServices({
    db,
    config,
    logger: createLogger('silent', 'test'),
    clock,
    // No workflow runs here: a wake is noted, and the wake-on-arrival mode evaluates on it.
    wakeSignal: async (signalId) => void woken.add(signalId),
  });
  return {
    db,
    services,
    clock,
    woken,
    async close() {
      await services.arrivals.close();
      await db.destroy();
      await database.drop();
    },
  };
}

/** Forgets every run before: accounts (and with them signals, leads, the ledger) and the world's rows. */
export async function emptyWorld(db: DataSource): Promise<void> {
  await execute(db, `TRUNCATE accounts, companies, people, events CASCADE`);
}

interface StoredCompany {
  id: string;
  name: string;
  domain: string;
  linkedinUrl: string;
}

interface StoredPerson {
  id: string;
  linkedinUrl: string;
  /** Its number in the run: `<run>-p<n>`. */
  n: number;
  companyId: string;
  title: string;
  email: string;
  /** Opted out: no event names them again and nothing changes them. */
  forgotten?: boolean;
}

interface StoredEvent {
  id: string;
  type: string;
  occurredAt: string;
  companyId: string;
  personId: string | null;
}

/** Types whose lead is a person: the event must name one (contract section 3). */
const PERSON_TYPES = new Set(['job_change', 'new_decision_makers', 'company_post_reactions']);

/** The companies, people and events of one run, named `<run>-c<i>`, `<run>-p<j>`, `<run>-e<k>`. */
export class World {
  readonly companies: StoredCompany[] = [];
  readonly people: StoredPerson[] = [];
  readonly events: StoredEvent[] = [];
  private rebrands = 0;

  constructor(
    private readonly open: OpenWorld,
    private readonly run: string,
  ) {}

  private get services() {
    return this.open.services;
  }

  company(index: number): StoredCompany {
    return this.companies[index % this.companies.length];
  }

  /** The person at `index` among those not forgotten; undefined when every one is. */
  person(index: number): StoredPerson | undefined {
    const live = this.people.filter((p) => !p.forgotten);
    return live.length ? live[index % live.length] : undefined;
  }

  async addCompanies(traits: CompanyTraits[]): Promise<void> {
    const records = traits.map((t) => {
      const i = this.companies.length;
      const slug = `${this.run}-c${i}`;
      const company = {
        id: slug,
        name: `Firm${this.run.slice(1)}x${i} Labs`,
        domain: `${slug}.com`,
        linkedinUrl: `https://www.linkedin.com/company/${slug}`,
      };
      this.companies.push(company);
      return {
        kind: 'company',
        ...company,
        industry: INDUSTRIES[t.industry],
        employeeCount: EMPLOYEE_COUNTS[t.size],
        hqCountryCode: COUNTRIES[t.country].code,
        hqCity: COUNTRIES[t.country].city,
      };
    });
    await this.ingest(records);
  }

  async addPeople(traits: PersonTraits[]): Promise<void> {
    const records = traits.map((t) => {
      const j = this.people.length;
      const company = this.company(t.company);
      const person = {
        id: `${this.run}-p${j}`,
        linkedinUrl: `https://www.linkedin.com/in/${this.run}-p${j}`,
        n: j,
        companyId: company.id,
        title: TITLES[t.title],
        email: this.emailOf(j, company, t.personalEmail),
      };
      this.people.push(person);
      return {
        kind: 'person',
        id: person.id,
        companyId: person.companyId,
        title: person.title,
        email: person.email,
        firstName: 'Ada',
        lastName: `P${j}`,
        linkedinUrl: person.linkedinUrl,
        countryCode: COUNTRIES[t.country].code,
      };
    });
    await this.ingest(records);
  }

  private emailOf(j: number, company: StoredCompany, personal: boolean): string {
    return personal ? `${this.run}-p${j}@gmail.com` : `p${j}@${company.domain}`;
  }

  /**
   * A company's new industry, size, headquarters or name and domain (a rebrand), as a source's
   * update writes it; or its provenance, as a claim or its corroboration sets it.
   */
  async changeCompany(
    index: number,
    change: { industry?: number; size?: number; country?: number; rebrand?: boolean; claimed?: boolean },
  ): Promise<void> {
    const company = this.company(index);
    const sets: string[] = [];
    const args: unknown[] = [company.id];
    if (change.rebrand) {
      this.rebrands++;
      company.name = `${company.name.replace(/ Labs$/, '')}v${this.rebrands} Labs`;
      company.domain = `${company.id}-v${this.rebrands}.com`;
      sets.push(
        `name = $${args.push(company.name)}, name_key = $${args.push(nameKeyOf(company.name))}, domain = $${args.push(company.domain)}`,
      );
    }
    if (change.industry !== undefined) sets.push(`industry = $${args.push(INDUSTRIES[change.industry])}`);
    if (change.size !== undefined) {
      const count = EMPLOYEE_COUNTS[change.size];
      sets.push(`employee_count = $${args.push(count)}, size_band = $${args.push(sizeBandOf(count))}`);
    }
    if (change.country !== undefined) {
      const country = COUNTRIES[change.country];
      sets.push(`hq_country_code = $${args.push(country.code)}, hq_city = $${args.push(country.city)}`);
    }
    if (change.claimed !== undefined) sets.push(`provenance = $${args.push(change.claimed ? 'claimed' : 'trusted')}`);
    if (sets.length) {
      await execute(this.open.db, `UPDATE companies SET ${sets.join(', ')} WHERE id = $1`, args);
      this.services.ingestion.announce([{ table: 'companies', inserted: false }]);
    }
  }

  /** A person's new title (and persona), country, employer or address, as a source's update writes it. */
  async changePerson(
    index: number,
    change: { title?: number; country?: number; company?: number; personalEmail?: boolean },
  ): Promise<void> {
    const person = this.person(index);
    if (!person) return;
    const sets: string[] = [];
    const args: unknown[] = [person.id];
    if (change.title !== undefined) {
      person.title = TITLES[change.title];
      sets.push(
        `title = $${args.push(person.title)}, persona = $${args.push(matchPersona(person.title)?.name ?? null)}`,
      );
    }
    if (change.country !== undefined) sets.push(`country_code = $${args.push(COUNTRIES[change.country].code)}`);
    if (change.company !== undefined) {
      person.companyId = this.company(change.company).id;
      sets.push(`company_id = $${args.push(person.companyId)}`);
    }
    if (change.personalEmail !== undefined) {
      const company = this.companies.find((c) => c.id === person.companyId)!;
      person.email = this.emailOf(person.n, company, change.personalEmail);
      sets.push(`email = $${args.push(person.email)}`);
    }
    if (sets.length) {
      await execute(this.open.db, `UPDATE people SET ${sets.join(', ')} WHERE id = $1`, args);
      this.services.ingestion.announce([{ table: 'people' }]);
    }
  }

  /**
   * A person who opted out, as the people-data source forgets them (people-data-changes.ts,
   * optOut): their events no lead names are deleted, their name and contact fields blanked,
   * and the row deleted when no event names it any more.
   */
  async forgetPerson(index: number): Promise<void> {
    const person = this.person(index);
    if (!person) return;
    const { db } = this.open;
    const ids = [person.id];
    const deleted = await changed<{ type: string }>(
      db,
      `DELETE FROM events e WHERE e.person_id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.event_id = e.id)
       RETURNING e.type`,
      [ids],
    );
    await execute(
      db,
      `UPDATE people SET first_name = '', last_name = '', email = NULL, phone = NULL, linkedin_url = NULL,
         sales_navigator_url = NULL, location = NULL, city = NULL, region_code = NULL
       WHERE id = ANY($1::text[])`,
      [ids],
    );
    await execute(
      db,
      `DELETE FROM people p WHERE p.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.person_id = p.id)`,
      [ids],
    );
    // As the source announces it.
    this.services.ingestion.announce([
      { table: 'people' },
      ...deleted.rows.map((row) => ({ table: 'events' as const, type: row.type })),
    ]);
    person.forgotten = true;
  }

  /** Events occurring `minutes` from the clock's now; a late arrival is one with an old date. */
  async addEvents(drafts: EventDraft[]): Promise<void> {
    await this.ingest(this.eventRecords(drafts));
  }

  /**
   * A source's slow transaction: the events are inserted in a transaction left open until
   * `commit` (an evaluation in between must neither see them nor lose them). Rolled back by
   * `end` when the caller fails first.
   */
  async holdEvents(drafts: EventDraft[]): Promise<{ commit(): Promise<void>; end(): Promise<void> }> {
    const runner = this.open.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const end = async () => {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      if (!runner.isReleased) await runner.release();
    };
    const records = this.eventRecords(drafts);
    try {
      // Ingestion only runs SQL on what it is given: here the open transaction, announced after its commit.
      const ingestion = new Ingestion(runner.manager as unknown as DataSource);
      const result = await ingestion.ingest(records);
      if (result.rejected > 0) throw new Error(`the world's records were refused: ${JSON.stringify(result.errors)}`);
    } catch (err) {
      await end();
      throw err;
    }
    const announce = () =>
      this.services.ingestion.announce(
        records.map((e) => ({ table: 'events', type: e.type, companyId: e.companyId, personId: e.personId })),
      );
    return {
      async commit() {
        await runner.commitTransaction();
        await runner.release();
        announce();
      },
      end,
    };
  }

  private eventRecords(
    drafts: EventDraft[],
  ): (StoredEvent & { kind: 'event'; data: Record<string, string | number> })[] {
    const now = this.open.clock.now().getTime();
    return drafts.flatMap((draft) => {
      const personLevel = PERSON_TYPES.has(draft.type);
      const person = personLevel || draft.person !== null ? this.person(draft.person ?? draft.company) : undefined;
      if (personLevel && !person) return [];
      // A job change is at the person's (new) company; other events at the company drafted.
      const companyId = draft.type === 'job_change' && person ? person.companyId : this.company(draft.company).id;
      const event: StoredEvent = {
        id: `${this.run}-e${this.events.length}`,
        type: draft.type,
        occurredAt: new Date(now + draft.minutes * 60_000).toISOString(),
        companyId,
        personId: person?.id ?? null,
      };
      this.events.push(event);
      return [{ kind: 'event' as const, ...event, data: this.dataOf(event, draft.variant) }];
    });
  }

  /** A later word on a stored event (its data replaced), as a Form D amendment revises its filing. */
  async reviseEvent(index: number, variant: number): Promise<void> {
    // A forgotten person's events may be gone.
    const forgotten = new Set(this.people.filter((p) => p.forgotten).map((p) => p.id));
    const events = this.events.filter((e) => !e.personId || !forgotten.has(e.personId));
    if (events.length === 0) return;
    const event = events[index % events.length];
    const revised = await this.services.ingestion.reviseEvent({
      kind: 'event',
      ...event,
      data: this.dataOf(event, variant),
    });
    if (!revised) throw new Error(`event ${event.id} was not revised`);
  }

  private dataOf(event: StoredEvent, variant: number): Record<string, string | number> {
    const company = this.companies.find((c) => c.id === event.companyId)!;
    switch (event.type) {
      case 'job_change': {
        const person = this.people.find((p) => p.id === event.personId)!;
        return { previous_title: 'VP Engineering', new_title: person.title, new_company: company.name };
      }
      case 'fundraising':
        return {
          funding_type: FUNDING_TYPES[variant % FUNDING_TYPES.length],
          funding_amount_usd: FUNDING_AMOUNTS[(variant >> 2) % FUNDING_AMOUNTS.length],
        };
      case 'job_offers':
        return {
          job_offer_title: POSTING_TITLES[variant % POSTING_TITLES.length],
          job_offer_location: POSTING_LOCATIONS[(variant >> 3) % POSTING_LOCATIONS.length],
          job_offer_description: POSTING_DESCRIPTIONS[(variant >> 4) % POSTING_DESCRIPTIONS.length],
        };
      case 'company_news':
        return {
          news_url: `https://news.example.com/${event.id}`,
          news_headline: variant % 2 === 0 ? `${company.name} opens a new office` : 'Markets moved today',
        };
      default:
        return {};
    }
  }

  private async ingest(records: object[]): Promise<void> {
    const result = await this.services.ingestion.ingest(records);
    if (result.rejected > 0) throw new Error(`the world's records were refused: ${JSON.stringify(result.errors)}`);
  }
}
