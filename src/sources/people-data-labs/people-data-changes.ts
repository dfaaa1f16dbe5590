import type { DataSource } from 'typeorm';
import type {
  CompanyRecordInput,
  EventRecordInput,
  IngestRecordInput,
  PersonRecordInput,
} from '../../providers/data/records';
import type { PeopleDataVendor, PersonChange, VendorAnswer, VendorPerson } from './vendor';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import { canonicalNetworkUrl, nameKeyOf, registrableDomain } from '../../catalogue/identifiers';
import { slug } from '../kit/record-names';
import { conflict, notFound } from '../../errors';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { IntentSource } from '../kit/intent-source';
import type { PoliteFetch } from '../kit/polite-fetch';
import { changed, execute, firstRow, rows } from '../../db/sql';

const ITEMS_PER_PAGE = 25;
/** A run's items: the release item (list what changed), then one item per person listed. */
const RELEASE_ITEM = '1-release';
const CHANGE_ITEM = '2-change-';
/** The vendor keeps only its last three monthly releases comparable: a longer gap is read from three back. */
const MAX_RELEASES_BEHIND = 3;

export interface PeopleDataSettings {
  /** The source's name, listed even while it is off. */
  name: string;
  /** null without an API key: the source is off. */
  vendor: PeopleDataVendor | null;
  /** The vendor's current release, as configured. */
  release: string | undefined;
  /** USD per credit, for the cost in the status; 0 prints credits only. */
  creditPriceUsd: number;
}

interface Tracked {
  vendor_id: string;
  person_id: string | null;
  company_name: string | null;
  title: string | null;
  opted_out_at: Date | null;
}

interface StoredPerson {
  first_name: string;
  last_name: string;
  linkedin_url: string | null;
  phone: string | null;
  location: string | null;
  city: string | null;
  country_code: string | null;
}

/**
 * Job changes from a people-data vendor (docs/sources/people-data-labs.md). Each run looks
 * for a release not compared yet; the vendor's changelog between it and the release before,
 * asked only about the people the store tracks (table `people_data_people`), lists who changed
 * or opted out. Each changed person whose job fields moved is looked up (a paid call) and diffed
 * on employer and title with what the store knew: a new employer or title becomes a
 * `job_change` event (id `<prefix>:<vendor id>:<release>`) with the person as they are now, at
 * their new company. An opted-out person's contact data leaves the store.
 */
