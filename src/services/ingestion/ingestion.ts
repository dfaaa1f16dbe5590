import type { DataSource } from 'typeorm';
import { changed, rows, type Queryable } from '../../db/sql';
import { DealSightings } from './deal-sightings';
import type { ArrivalAnnouncements } from '../signals/arrivals';
import type { ArrivedRow } from '../../signal-types/kit/wake-keys';
import { sizeBandOf } from '../../catalogue/company-sizes';
import { resolveLocation } from '../../catalogue/locations';
import { matchPersona } from '../../catalogue/personas';
import { jobPostingProfile } from '../../catalogue/market-signals';
import { invalidRequest } from '../../errors';
import { nameKeyOf } from '../../catalogue/identifiers';
import type { IngestError, IngestResult } from '../../providers/data/data-provider';
import {
  RECORD_SCHEMAS,
  type CompanyRecord,
  type EventRecord,
  type PersonRecord,
  type RecordKind,
} from '../../providers/data/records';

/** One statement per this many rows: big enough to amortise round trips, small enough for parameter arrays. */
const BATCH_SIZE = 1000;
/** A 50 MB file of bad lines would otherwise answer with a response as large as itself. */
export const MAX_LISTED_ERRORS = 1000;

interface Lined<T> {
  line: number;
  record: T;
}

interface RawLine {
  line: number;
  value: unknown;
  /** Set when the line is not JSON at all. */
  problem?: string;
}

const KINDS = Object.keys(RECORD_SCHEMAS) as RecordKind[];

/**
 * Stores provider records (contract section 3) line by line: a bad line is reported with its
 * line number and the others are kept. Companies go in first, then people, then events, so a
 * single input may reference its own companies and people. Idempotent per record id: a record
 * whose id is already stored is counted as a duplicate and changes nothing.
 */
export class Ingestion {
  private readonly deals: DealSightings;

  /**
   * `arrivals` hears the rows each call wrote once they committed (each statement commits on
   * its own here); an ingestion given a transaction's manager has none: its caller announces
   * after the commit.
   */
  constructor(
    private readonly db: DataSource,
    private readonly arrivals?: ArrivalAnnouncements,
  ) {
    this.deals = new DealSightings(db);
  }

  /**
   * For writers of events, people and companies outside this class (an opt-out, a claim's
   * corroboration): the rows they wrote, announced after their commit.
   */
  announce(rows: readonly ArrivedRow[]): void {
    this.arrivals?.announce(rows);
  }

