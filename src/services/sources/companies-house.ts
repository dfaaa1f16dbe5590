import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import {
  basicAuthOf,
  capitalFilingsUrl,
  companyProfileUrl,
  companySearchUrl,
  officerNameParts,
  officersStreamUrl,
  parseCompanyProfile,
  parseCompanySearch,
  parseFilingHistory,
  parseStreamLine,
  type CapitalFiling,
  type OfficerAppointment,
} from '../../providers/sources/companies-house/records';
import { readLines } from '../../providers/sources/companies-house/stream';
import type { EventRecordInput, IngestRecordInput, PersonRecordInput } from '../../providers/data/records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../ingestion/ingestion';
import type { IntentSource } from './intent-source';
import { retryAfterMsOf, type FetchAnswer, type PoliteFetch } from './polite-fetch';
import { CompaniesHouseCompanies } from './companies-house-companies';
import { HostPacing } from './host-pacing';
import { titleCase } from './sec-issuers';
import { changed, execute, firstRow, rows } from '../../db/sql';

const ITEMS_PER_PAGE = 25;
/**
 * A run's items, in this order: the officers stream, each company number read from it, each
 * watched company not linked yet (searched for by name), then each linked company's filings.
 */
const STREAM_ITEM = '1-stream';
const COMPANY_ITEM = '2-company-';
const SEARCH_ITEM = '2-search-';
const FILINGS_ITEM = '3-filings-';
const OFFICERS_STREAM = 'officers';
/** The appointments that are decision makers, and the title their person gets. */
const DECISION_MAKER_ROLES: Readonly<Record<string, string>> = {
  director: 'Director',
  'llp-designated-member': 'Designated Member',
  'llp-member': 'Member',
};
/** An appointment made longer ago than this is an old one changing (an address), not a new decision maker. */
const NEW_APPOINTMENT_DAYS = 60;
/** A share allotment filed longer ago than this is history, not a round. */
const ALLOTMENT_MAX_AGE_DAYS = 365;
/** A number no stored company was found for is looked up again after this long (a watchlist may name it since). */
const UNMATCHED_RECHECK_MS = 7 * 86_400_000;
/** Stream events between two saves of the timepoint (and heartbeats). */
const STREAM_BATCH = 100;
/** No byte, not even a heartbeat's blank line, for this long is a dropped connection. */
const STREAM_IDLE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A watched company the register search found nothing for is searched again after this long. */
const SEARCH_AGAIN_MS = 30 * DAY_MS;
/** The stored companies an account watchlist (not deleted) names, by page URL, domain or name, as its evaluation matches them. */
const WATCHED_COMPANY_IDS = `
  WITH entries AS (
    SELECT w.* FROM watched_companies w JOIN signals g ON g.id = w.signal_id
    WHERE w.kind = 'company' AND g.deleted_at IS NULL AND g.status = 'active'
  )
  SELECT c.id FROM entries w JOIN companies c ON c.linkedin_url = w.linkedin_url
  UNION SELECT c.id FROM entries w JOIN companies c ON c.domain = w.domain
  UNION SELECT c.id FROM entries w JOIN companies c
    ON w.linkedin_url IS NULL AND w.domain IS NULL AND c.name_key = w.name_key`;

type SourceConfig = Pick<
  Config,
  | 'COMPANIES_HOUSE_API_KEY'
  | 'COMPANIES_HOUSE_STREAM_KEY'
  | 'COMPANIES_HOUSE_STREAM_READ_SECONDS'
  | 'COMPANIES_HOUSE_STREAM_MAX_EVENTS'
  | 'COMPANIES_HOUSE_FILINGS_INTERVAL'
  | 'COMPANIES_HOUSE_GBP_USD_RATE'
>;

/**
 * The `companies-house` source (docs/sources/companies-house.md): UK Companies House. Each run reads the
 * officers stream for a bounded time from the timepoint it stopped at, keeping the new
 * appointments of directors and LLP members; each company number among them is looked up once
 * and matched to a stored company ({@link CompaniesHouseCompanies}); appointments at matched
 * companies become `new_decision_makers` events with the officer as a person, the others are
 * dropped. Each matched company's capital filings are read daily: its share allotments (SH01)
 * become `fundraising` events, one per filing (`companies-house:<transaction_id>`).
 */