export class PeopleDataChanges implements IntentSource {
  readonly name: string;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly settings: PeopleDataSettings,
  ) {
    this.name = settings.name;
  }

  /**
   * Tracks a stored person under their vendor id, with their current title and company as the
   * baseline of the next diff. A person already opted out of the vendor is refused.
   */
  async track(personId: string, vendorId: string): Promise<void> {
    const person = await firstRow<{ title: string; company_name: string | null }>(
      this.db,
      `SELECT p.title, c.name AS company_name FROM people p LEFT JOIN companies c ON c.id = p.company_id WHERE p.id = $1`,
      [personId],
    );
    if (!person) throw notFound('Person');
    const known = await firstRow<{ opted_out_at: Date | null }>(
      this.db,
      `SELECT opted_out_at FROM people_data_people WHERE source = $1 AND vendor_id = $2`,
      [this.name, vendorId],
    );
    if (known?.opted_out_at)
      throw conflict('OPTED_OUT', `${vendorId} opted out of ${this.name}: it is not tracked again`);
    await execute(
      this.db,
      `INSERT INTO people_data_people (source, vendor_id, person_id, company_name, title) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (source, vendor_id) DO UPDATE SET person_id = $3, company_name = $4, title = $5, updated_at = now()`,
      [this.name, vendorId, personId, person.company_name, person.title || null],
    );
  }

  /** Without the vendor's key the source is listed but reads nothing (the status's `off`). */
  off(): string | null {
    return this.settings.vendor ? null : 'off: no API key (PEOPLE_DATA_LABS_API_KEY)';
  }

  /** The status line: the last release compared and what it cost. */
  async detail(): Promise<string | null> {
    if (!this.settings.vendor) return null;
    const [{ tracked }] = await rows<{ tracked: number }>(
      this.db,
      `SELECT count(*)::int AS tracked FROM people_data_people WHERE source = $1 AND opted_out_at IS NULL AND person_id IS NOT NULL`,
      [this.name],
    );
    const people = `${tracked} ${tracked === 1 ? 'person' : 'people'} tracked`;
    if (!this.settings.release) return `on, no release configured to compare; ${people}`;
    const release = await firstRow<{
      release: string;
      origin: string;
      listed_at: Date | null;
      change_calls: number;
      lookups: number;
      credits: number;
    }>(
      this.db,
      `SELECT release, origin, listed_at, change_calls, lookups, credits FROM people_data_releases
       WHERE source = $1 ORDER BY string_to_array(release, '.')::int[] DESC LIMIT 1`,
      [this.name],
    );
    if (!release) return `release ${this.settings.release} not compared yet; ${people}`;
    const price = this.settings.creditPriceUsd;
    const cost = price > 0 ? ` = $${(release.credits * price).toFixed(2)} at $${price} a credit` : '';
    return (
      `release ${release.release} (compared with ${release.origin}${release.listed_at ? '' : ', listing'}): ` +
      `${plural(release.change_calls, 'changelog call')} (free), ${plural(release.lookups, 'person lookup')}, ` +
      `${plural(release.credits, 'credit')} charged${cost}; ${people}`
    );
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    if (!this.settings.vendor || !this.settings.release) return { items: [], next: null };
    if (after === null) return { items: [RELEASE_ITEM], next: RELEASE_ITEM };
    const listed = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM (
         SELECT $2 || release || ' ' || vendor_id AS key FROM people_data_changes WHERE source = $1 AND status = 'pending'
       ) k WHERE key COLLATE "C" > $3 ORDER BY key COLLATE "C" LIMIT $4`,
      [this.name, CHANGE_ITEM, after, ITEMS_PER_PAGE],
    );
    const items = listed.map((row) => row.key);
    return { items, next: items.length === ITEMS_PER_PAGE ? items[items.length - 1]! : null };
  }

  async sync(item: string): Promise<SourceItemResult> {
    const vendor = this.settings.vendor;
    if (!vendor) return { records: 0 };
    if (item === RELEASE_ITEM) return this.listReleases(vendor);
    if (item.startsWith(CHANGE_ITEM)) {
      const [release, vendorId] = item.slice(CHANGE_ITEM.length).split(' ');
      if (release && vendorId) return this.readChange(vendor, release, vendorId);
    }
    return { records: 0 };
  }

  /** The releases from the last one compared up to the configured one, each compared with the one before it. */
  private async listReleases(vendor: PeopleDataVendor): Promise<SourceItemResult> {
    const current = this.settings.release!;
    const known = await rows<{ release: string }>(
      this.db,
      `SELECT release FROM people_data_releases WHERE source = $1 AND listed_at IS NOT NULL`,
      [this.name],
    );
    const compared = new Set(known.map((row) => row.release));
    const pairs: [string, string][] = [];
    for (let release = current; pairs.length < MAX_RELEASES_BEHIND && !compared.has(release);) {
      const origin = vendor.previousRelease(release);
      if (!origin) return { records: 0, error: `release ${release}: no release before it to compare with` };
      pairs.unshift([origin, release]);
      // Without a release compared before, only the newest one is: older changes are not news.
      if (compared.size === 0) break;
      release = origin;
    }
    for (const [origin, release] of pairs) {
      const error = await this.listChanges(vendor, origin, release);
      if (error) return { records: 0, error };
    }
    return { records: 0 };
  }

  /**
   * The changelog between two releases for every tracked person, a batch of ids at a time and a
   * scroll page per call, updates and opt-outs apart. What it lists is stored only once every
   * page is read, so a retry after a 429 reads them all again.
   */
  private async listChanges(vendor: PeopleDataVendor, origin: string, release: string): Promise<string | null> {
    await execute(
      this.db,
      `INSERT INTO people_data_releases (source, release, origin) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [this.name, release, origin],
    );
    const tracked = await rows<{ vendor_id: string }>(
      this.db,
      `SELECT vendor_id FROM people_data_people WHERE source = $1 AND opted_out_at IS NULL AND person_id IS NOT NULL
       ORDER BY vendor_id`,
      [this.name],
    );
    const ids = tracked.map((row) => row.vendor_id);
    const found: PersonChange[] = [];
    for (let start = 0; start < ids.length; start += vendor.idsPerRequest) {
      const batch = ids.slice(start, start + vendor.idsPerRequest);
      for (const kind of ['updated', 'opted_out'] as const) {
        let page: string | null = null;
        do {
          const answer = await vendor.changes({ from: origin, to: release, kind, ids: batch, page });
          await this.count(release, 'change_calls', 1);
          const changes = await this.settle(vendor, answer);
          if ('problem' in changes) return changes.problem;
          found.push(...changes.ok.changes);
          page = changes.ok.next;
        } while (page);
      }
    }
    // An opt-out outranks an update of the same person; an update of other fields needs no lookup.
    const byPerson = new Map<string, PersonChange>();
    for (const change of found)
      if (byPerson.get(change.vendorId)?.kind !== 'opted_out') byPerson.set(change.vendorId, change);
    const changes = [...byPerson.values()];
    const pending = changes.map((c) => c.kind === 'opted_out' || vendor.mayBeJobChange(c.fieldsUpdated));
    if (changes.length > 0) {
      await execute(
        this.db,
        `INSERT INTO people_data_changes (source, release, vendor_id, kind, status, outcome)
         SELECT $1, $2, r.vendor_id, r.kind, CASE WHEN r.pending THEN 'pending' ELSE 'done' END,
                CASE WHEN r.pending THEN NULL ELSE 'no job field changed' END
         FROM unnest($3::text[], $4::text[], $5::boolean[]) AS r(vendor_id, kind, pending)
         ON CONFLICT (source, release, vendor_id) DO NOTHING`,
        [this.name, release, changes.map((c) => c.vendorId), changes.map((c) => c.kind), pending],
      );
    }
    await execute(this.db, `UPDATE people_data_releases SET listed_at = now() WHERE source = $1 AND release = $2`, [
      this.name,
      release,
    ]);
    return null;
  }

  /** One listed person: an opt-out honoured, or their current record diffed with what the store knew. */
  private async readChange(vendor: PeopleDataVendor, release: string, vendorId: string): Promise<SourceItemResult> {
    const change = await firstRow<{ kind: PersonChange['kind']; status: string }>(
      this.db,
      `SELECT kind, status FROM people_data_changes WHERE source = $1 AND release = $2 AND vendor_id = $3`,
      [this.name, release, vendorId],
    );
    if (!change || change.status !== 'pending') return { records: 0 };
    const tracked = await firstRow<Tracked>(
      this.db,
      `SELECT vendor_id, person_id, company_name, title, opted_out_at FROM people_data_people
       WHERE source = $1 AND vendor_id = $2`,
      [this.name, vendorId],
    );
    if (change.kind === 'opted_out') {
      await this.optOut(vendor, vendorId, tracked);
      return this.done(release, vendorId, 'done', 'opted out: contact data removed');
    }
    if (!tracked?.person_id || tracked.opted_out_at) return this.done(release, vendorId, 'done', 'no longer tracked');

    const answer = await vendor.person(vendorId);
    await this.count(release, 'lookups', 1);
    const looked = await this.settle(vendor, answer);
    if ('problem' in looked) {
      if ('notFound' in answer && answer.notFound) return this.done(release, vendorId, 'done', looked.problem);
      return { records: 0, error: looked.problem };
    }
    if (looked.ok.billed) await this.count(release, 'credits', 1);
    const person = looked.ok.person;
    if (!person.companyName || !person.title) return this.done(release, vendorId, 'done', 'no current job');
    const newEmployer = !same(person.companyName, tracked.company_name);
    if (!newEmployer && same(person.title, tracked.title))
      return this.done(release, vendorId, 'done', 'same employer and title');

    const stored = await firstRow<StoredPerson>(
      this.db,
      `SELECT first_name, last_name, linkedin_url, phone, location, city, country_code FROM people WHERE id = $1`,
      [tracked.person_id],
    );
    const company = await this.companyOf(vendor, person);
    const personId = `${vendor.idPrefix}-person:${vendorId}:${release}`.slice(0, 200);
    const records: IngestRecordInput[] = [
      ...(company.record ? [company.record] : []),
      personRecord(personId, company.id, person, stored),
      jobChangeEvent(vendor, vendorId, release, personId, company.id, person, tracked, newEmployer),
    ];
    const result = await this.ingestion.ingest(records);
    if (result.errors.length > 0) {
      const problem = `${vendorId}: ${result.errors.map((e) => e.message).join('; ')}`;
      return this.done(release, vendorId, 'failed', problem, problem);
    }
    await execute(
      this.db,
      `UPDATE people_data_people SET person_id = $3, company_name = $4, title = $5, updated_at = now()
       WHERE source = $1 AND vendor_id = $2`,
      [this.name, vendorId, personId, person.companyName, person.title],
    );
    await this.done(release, vendorId, 'done', newEmployer ? 'new employer' : 'new title');
    return { records: result.accepted > 0 ? 1 : 0 };
  }

  /**
   * An opted-out person leaves the store as far as it can: every person row of theirs loses its
   * name and contact fields, their events no lead names yet are deleted (so no new lead is made
   * of them), rows nothing references any more are deleted, and the vendor id is kept as opted
   * out so the person is never tracked again. Leads already made stay the customer's.
   */
  private async optOut(vendor: PeopleDataVendor, vendorId: string, tracked: Tracked | undefined): Promise<void> {
    const rowsOf = await rows<{ id: string }>(this.db, `SELECT id FROM people WHERE id = $1 OR id LIKE $2`, [
      tracked?.person_id ?? '',
      `${vendor.idPrefix}-person:${vendorId.replace(/[\\%_]/g, '\\$&')}:%`,
    ]);
    const ids = rowsOf.map((row) => row.id);
    if (ids.length > 0) {
      const deleted = await changed<{ type: string }>(
        this.db,
        `DELETE FROM events e WHERE e.person_id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.event_id = e.id)
         RETURNING e.type`,
        [ids],
      );
      await execute(
        this.db,
        `UPDATE people SET first_name = '', last_name = '', email = NULL, phone = NULL, linkedin_url = NULL,
           sales_navigator_url = NULL, location = NULL, city = NULL, region_code = NULL
         WHERE id = ANY($1::text[])`,
        [ids],
      );
      await execute(
        this.db,
        `DELETE FROM people p WHERE p.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.person_id = p.id)`,
        [ids],
      );
      // With persona targeting, the company's events may now name the next person.
      const types = new Set(deleted.rows.map((row) => row.type));
      this.ingestion.announce([{ table: 'people' }, ...[...types].map((type) => ({ table: 'events' as const, type }))]);
    }
    await execute(
      this.db,
      `INSERT INTO people_data_people (source, vendor_id, person_id, opted_out_at) VALUES ($1, $2, NULL, now())
       ON CONFLICT (source, vendor_id) DO UPDATE SET opted_out_at = now(), company_name = NULL, title = NULL, updated_at = now()`,
      [this.name, vendorId],
    );
  }

  /** The new employer: a stored company by domain, company page or name, else a new one. */
  private async companyOf(
    vendor: PeopleDataVendor,
    person: VendorPerson,
  ): Promise<{ id: string; record?: CompanyRecordInput }> {
    const name = person.companyName!;
    const domain = person.companyDomain ? (registrableDomain(hostOf(person.companyDomain)) ?? null) : null;
    const page = person.companyLinkedinUrl ? canonicalNetworkUrl(person.companyLinkedinUrl) : undefined;
    const linkedinUrl = page && page !== 'unusable' && page.kind === 'company' ? page.url : null;
    const match = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM companies WHERE domain = $1 OR linkedin_url = $2 OR name_key = $3
       ORDER BY (domain = $1) IS TRUE DESC, (linkedin_url = $2) IS TRUE DESC, id LIMIT 1`,
      [domain, linkedinUrl, nameKeyOf(name)],
    );
    if (match) return match;
    const id = `${vendor.idPrefix}-company:${domain ?? slug(name)}`.slice(0, 200);
    return {
      id,
      record: { kind: 'company', id, name, domain, linkedinUrl, industry: person.companyIndustry },
    };
  }

  /** A vendor's answer read: a 429 holds every worker off its host and the item retries after the wait. */
  private async settle<T>(vendor: PeopleDataVendor, answer: VendorAnswer<T>): Promise<{ ok: T } | { problem: string }> {
    if ('throttled' in answer)
      throw await this.fetcher.refused(`https://${vendor.host}/`, 429, answer.throttled.retryAfterMs);
    return answer;
  }

  private async count(release: string, column: 'change_calls' | 'lookups' | 'credits', n: number): Promise<void> {
    await execute(
      this.db,
      `UPDATE people_data_releases SET ${column} = ${column} + $3 WHERE source = $1 AND release = $2`,
      [this.name, release, n],
    );
  }

  private async done(
    release: string,
    vendorId: string,
    status: 'done' | 'failed',
    outcome: string,
    error?: string,
  ): Promise<SourceItemResult> {
    await execute(
      this.db,
      `UPDATE people_data_changes SET status = $4, outcome = $5, read_at = now()
       WHERE source = $1 AND release = $2 AND vendor_id = $3`,
      [this.name, release, vendorId, status, outcome],
    );
    return error ? { records: 0, error } : { records: 0 };
  }
}