  /**
   * `dealParties`: for a `mergers_acquisitions` event (by id), the other party's name as its
   * record states it (a filing's bidder or target), which tells one deal from another.
   */
  async ingest(input: string | readonly unknown[], options: IngestOptions = {}): Promise<IngestResult> {
    const errors: IngestError[] = [];
    const reject = (line: number, message: string) => errors.push({ line, message });

    const companies: Lined<CompanyRecord>[] = [];
    const people: Lined<PersonRecord>[] = [];
    const events: Lined<EventRecord>[] = [];
    const lines: RawLine[] =
      typeof input === 'string' ? linesOf(input) : input.map((value, i) => ({ line: i + 1, value }));
    for (const { line, value, problem } of lines) {
      if (problem) {
        reject(line, problem);
        continue;
      }
      const parsed = validate(value);
      if (typeof parsed === 'string') reject(line, parsed);
      else if (parsed.kind === 'company') companies.push({ line, record: parsed });
      else if (parsed.kind === 'person') people.push({ line, record: parsed });
      else events.push({ line, record: parsed });
    }

    let inserted = 0;
    let valid = 0;

    valid += companies.length;
    const newCompanies = await this.insertCompanies(companies.map((c) => c.record));
    inserted += newCompanies;
    // Announced as each statement commits, so a later failure leaves nothing committed unannounced.
    if (newCompanies > 0) this.arrivals?.announce([{ table: 'companies', inserted: true }]);

    const knownCompanies = new Set(companies.map((c) => c.record.id));
    await this.addStored(
      'companies',
      [...people.map((p) => p.record.companyId), ...events.map((e) => e.record.companyId)],
      knownCompanies,
    );

    const placedPeople = people.filter(({ line, record }) => {
      if (knownCompanies.has(record.companyId)) return true;
      reject(line, `companyId: no company "${record.companyId}" is stored or sent in this input`);
      return false;
    });
    valid += placedPeople.length;
    const newPeople = await this.insertPeople(placedPeople.map((p) => p.record));
    inserted += newPeople.length;
    if (newPeople.length > 0) this.arrivals?.announce(newPeople);

    const knownPeople = new Set(placedPeople.map((p) => p.record.id));
    await this.addStored(
      'people',
      events.flatMap((e) => (e.record.personId ? [e.record.personId] : [])),
      knownPeople,
    );

    const placedEvents = events.filter(({ line, record }) => {
      const problems: string[] = [];
      if (!knownCompanies.has(record.companyId))
        problems.push(`companyId: no company "${record.companyId}" is stored or sent in this input`);
      if (record.personId && !knownPeople.has(record.personId))
        problems.push(`personId: no person "${record.personId}" is stored or sent in this input`);
      if (problems.length) reject(line, problems.join('; '));
      return problems.length === 0;
    });
    valid += placedEvents.length;
    // One deal, one event: a deal's later records are linked to its first (./deal-sightings.ts).
    const deals = placedEvents.filter((e) => e.record.type === 'mergers_acquisitions');
    const arrived: ArrivedRow[] = [];
    try {
      inserted += await this.insertEvents(
        placedEvents.filter((e) => e.record.type !== 'mergers_acquisitions').map((e) => e.record),
        this.db,
        arrived,
      );
    } finally {
      this.arrivals?.announce(arrived);
    }
    for (const { record } of deals) {
      const placed = await this.deals.place(record, options.dealParties?.get(record.id) ?? null, (manager) =>
        this.insertEvents([record], manager),
      );
      if (placed.kind === 'new') {
        inserted += 1;
        this.arrivals?.announce([eventArrived(record)]);
      }
    }

    errors.sort((a, b) => a.line - b.line);
    return {
      accepted: inserted,
      duplicates: valid - inserted,
      rejected: errors.length,
      errors: errors.slice(0, MAX_LISTED_ERRORS),
    };
  }

  /**
   * A later word on a stored event (a Form D amendment on its original filing): the event's
   * `data` is replaced, its id, type, time, company and person kept, so no signal sees a new
   * event and none makes a second lead. Checked as an ingested event is; answers whether an
   * event of that id, type and company was stored.
   */
  async reviseEvent(input: unknown): Promise<boolean> {
    const parsed = validate(input);
    if (typeof parsed === 'string') throw invalidRequest(parsed);
    if (parsed.kind !== 'event') throw invalidRequest('kind: must be "event"');
    const { count } = await changed(
      this.db,
      `UPDATE events SET data = $4::jsonb WHERE id = $1 AND type = $2 AND company_id = $3`,
      [parsed.id, parsed.type, parsed.companyId, JSON.stringify(parsed.data)],
    );
    if (count > 0) this.arrivals?.announce([eventArrived(parsed)]);
    return count > 0;
  }

  /** Adds to `known` those of `ids` that are already stored in `table`. */
  private async addStored(table: 'companies' | 'people', ids: string[], known: Set<string>): Promise<void> {
    const missing = [...new Set(ids.filter((id) => !known.has(id)))];
    for (const chunk of chunks(missing, 10_000)) {
      const stored = await rows<{ id: string }>(this.db, `SELECT id FROM ${table} WHERE id = ANY($1::text[])`, [chunk]);
      for (const row of stored) known.add(row.id);
    }
  }