export class CompaniesHouse implements IntentSource {
  readonly name = 'companies-house';
  private readonly companies: CompaniesHouseCompanies;
  private readonly pacing: HostPacing;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: SourceConfig,
  ) {
    this.companies = new CompaniesHouseCompanies(db);
    this.pacing = new HostPacing(db);
  }

  off(): string | null {
    return this.config.COMPANIES_HOUSE_API_KEY ? null : 'off: no API key (COMPANIES_HOUSE_API_KEY)';
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    // The stream is read first and alone: the companies it finds are listed after it.
    if (after === null && this.config.COMPANIES_HOUSE_STREAM_KEY) return { items: [STREAM_ITEM], next: STREAM_ITEM };
    const listed = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM (
         SELECT DISTINCT $2 || company_number AS key FROM companies_house_appointments WHERE status = 'pending'
         UNION ALL
         SELECT $6 || c.id FROM companies c
         WHERE c.id IN (${WATCHED_COMPANY_IDS}) AND (c.hq_country_code IS NULL OR c.hq_country_code = 'GB')
           AND NOT EXISTS (SELECT 1 FROM companies_house_companies h WHERE h.company_id = c.id)
           AND NOT EXISTS (SELECT 1 FROM companies_house_searches s WHERE s.company_id = c.id
             AND s.searched_at > now() - make_interval(secs => $7::bigint / 1000.0))
         UNION ALL
         SELECT $3 || company_number FROM companies_house_companies
         WHERE company_id IS NOT NULL
           AND (filings_read_at IS NULL OR filings_read_at < now() - make_interval(secs => $5::bigint / 1000.0))
       ) k WHERE key COLLATE "C" > $1 ORDER BY key COLLATE "C" LIMIT $4`,
      [
        after ?? '',
        COMPANY_ITEM,
        FILINGS_ITEM,
        ITEMS_PER_PAGE,
        this.config.COMPANIES_HOUSE_FILINGS_INTERVAL,
        SEARCH_ITEM,
        SEARCH_AGAIN_MS,
      ],
    );
    const items = listed.map((row) => row.key);
    // A company matched lists its filings as due: the run asks again after it, to read them too.
    const more = items.length === ITEMS_PER_PAGE || items.some((item) => !item.startsWith(FILINGS_ITEM));
    return { items, next: more ? items[items.length - 1]! : null };
  }

  async sync(item: string, progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    if (this.off()) return { records: 0 };
    if (item === STREAM_ITEM) return this.readOfficersStream(progress);
    if (item.startsWith(COMPANY_ITEM)) return this.matchCompany(item.slice(COMPANY_ITEM.length));
    if (item.startsWith(SEARCH_ITEM)) return this.searchWatched(item.slice(SEARCH_ITEM.length));
    if (item.startsWith(FILINGS_ITEM)) return this.readCapitalFilings(item.slice(FILINGS_ITEM.length));
    return { records: 0 };
  }

  /**
   * The officers stream from the stored timepoint, for COMPANIES_HOUSE_STREAM_READ_SECONDS or
   * COMPANIES_HOUSE_STREAM_MAX_EVENTS events, whichever comes first, or until Companies House
   * closes it (its nightly disconnect): the next run resumes from the last timepoint received.
   * The timepoint is saved only after the appointments read up to it are, so a killed read
   * reads them again rather than missing them (their id makes the second read change nothing).
   */
  private async readOfficersStream(progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    const stored = await firstRow<{ timepoint: string | null }>(
      this.db,
      `SELECT timepoint FROM companies_house_streams WHERE stream = $1`,
      [OFFICERS_STREAM],
    );
    const from = stored?.timepoint == null ? null : Number(stored.timepoint);
    const url = officersStreamUrl(from);
    const target = this.fetcher.targetOf(url);
    const wait = await this.pacing.claim(new URL(url).host, this.fetcher.intervalOf(new URL(url).host));
    if (wait > 0) await sleep(wait);

    let last = from;
    let events = 0;
    let problems = 0;
    let batch: OfficerAppointment[] = [];
    const save = async () => {
      await this.keepAppointments(batch);
      batch = [];
      if (last !== null && last !== from) {
        await execute(
          this.db,
          `INSERT INTO companies_house_streams (stream, timepoint) VALUES ($1, $2)
           ON CONFLICT (stream) DO UPDATE SET timepoint = $2, updated_at = now()`,
          [OFFICERS_STREAM, last],
        );
      }
      progress?.({ timepoint: last, events });
    };
    const end = await readLines(target, {
      headers: {
        'user-agent': this.fetcher.userAgent,
        accept: 'application/json',
        authorization: basicAuthOf(this.config.COMPANIES_HOUSE_STREAM_KEY!),
      },
      agent: this.fetcher.agentFor(target),
      idleMs: STREAM_IDLE_MS,
      readForMs: this.config.COMPANIES_HOUSE_STREAM_READ_SECONDS * 1000,
      onLine: async (line) => {
        const event = parseStreamLine(line);
        if (event === null) {
          progress?.({ timepoint: last, events });
          return true;
        }
        // Resumed from the last timepoint received: that event comes again and is skipped.
        if (event.timepoint !== null && from !== null && event.timepoint <= from) return true;
        events++;
        if (event.timepoint !== null) last = event.timepoint;
        if ('problem' in event) problems++;
        else if (this.isNewDecisionMaker(event)) batch.push(event);
        if (events % STREAM_BATCH === 0) await save();
        return events < this.config.COMPANIES_HOUSE_STREAM_MAX_EVENTS;
      },
    });
    await save();
    if (end.status === 'refused') return this.streamRefused(url, from, end.statusCode, end.retryAfter);
    if (end.status === 'failed') return { records: 0, error: `officers stream: ${end.error}` };
    return problems ? { records: 0, error: `officers stream: ${problems} event(s) not understood` } : { records: 0 };
  }

  private async streamRefused(
    url: string,
    from: number | null,
    statusCode: number,
    retryAfter: string | null,
  ): Promise<SourceItemResult> {
    const host = new URL(url).host;
    if (statusCode === 429) throw await this.fetcher.refused(url, 429, retryAfterMsOf(retryAfter ?? undefined));
    if (statusCode === 416) {
      // The timepoint is too old (the stream keeps a few days): the next read starts from now.
      await execute(
        this.db,
        `UPDATE companies_house_streams SET timepoint = NULL, updated_at = now() WHERE stream = $1`,
        [OFFICERS_STREAM],
      );
      return {
        records: 0,
        error: `officers stream: timepoint ${from} is too old (416); the next read starts from now`,
      };
    }
    if (statusCode === 401)
      return { records: 0, error: `officers stream: ${host} answered 401: COMPANIES_HOUSE_STREAM_KEY was refused` };
    return { records: 0, error: `officers stream: ${host} answered ${statusCode}` };
  }

  /** A director or LLP member appointed lately and not resigned: a person, not a company (`corporate-*` roles are not kept). */
  private isNewDecisionMaker(event: OfficerAppointment): boolean {
    if (event.type !== 'changed' || event.resignedOn || !event.appointedOn) return false;
    if (!DECISION_MAKER_ROLES[event.officerRole]) return false;
    return Date.parse(`${event.appointedOn}T00:00:00Z`) >= Date.now() - NEW_APPOINTMENT_DAYS * DAY_MS;
  }

  private async keepAppointments(appointments: OfficerAppointment[]): Promise<void> {
    if (appointments.length === 0) return;
    await execute(
      this.db,
      `INSERT INTO companies_house_appointments (appointment_id, company_number, timepoint, appointment)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::jsonb[])
       ON CONFLICT (appointment_id) DO NOTHING`,
      [
        appointments.map((a) => a.appointmentId),
        appointments.map((a) => a.companyNumber),
        appointments.map((a) => a.timepoint),
        appointments.map((a) => JSON.stringify(a)),
      ],
    );
  }

  /**
   * A company number's pending appointments: the number is looked up (its profile) unless it was
   * matched before or found to be none lately, then its appointments are ingested or dropped.
   */
  private async matchCompany(number: string): Promise<SourceItemResult> {
    let linked = await this.companies.linked(number);
    if (!linked?.companyId && (!linked || linked.checkedAt.getTime() < Date.now() - UNMATCHED_RECHECK_MS)) {
      const answer = await this.get(companyProfileUrl(number));
      if (answer.status === 'failed' && answer.statusCode === 404) {
        await this.companies.unknown(number);
      } else if (answer.status !== 'ok') {
        return { records: 0, error: `company ${number}: ${answer.status === 'failed' ? answer.error : 'no profile'}` };
      } else {
        const parsed = parseCompanyProfile(answer.body);
        if ('problem' in parsed)
          return this.settleAppointments(number, 'dropped', `company ${number}: ${parsed.problem}`);
        const match = await this.companies.resolve(parsed.profile);
        if (match.record) {
          const result = await this.ingestion.ingest([match.record]);
          if (result.errors[0])
            return this.settleAppointments(number, 'dropped', `company ${number}: ${result.errors[0].message}`);
        }
        await this.companies.link(parsed.profile, match);
      }
      linked = await this.companies.linked(number);
    }
    if (!linked?.companyId) return this.settleAppointments(number, 'dropped', null);
    return this.ingestAppointments(number, linked.companyId);
  }

  private async ingestAppointments(number: string, companyId: string): Promise<SourceItemResult> {
    const pending = await rows<{ appointment: OfficerAppointment }>(
      this.db,
      `SELECT appointment FROM companies_house_appointments WHERE company_number = $1 AND status = 'pending'
       ORDER BY timepoint`,
      [number],
    );
    const present = await rows<{ id: string; name: string }>(
      this.db,
      `SELECT id, lower(first_name || ' ' || last_name) AS name FROM people WHERE company_id = $1`,
      [companyId],
    );
    const known = new Map(present.map((row) => [row.name, row.id]));
    const records: IngestRecordInput[] = [];
    const eventIds: string[] = [];
    for (const { appointment } of pending) {
      const person = officerPerson(appointment, companyId);
      const name = `${person.firstName} ${person.lastName}`.toLowerCase();
      const existing = known.get(name);
      if (!existing) {
        records.push(person);
        // A second appointment of the same person (another role) names the same person.
        known.set(name, person.id);
      }
      const event = decisionMakerEvent(appointment, companyId, existing ?? person.id);
      records.push(event);
      eventIds.push(event.id);
    }
    const stored = await rows<{ id: string }>(this.db, `SELECT id FROM events WHERE id = ANY($1::text[])`, [eventIds]);
    const result = await this.ingestion.ingest(records);
    const error = result.errors[0] ? `company ${number}: ${result.errors[0].message}` : null;
    const refused = result.errors.filter((e) => (records[e.line - 1] as { kind: string }).kind === 'event').length;
    const settled = await this.settleAppointments(number, 'ingested', error);
    return { ...settled, records: Math.max(0, eventIds.length - stored.length - refused) };
  }

  private async settleAppointments(
    number: string,
    status: 'ingested' | 'dropped',
    error: string | null,
  ): Promise<SourceItemResult> {
    const { count } = await changed(
      this.db,
      `UPDATE companies_house_appointments SET status = $2, settled_at = now()
       WHERE company_number = $1 AND status = 'pending'`,
      [number, status],
    );
    const dropped = status === 'dropped' ? count : 0;
    return error ? { records: 0, dropped, error } : { records: 0, dropped };
  }

  /** A watched company not linked to a number: the register searched for its name. */
  private async searchWatched(companyId: string): Promise<SourceItemResult> {
    const company = await firstRow<{ name: string }>(this.db, `SELECT name FROM companies WHERE id = $1`, [companyId]);
    if (!company) return { records: 0 };
    const answer = await this.get(companySearchUrl(company.name));
    const where = `search for ${company.name}`;
    if (answer.status !== 'ok')
      return { records: 0, error: `${where}: ${answer.status === 'failed' ? answer.error : 'no answer'}` };
    const parsed = parseCompanySearch(answer.body);
    if ('problem' in parsed) return { records: 0, error: `${where}: ${parsed.problem}` };
    await this.companies.found(companyId, company.name, parsed.companies);
    return { records: 0 };
  }

  /** A linked company's capital filings: each share allotment (SH01) of the last year becomes a round, once. */
  private async readCapitalFilings(number: string): Promise<SourceItemResult> {
    const linked = await this.companies.linked(number);
    if (!linked?.companyId) return { records: 0 };
    const answer = await this.get(capitalFilingsUrl(number));
    const where = `filing history of ${number}`;
    if (answer.status === 'failed' && answer.statusCode !== 404)
      return { records: 0, error: `${where}: ${answer.error}` };
    let records = 0;
    let error: string | undefined;
    if (answer.status === 'ok') {
      const parsed = parseFilingHistory(answer.body);
      if ('problem' in parsed) error = `${where}: ${parsed.problem}`;
      else {
        const since = new Date(Date.now() - ALLOTMENT_MAX_AGE_DAYS * DAY_MS).toISOString().slice(0, 10);
        const allotments = parsed.filings.filter(
          (f) => f.type === 'SH01' && f.category === 'capital' && f.date >= since,
        );
        const events = allotments.map((f) => this.allotmentEvent(f, linked.companyId!));
        const stored = await rows<{ id: string }>(this.db, `SELECT id FROM events WHERE id = ANY($1::text[])`, [
          events.map((e) => e.id),
        ]);
        const known = new Set(stored.map((row) => row.id));
        const fresh = events.filter((e) => !known.has(e.id));
        if (fresh.length) {
          const result = await this.ingestion.ingest(fresh);
          records = fresh.length - result.errors.length;
          if (result.errors[0]) error = `${where}: ${result.errors[0].message}`;
        }
      }
    }
    await execute(this.db, `UPDATE companies_house_companies SET filings_read_at = now() WHERE company_number = $1`, [
      number,
    ]);
    return error ? { records, error } : { records };
  }

  /**
   * An SH01's round. Companies House states no money raised: `description_values.capital` is the
   * statement of capital, the company's total issued share capital (nominal) after the allotment.
   * `funding_amount_usd` is that total: USD as stated, GBP at COMPANIES_HOUSE_GBP_USD_RATE, empty
   * for any other currency (or a mix with one) and when the rate is 0.
   */
  private allotmentEvent(filing: CapitalFiling, companyId: string): EventRecordInput {
    const rate = this.config.COMPANIES_HOUSE_GBP_USD_RATE;
    const inUsd = filing.capital.map((c) =>
      c.currency === 'USD' ? c.figure : c.currency === 'GBP' && rate > 0 ? c.figure * rate : null,
    );
    const amount =
      inUsd.length > 0 && inUsd.every((v) => v !== null)
        ? Math.round(inUsd.reduce<number>((sum, v) => sum + v!, 0))
        : '';
    return {
      kind: 'event',
      id: `companies-house:${filing.transactionId}`,
      type: 'fundraising',
      occurredAt: `${filing.date}T00:00:00Z`,
      companyId,
      data: { funding_type: 'Allotment of shares', funding_amount_usd: amount, announcement_date: filing.date },
    };
  }

  /** A GET with the REST key; a 401 names the key. */
  private async get(url: string): Promise<FetchAnswer> {
    const answer = await this.fetcher.get(url, 'application/json', {
      authorization: basicAuthOf(this.config.COMPANIES_HOUSE_API_KEY!),
    });
    if (answer.status === 'failed' && answer.statusCode === 401)
      return { ...answer, error: `${answer.error}: COMPANIES_HOUSE_API_KEY was refused` };
    return answer;
  }
}

/** The officer as a person of the company, under their register name ("SMITH, John" → John Smith). */
function officerPerson(appointment: OfficerAppointment, companyId: string): PersonRecordInput {
  const { forenames, surname } = officerNameParts(appointment.name);
  const lastName = titleCase(surname);
  const firstName = forenames ? titleCase(forenames) : lastName;
  return {
    kind: 'person',
    id: `ch-appointment-${appointment.appointmentId}`.slice(0, 200),
    companyId,
    firstName,
    lastName,
    title: DECISION_MAKER_ROLES[appointment.officerRole] ?? null,
    city: appointment.locality ? titleCase(appointment.locality) : null,
    location:
      [appointment.locality && titleCase(appointment.locality), appointment.countryOfResidence]
        .filter(Boolean)
        .join(', ') || null,
    startedOn: appointment.appointedOn!.slice(0, 7),
  };
}

function decisionMakerEvent(appointment: OfficerAppointment, companyId: string, personId: string): EventRecordInput {
  const month = appointment.appointedOn!.slice(0, 7);
  return {
    kind: 'event',
    id: `companies-house:appointment:${appointment.appointmentId}`.slice(0, 200),
    type: 'new_decision_makers',
    occurredAt: `${appointment.appointedOn}T00:00:00Z`,
    companyId,
    personId,
    data: { new_job_started_on: `${month.slice(5, 7)}/${month.slice(0, 4)}`, new_job_start_month: month },
  };
}