/** The person as they are now, at the new company: the vendor's licensed fields, else what the store had. */
function personRecord(
  id: string,
  companyId: string,
  person: VendorPerson,
  stored: StoredPerson | undefined,
): PersonRecordInput {
  return {
    kind: 'person',
    id,
    companyId,
    firstName: person.firstName ?? stored?.first_name ?? '',
    lastName: person.lastName ?? stored?.last_name ?? '',
    title: person.title,
    linkedinUrl: person.linkedinUrl ?? stored?.linkedin_url ?? null,
    // A work email belongs to the old job: only the vendor's current one is kept.
    email: person.email,
    phone: person.phone ?? stored?.phone ?? null,
    location: person.location ?? stored?.location ?? null,
    city: person.city ?? stored?.city ?? null,
    countryCode: person.countryCode ?? stored?.country_code ?? null,
    startedOn: person.startedOn,
  };
}

function jobChangeEvent(
  vendor: PeopleDataVendor,
  vendorId: string,
  release: string,
  personId: string,
  companyId: string,
  person: VendorPerson,
  tracked: Tracked,
  newEmployer: boolean,
): EventRecordInput {
  const month = person.startedOn;
  return {
    kind: 'event',
    id: `${vendor.idPrefix}:${vendorId}:${release}`.slice(0, 200),
    type: 'job_change',
    // The job's start month when the vendor knows it, else the day the change was read.
    occurredAt: month ? `${month}-01T00:00:00Z` : `${new Date().toISOString().slice(0, 10)}T00:00:00Z`,
    companyId,
    personId,
    data: {
      previous_title: tracked.title ?? '',
      previous_company: tracked.company_name ?? '',
      new_title: person.title ?? '',
      new_company: person.companyName ?? '',
      new_job_started_on: month ? `${month.slice(5, 7)}/${month.slice(0, 4)}` : '',
      new_job_start_month: month ?? '',
      change_type: newEmployer ? 'company' : 'title',
    },
  };
}

const same = (a: string | null, b: string | null) =>
  (a ?? '').trim().toLowerCase().replace(/\s+/g, ' ') === (b ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

const hostOf = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