  private async insertCompanies(records: CompanyRecord[]): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(records, BATCH_SIZE)) {
      const columns = columnsOf(chunk, (c) => [
        c.id,
        c.name,
        nameKeyOf(c.name),
        c.domain,
        c.linkedinUrl,
        c.industry,
        c.employeeCount,
        c.employeeCount === null ? null : sizeBandOf(c.employeeCount),
        c.hqCountryCode,
        c.hqCity,
        c.description,
        c.companyType,
        c.foundedYear,
        JSON.stringify(c.techStack),
        c.homepageTitle,
        c.metaDescription,
      ]);
      const added = await this.insertCounting(
        `INSERT INTO companies (id, name, name_key, domain, linkedin_url, industry, employee_count, size_band,
                                hq_country_code, hq_city, description, company_type, founded_year, tech_stack,
                                homepage_title, meta_description)
         SELECT r.id, r.name, r.name_key, r.domain, r.linkedin_url, r.industry, r.employee_count, r.size_band,
                r.hq_country_code, r.hq_city, r.description, r.company_type, r.founded_year,
                ARRAY(SELECT jsonb_array_elements_text(r.tech_stack::jsonb)), r.homepage_title, r.meta_description
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[],
                     $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::text[], $16::text[])
              AS r(id, name, name_key, domain, linkedin_url, industry, employee_count, size_band,
                   hq_country_code, hq_city, description, company_type, founded_year, tech_stack,
                   homepage_title, meta_description)`,
        columns,
      );
      inserted += added.inserted;
    }
    return inserted;
  }

  /** The people it inserted, as announced. */
  private async insertPeople(records: PersonRecord[]): Promise<ArrivedRow[]> {
    const regions = new RegionLookup();
    const inserted: ArrivedRow[] = [];
    for (const chunk of chunks(records, BATCH_SIZE)) {
      const columns = columnsOf(chunk, (p) => [
        p.id,
        p.firstName,
        p.lastName,
        p.title ?? '',
        p.title ? (matchPersona(p.title)?.name ?? null) : null,
        p.companyId,
        p.linkedinUrl,
        p.salesNavigatorProfileUrl,
        p.email,
        p.phone,
        p.location,
        p.city,
        regions.of(p),
        p.countryCode,
        p.startedOn,
      ]);
      const added = await this.insertCounting(
        `INSERT INTO people (id, first_name, last_name, title, persona, company_id, linkedin_url, sales_navigator_url,
                             email, phone, location, city, region_code, country_code, started_on)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                              $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                              $15::text[])`,
        columns,
        this.db,
        `jsonb_build_array(id, company_id)::text`,
      );
      for (const [personId, companyId] of added.returned) inserted.push({ table: 'people', personId, companyId });
    }
    return inserted;
  }

  /** Adds the events it inserted to `arrived` (all chunks, announced once). */
  private async insertEvents(records: EventRecord[], db: Queryable = this.db, arrived?: ArrivedRow[]): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(records, BATCH_SIZE)) {
      const columns = columnsOf(chunk, (e) => {
        const posting = POSTING_EVENT_TYPES.has(e.type)
          ? jobPostingProfile(text(e.data.job_offer_title), text(e.data.job_offer_location), e.department)
          : undefined;
        return [
          e.id,
          e.type,
          e.occurredAt,
          e.companyId,
          e.personId,
          JSON.stringify(e.data),
          posting?.department ?? null,
          posting?.seniority ?? null,
          posting?.countryCode ?? null,
          posting?.regionCode ?? null,
          posting?.city ?? null,
        ];
      });
      const added = await this.insertCounting(
        `INSERT INTO events (id, type, occurred_at, company_id, person_id, data,
                             job_department, job_seniority, job_country_code, job_region_code, job_city)
         SELECT r.id, r.type, r.occurred_at, r.company_id, r.person_id, r.data::jsonb,
                r.job_department, r.job_seniority, r.job_country_code, r.job_region_code, r.job_city
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[],
                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
              AS r(id, type, occurred_at, company_id, person_id, data,
                   job_department, job_seniority, job_country_code, job_region_code, job_city)`,
        columns,
        db,
        `jsonb_build_array(type, company_id, person_id, id, occurred_at)::text`,
      );
      inserted += added.inserted;
      for (const [type, companyId, personId, id, occurredAt] of added.returned)
        arrived?.push({ table: 'events', type, companyId, personId, id, occurredAt });
    }
    return inserted;
  }

  /**
   * Runs an `INSERT ... SELECT` with `ON CONFLICT (id) DO NOTHING` and answers how many rows were
   * new, and the distinct values of the `returning` column among them.
   */
  private async insertCounting(
    insert: string,
    columns: unknown[][],
    db: Queryable = this.db,
    returning?: string,
  ): Promise<{ inserted: number; returned: string[][] }> {
    const [row] = await rows<{ inserted: number; returned: string[] | null }>(
      db,
      `WITH added AS (${insert} ON CONFLICT (id) DO NOTHING RETURNING ${returning ?? 'NULL::text'} AS value)
       SELECT count(*)::int AS inserted, array_agg(DISTINCT value) FILTER (WHERE value IS NOT NULL) AS returned FROM added`,
      columns,
    );
    // `returning` is a JSON array of text, so a row's values come back whole.
    return { inserted: row.inserted, returned: (row.returned ?? []).map((value) => JSON.parse(value) as string[]) };
  }
}

/** An event written (inserted or revised), as announced: faceted by its company and person. */
const eventArrived = (event: EventRecord): ArrivedRow => ({
  table: 'events',
  type: event.type,
  companyId: event.companyId,
  personId: event.personId,
  id: event.id,
  occurredAt: new Date(event.occurredAt).toISOString(),
});

export interface IngestOptions {
  dealParties?: ReadonlyMap<string, string>;
}

/** Events that are job postings: a hiring signal filters them on their department, seniority and place. */
const POSTING_EVENT_TYPES: ReadonlySet<string> = new Set(['job_offers', 'recruitment_campaign']);
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * The region a person is in, from "city, country" (else from the free-text location when it
 * agrees with the country). Resolving costs ~10 µs and vendor files repeat the same cities, so
 * each place is resolved once per input.
 */
class RegionLookup {
  private readonly cache = new Map<string, string | null>();

  of(person: Pick<PersonRecord, 'city' | 'countryCode' | 'location'>): string | null {
    const { city, countryCode, location } = person;
    if (!countryCode || (!city && !location)) return null;
    const query = city ? `${city}, ${countryCode}` : location!;
    const key = `${countryCode}|${query}`;
    let region = this.cache.get(key);
    if (region === undefined) {
      const place = resolveLocation(query);
      region =
        place && place.kind !== 'country' && place.countryCode === countryCode ? (place.regionCode ?? null) : null;
      this.cache.set(key, region);
    }
    return region;
  }
}

/** One object per non-blank line; line numbers count every line, blank ones included. */
function linesOf(text: string): RawLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  // A JSON array sent as text (the CLI's .json files, a provider's batch) is as welcome as NDJSON.
  if (trimmed.startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(body);
    } catch (err) {
      throw invalidRequest(`The body starts like a JSON array but is not valid JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(array)) throw invalidRequest('The body must be NDJSON records or a JSON array of records');
    return array.map((value, i) => ({ line: i + 1, value }));
  }
  const lines: RawLine[] = [];
  let start = 0;
  let line = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    line++;
    const content = body.slice(start, end).trim();
    start = end + 1;
    if (!content) continue;
    try {
      lines.push({ line, value: JSON.parse(content) });
    } catch (err) {
      lines.push({ line, value: undefined, problem: `not valid JSON: ${(err as Error).message}` });
    }
  }
  return lines;
}

type Parsed = CompanyRecord | PersonRecord | EventRecord;

/** The normalised record, or what is wrong with it in one line of text. */
function validate(value: unknown): Parsed | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a record must be a JSON object';
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !(KINDS as string[]).includes(kind)) {
    return `kind: must be ${KINDS.map((k) => `"${k}"`).join(', ')}`;
  }
  const parsed = RECORD_SCHEMAS[kind as RecordKind].safeParse(value);
  if (parsed.success) return parsed.data;
  return parsed.error.issues
    .flatMap((issue) => {
      const field = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => `${key}: is not a field of ${kind} records`);
      // zod words a missing field as a type mismatch with "undefined"; say what the sender did wrong.
      const message =
        issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message;
      return [field ? `${field}: ${message}` : message];
    })
    .join('; ');
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Row values turned into one array per column, the shape `unnest` takes. */
function columnsOf<T>(rows: readonly T[], valuesOf: (row: T) => unknown[]): unknown[][] {
  const columns: unknown[][] = [];
  for (const row of rows) {
    valuesOf(row).forEach((value, i) => (columns[i] ??= []).push(value));
  }
  return columns;
}
