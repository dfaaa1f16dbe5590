import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { CompaniesHouseConfig } from './settings';
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
} from './records';
import { readLines } from './stream';
import {
  DECISION_MAKER_ROLES,
  MAX_OFFICER_PAGES,
  appointmentTitle,
  companyOfficersUrl,
  officerAppointmentsUrl,
  parseOfficerList,
  parseAppointmentList,
  previousAppointment,
  type CareerAppointment,
} from './officer-records';
import { isTakeover, parsePscLine, pscRegisterPageUrl, pscStreamUrl, type ControlNotice } from './control-records';
import type { EventRecordInput, IngestRecordInput, PersonRecordInput } from '../../providers/data/records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { IntentSource } from '../kit/intent-source';
import { retryAfterMsOf, type FetchAnswer, type PoliteFetch } from '../kit/polite-fetch';
import { CompaniesHouseCompanies } from './companies-house-companies';
import { HostPacing } from '../kit/host-pacing';
import { titleCase } from '../kit/record-names';
import { watchedCompanyIds } from '../../signal-types/watched-companies';
import { changed, execute, firstRow, rows } from '../../db/sql';

const ITEMS_PER_PAGE = 25;
/**
 * A run's items, in this order: the officers stream, each company number read from it, each
 * watched company not linked yet (searched for by name), then each linked company's filings.
 */
const STREAM_ITEM = '1-stream';
const PSC_STREAM_ITEM = '1-stream-psc';
const COMPANY_ITEM = '2-company-';
const SEARCH_ITEM = '2-search-';
const FILINGS_ITEM = '3-filings-';
const OFFICERS_STREAM = 'officers';
const PSC_STREAM = 'persons-with-significant-control';
/** An appointment (or a PSC notified) longer ago than this is an old one changing (an address), not news. */
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
const WATCHED_COMPANY_IDS = watchedCompanyIds({ activeOnly: true }, { trustedNamesOnly: false });

type SourceConfig = Pick<
  CompaniesHouseConfig,
  | 'COMPANIES_HOUSE_API_KEY'
  | 'COMPANIES_HOUSE_STREAM_KEY'
  | 'COMPANIES_HOUSE_STREAM_READ_SECONDS'
  | 'COMPANIES_HOUSE_STREAM_MAX_EVENTS'
  | 'COMPANIES_HOUSE_FILINGS_INTERVAL'
  | 'COMPANIES_HOUSE_GBP_USD_RATE'
>;

/**
 * The `companies-house` source (docs/sources/companies-house.md): UK Companies House. Each run reads the
 * officers and PSC streams for a bounded time from the timepoints they stopped at, keeping the
 * new appointments of directors and LLP members (resignations recorded) and the new corporate
 * owners of more than 75 %; each company number among them is looked up once and matched to a
 * stored company ({@link CompaniesHouseCompanies}); appointments at matched companies become
 * `new_decision_makers` and `job_change` events with the officer as a person (the job before
 * from their appointment list), takeovers `mergers_acquisitions` events of the company bought
 * and of a known buyer; the others are dropped. Each matched company's capital filings are read daily: its share allotments (SH01)
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
    // Both streams are read first: the companies they find are listed after them.
    if (after === null && this.config.COMPANIES_HOUSE_STREAM_KEY)
      return { items: [STREAM_ITEM, PSC_STREAM_ITEM], next: PSC_STREAM_ITEM };
    const listed = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM (
         SELECT $2 || n AS key FROM (
           SELECT company_number AS n FROM companies_house_appointments WHERE status = 'pending'
           UNION SELECT company_number FROM companies_house_controls WHERE status = 'pending') pending
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
    if (item === PSC_STREAM_ITEM) return this.readPscStream(progress);
    if (item.startsWith(COMPANY_ITEM)) return this.matchCompany(item.slice(COMPANY_ITEM.length));
    if (item.startsWith(SEARCH_ITEM)) return this.searchWatched(item.slice(SEARCH_ITEM.length));
    if (item.startsWith(FILINGS_ITEM)) return this.readLinkedCompany(item.slice(FILINGS_ITEM.length));
    return { records: 0 };
  }

  /** The officers stream: new decision makers kept for matching, resignations at linked companies recorded. */
  private async readOfficersStream(progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    let appointments: OfficerAppointment[] = [];
    let resignations: OfficerAppointment[] = [];
    return this.readStream(
      OFFICERS_STREAM,
      officersStreamUrl,
      parseStreamLine,
      (event) => {
        if (this.isNewDecisionMaker(event)) appointments.push(event);
        else if (event.type === 'changed' && event.resignedOn) resignations.push(event);
      },
      async () => {
        await this.keepAppointments(appointments);
        await this.recordResignations(resignations);
        appointments = [];
        resignations = [];
      },
      progress,
    );
  }

  /** The persons-with-significant-control stream: each new corporate owner of more than 75 % kept for matching. */
  private async readPscStream(progress?: (detail: unknown) => void): Promise<SourceItemResult> {
    let takeovers: ControlNotice[] = [];
    return this.readStream(
      PSC_STREAM,
      pscStreamUrl,
      parsePscLine,
      (notice) => {
        if (isTakeover(notice) && isRecent(notice.notifiedOn)) takeovers.push(notice);
      },
      async () => {
        await this.keepTakeovers(takeovers);
        takeovers = [];
      },
      progress,
    );
  }

  /**
   * A stream from its stored timepoint, for COMPANIES_HOUSE_STREAM_READ_SECONDS or
   * COMPANIES_HOUSE_STREAM_MAX_EVENTS events, whichever comes first, or until Companies House
   * closes it (its nightly disconnect): the next run resumes from the last timepoint received.
   * The timepoint is saved only after what was read up to it is kept, so a killed read
   * reads it again rather than missing it (ids make the second read change nothing).
   */
  private async readStream<T extends { timepoint: number }>(
    stream: string,
    urlOf: (timepoint: number | null) => string,
    parse: (line: string) => T | { problem: string; timepoint: number | null } | null,
    take: (event: T) => void,
    keep: () => Promise<void>,
    progress?: (detail: unknown) => void,
  ): Promise<SourceItemResult> {
    const stored = await firstRow<{ timepoint: string | null }>(
      this.db,
      `SELECT timepoint FROM companies_house_streams WHERE stream = $1`,
      [stream],
    );
    const from = stored?.timepoint == null ? null : Number(stored.timepoint);
    const url = urlOf(from);
    const target = this.fetcher.targetOf(url);
    const wait = await this.pacing.claim(new URL(url).host, this.fetcher.intervalOf(new URL(url).host));
    if (wait > 0) await sleep(wait);

    let last = from;
    let events = 0;
    let problems = 0;
    const save = async () => {
      await keep();
      if (last !== null && last !== from) {
        await execute(
          this.db,
          `INSERT INTO companies_house_streams (stream, timepoint) VALUES ($1, $2)
           ON CONFLICT (stream) DO UPDATE SET timepoint = $2, updated_at = now()`,
          [stream, last],
        );
      }
      progress?.({ stream, timepoint: last, events });
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
        const event = parse(line);
        if (event === null) {
          progress?.({ stream, timepoint: last, events });
          return true;
        }
        // Resumed from the last timepoint received: that event comes again and is skipped.
        if (event.timepoint !== null && from !== null && event.timepoint <= from) return true;
        events++;
        if (event.timepoint !== null) last = event.timepoint;
        if ('problem' in event) problems++;
        else take(event);
        if (events % STREAM_BATCH === 0) await save();
        return events < this.config.COMPANIES_HOUSE_STREAM_MAX_EVENTS;
      },
    });
    await save();
    if (end.status === 'refused') return this.streamRefused(stream, url, from, end.statusCode, end.retryAfter);
    if (end.status === 'failed') return { records: 0, error: `${stream} stream: ${end.error}` };
    return problems ? { records: 0, error: `${stream} stream: ${problems} event(s) not understood` } : { records: 0 };
  }

  private async streamRefused(
    stream: string,
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
        [stream],
      );
      return {
        records: 0,
        error: `${stream} stream: timepoint ${from} is too old (416); the next read starts from now`,
      };
    }
    if (statusCode === 401)
      return { records: 0, error: `${stream} stream: ${host} answered 401: COMPANIES_HOUSE_STREAM_KEY was refused` };
    return { records: 0, error: `${stream} stream: ${host} answered ${statusCode}` };
  }

  /** A director or LLP member appointed lately and not resigned: a person, not a company (`corporate-*` roles are not kept). */
  private isNewDecisionMaker(event: OfficerAppointment): boolean {
    if (event.type !== 'changed' || event.resignedOn || !event.appointedOn) return false;
    if (!DECISION_MAKER_ROLES[event.officerRole]) return false;
    return isRecent(event.appointedOn);
  }

  /**
   * Resignations are recorded, never a lead: only at companies the store knows (the register's
   * every resignation is no business of ours), once per appointment.
   */
  private async recordResignations(resignations: OfficerAppointment[]): Promise<void> {
    if (resignations.length === 0) return;
    await execute(
      this.db,
      `INSERT INTO companies_house_resignations (appointment_id, company_number, name, officer_role, appointed_on, resigned_on)
       SELECT r.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::date[], $6::date[])
         AS r(appointment_id, company_number, name, officer_role, appointed_on, resigned_on)
       WHERE EXISTS (SELECT 1 FROM companies_house_companies h
                     WHERE h.company_number = r.company_number AND h.company_id IS NOT NULL)
       ON CONFLICT (appointment_id) DO NOTHING`,
      [
        resignations.map((a) => a.appointmentId),
        resignations.map((a) => a.companyNumber),
        resignations.map((a) => a.name),
        resignations.map((a) => a.officerRole),
        resignations.map((a) => a.appointedOn),
        resignations.map((a) => a.resignedOn),
      ],
    );
  }

  private async keepTakeovers(notices: ControlNotice[]): Promise<void> {
    if (notices.length === 0) return;
    await execute(
      this.db,
      `INSERT INTO companies_house_controls (psc_id, company_number, acquirer_number, timepoint, notice)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[])
       ON CONFLICT (psc_id) DO NOTHING`,
      [
        notices.map((n) => n.pscId),
        notices.map((n) => n.companyNumber),
        notices.map((n) => n.registrationNumber),
        notices.map((n) => n.timepoint),
        notices.map((n) => JSON.stringify(n)),
      ],
    );
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
   * A company number's pending appointments and takeovers: the number is looked up (its profile)
   * unless it was matched before or found to be none lately, then its appointments are ingested
   * or dropped, and its takeovers become deals of the company bought, of a known buyer, or none.
   */
  private async matchCompany(number: string): Promise<SourceItemResult> {
    const match = await this.matchNumber(number);
    if ('retry' in match) return { records: 0, error: match.retry };
    const appointments = match.companyId
      ? await this.ingestAppointments(number, match.companyId)
      : await this.settleAppointments(number, 'dropped', match.error);
    const deals = await this.ingestTakeovers(number, match.companyId);
    const error = appointments.error ?? deals.error;
    const dropped = (appointments.dropped ?? 0) + (deals.dropped ?? 0);
    const records = appointments.records + deals.records;
    return error ? { records, dropped, error } : { records, dropped };
  }

  /** The stored company a number is, or none (with the problem that made it none); `retry` leaves its records pending. */
  private async matchNumber(
    number: string,
  ): Promise<{ companyId: string | null; error: string | null } | { retry: string }> {
    let linked = await this.companies.linked(number);
    if (!linked?.companyId && (!linked || linked.checkedAt.getTime() < Date.now() - UNMATCHED_RECHECK_MS)) {
      const answer = await this.get(companyProfileUrl(number));
      if (answer.status === 'failed' && answer.statusCode === 404) {
        await this.companies.unknown(number);
      } else if (answer.status !== 'ok') {
        return { retry: `company ${number}: ${answer.status === 'failed' ? answer.error : 'no profile'}` };
      } else {
        const parsed = parseCompanyProfile(answer.body);
        if ('problem' in parsed) return { companyId: null, error: `company ${number}: ${parsed.problem}` };
        const match = await this.companies.resolve(parsed.profile);
        if (match.record) {
          const result = await this.ingestion.ingest([match.record]);
          if (result.errors[0]) return { companyId: null, error: `company ${number}: ${result.errors[0].message}` };
        }
        await this.companies.link(parsed.profile, match);
      }
      linked = await this.companies.linked(number);
    }
    return { companyId: linked?.companyId ?? null, error: null };
  }

  /**
   * Each pending appointment at a matched company: the officer as a person of the company
   * (one person per normalised name there: docs/decisions/people-records.md), a
   * `new_decision_makers` event, and a `job_change` event whose previous job comes from the
   * officer's own appointment list. The lists are read before anything is stored, so a 429
   * retried reads them again and stores each event once.
   */
  private async ingestAppointments(number: string, companyId: string): Promise<SourceItemResult> {
    const pending = await rows<{ appointment: OfficerAppointment }>(
      this.db,
      `SELECT appointment FROM companies_house_appointments WHERE company_number = $1 AND status = 'pending'
       ORDER BY timepoint`,
      [number],
    );
    const company = await firstRow<{ name: string }>(this.db, `SELECT name FROM companies WHERE id = $1`, [companyId]);
    const careers: (CareerAppointment | null)[] = [];
    const problems: string[] = [];
    for (const { appointment } of pending) {
      const career = await this.careerOf(appointment);
      if ('problem' in career) problems.push(career.problem);
      careers.push('problem' in career ? null : previousAppointment(career.appointments, appointment));
    }
    const present = await rows<{ id: string; name: string }>(
      this.db,
      `SELECT id, lower(first_name || ' ' || last_name) AS name FROM people WHERE company_id = $1`,
      [companyId],
    );
    const known = new Map(present.map((row) => [row.name, row.id]));
    const records: IngestRecordInput[] = [];
    const eventIds: string[] = [];
    pending.forEach(({ appointment }, i) => {
      const person = officerPerson(appointment, companyId);
      const name = `${person.firstName} ${person.lastName}`.toLowerCase();
      const existing = known.get(name);
      if (!existing) {
        records.push(person);
        // A second appointment of the same person (another role) names the same person.
        known.set(name, person.id);
      }
      const personId = existing ?? person.id;
      const events = [
        decisionMakerEvent(appointment, companyId, personId),
        jobChangeEvent(appointment, companyId, personId, company?.name ?? '', careers[i] ?? null),
      ];
      records.push(...events);
      eventIds.push(...events.map((e) => e.id));
    });
    const stored = await rows<{ id: string }>(this.db, `SELECT id FROM events WHERE id = ANY($1::text[])`, [eventIds]);
    const result = await this.ingestion.ingest(records);
    const error = result.errors[0] ? `company ${number}: ${result.errors[0].message}` : (problems[0] ?? null);
    const refused = result.errors.filter((e) => (records[e.line - 1] as { kind: string }).kind === 'event').length;
    const settled = await this.settleAppointments(number, 'ingested', error);
    return { ...settled, records: Math.max(0, eventIds.length - stored.length - refused) };
  }

  /**
   * The officer's own appointments, page by page (`start_index` up to `total_results`, at most
   * MAX_OFFICER_PAGES pages). No link, or a 404, is a career not known (no previous job); a
   * malformed page is a problem named in the status, and the job change is kept without it.
   */
  private async careerOf(
    appointment: OfficerAppointment,
  ): Promise<{ appointments: CareerAppointment[] } | { problem: string }> {
    const path = appointment.appointmentsPath;
    if (!path) return { appointments: [] };
    const appointments: CareerAppointment[] = [];
    for (let page = 0, start = 0; page < MAX_OFFICER_PAGES; page++) {
      const answer = await this.get(officerAppointmentsUrl(path, start));
      if (answer.status === 'failed' && answer.statusCode === 404) break;
      if (answer.status !== 'ok')
        return { problem: `appointments of ${path}: ${answer.status === 'failed' ? answer.error : 'no answer'}` };
      const parsed = parseAppointmentList(answer.body);
      if ('problem' in parsed) return { problem: `appointments of ${path}: ${parsed.problem}` };
      appointments.push(...parsed.items);
      // The next page starts after what this one held (a server may give fewer than asked).
      const read = parsed.items.length + parsed.skipped;
      start += read;
      if (read === 0 || parsed.total === null || start >= parsed.total) break;
    }
    return { appointments };
  }

  /**
   * A number's pending takeovers: the company bought gets an `acquiree` deal when the store
   * knows it; the buyer an `acquirer` deal when its registration number is a company the store
   * knows. Neither known: dropped.
   */
  private async ingestTakeovers(number: string, companyId: string | null): Promise<SourceItemResult> {
    const pending = await rows<{ notice: ControlNotice; acquirer_id: string | null }>(
      this.db,
      `SELECT c.notice, h.company_id AS acquirer_id FROM companies_house_controls c
       LEFT JOIN companies_house_companies h ON h.company_number = c.acquirer_number
       WHERE c.company_number = $1 AND c.status = 'pending' ORDER BY c.timepoint`,
      [number],
    );
    if (pending.length === 0) return { records: 0 };
    const names = await firstRow<{ registered_name: string | null; name: string | null }>(
      this.db,
      `SELECT h.registered_name, c.name FROM companies_house_companies h LEFT JOIN companies c ON c.id = h.company_id
       WHERE h.company_number = $1`,
      [number],
    );
    const target = names?.name ?? (names?.registered_name ? titleCase(names.registered_name) : `company ${number}`);
    const events: EventRecordInput[] = [];
    let dropped = 0;
    for (const { notice, acquirer_id } of pending) {
      const deal = takeoverEvents(notice, target, companyId, acquirer_id);
      if (deal.length === 0) dropped++;
      events.push(...deal);
    }
    const ids = events.map((e) => e.id!);
    const stored = await rows<{ id: string }>(this.db, `SELECT id FROM events WHERE id = ANY($1::text[])`, [ids]);
    const result = events.length ? await this.ingestion.ingest(events) : { errors: [] };
    await execute(
      this.db,
      `UPDATE companies_house_controls SET status = CASE WHEN $2 THEN 'ingested' ELSE 'dropped' END, settled_at = now()
       WHERE company_number = $1 AND status = 'pending'`,
      [number, events.length > 0],
    );
    const records = Math.max(0, ids.length - stored.length - result.errors.length);
    return result.errors[0]
      ? { records, dropped, error: `takeover of ${number}: ${result.errors[0].message}` }
      : { records, dropped };
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

  /**
   * A linked company's daily read: its capital filings and, when the officers stream is not read
   * (no stream key), its officer list, whose new appointments and resignations are the stream's.
   */
  private async readLinkedCompany(number: string): Promise<SourceItemResult> {
    const filings = await this.readCapitalFilings(number);
    if (this.config.COMPANIES_HOUSE_STREAM_KEY) return filings;
    const officers = await this.readOfficerList(number);
    const error = filings.error ?? officers.error;
    const records = filings.records + officers.records;
    const dropped = (filings.dropped ?? 0) + (officers.dropped ?? 0);
    return error ? { records, dropped, error } : { records, dropped };
  }

  /**
   * A linked company's officer list (`GET /company/{n}/officers`, page by page up to
   * `total_results`, at most MAX_OFFICER_PAGES pages): its directors appointed lately become
   * pending appointments and are ingested as the stream's are; its recent resignations are
   * recorded. An item with a `null` name is skipped alone; a 404 is no officers.
   */
  private async readOfficerList(number: string): Promise<SourceItemResult> {
    const linked = await this.companies.linked(number);
    if (!linked?.companyId) return { records: 0 };
    const fresh: OfficerAppointment[] = [];
    const resigned: OfficerAppointment[] = [];
    for (let page = 0, start = 0; page < MAX_OFFICER_PAGES; page++) {
      const answer = await this.get(companyOfficersUrl(number, start));
      if (answer.status === 'failed' && answer.statusCode === 404) break;
      if (answer.status !== 'ok')
        return {
          records: 0,
          error: `officers of ${number}: ${answer.status === 'failed' ? answer.error : 'no answer'}`,
        };
      const parsed = parseOfficerList(answer.body, number);
      if ('problem' in parsed) return { records: 0, error: `officers of ${number}: ${parsed.problem}` };
      for (const item of parsed.items) {
        const appointment = { ...item, timepoint: 0 };
        if (this.isNewDecisionMaker(appointment)) fresh.push(appointment);
        else if (isRecent(appointment.resignedOn)) resigned.push(appointment);
      }
      const read = parsed.items.length + parsed.skipped;
      start += read;
      if (read === 0 || parsed.total === null || start >= parsed.total) break;
    }
    await this.keepAppointments(fresh);
    await this.recordResignations(resigned);
    return this.ingestAppointments(number, linked.companyId);
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
    title: appointmentTitle(appointment.occupation, appointment.officerRole),
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

/**
 * The appointment as a job change: the title its occupation (else its role), the job before it
 * the officer's latest other appointment still running or ended within the year before.
 */
function jobChangeEvent(
  appointment: OfficerAppointment,
  companyId: string,
  personId: string,
  companyName: string,
  previous: CareerAppointment | null,
): EventRecordInput {
  const month = appointment.appointedOn!.slice(0, 7);
  return {
    kind: 'event',
    id: `companies-house:job-change:${appointment.appointmentId}`.slice(0, 200),
    type: 'job_change',
    occurredAt: `${appointment.appointedOn}T00:00:00Z`,
    companyId,
    personId,
    data: {
      previous_title: previous ? appointmentTitle(previous.occupation, previous.officerRole) : '',
      previous_company: previous ? titleCase(previous.companyName) : '',
      new_title: appointmentTitle(appointment.occupation, appointment.officerRole),
      new_company: companyName,
      new_job_started_on: `${month.slice(5, 7)}/${month.slice(0, 4)}`,
      new_job_start_month: month,
      // A board seat at this company is a new employer whether or not the one before is known.
      change_type: 'company',
    },
  };
}

/**
 * A takeover's deals: `acquiree` on the company bought when it is stored, `acquirer` on the
 * buyer when its registration number is a stored company. The lead carries the buyer and the
 * company in `news_headline` and the register's page in `news_url` (the deal fields have no
 * place for them); the notice itself stays in `companies_house_controls`.
 */
function takeoverEvents(
  notice: ControlNotice,
  target: string,
  acquireeId: string | null,
  acquirerId: string | null,
): EventRecordInput[] {
  const buyer = titleCase(notice.name);
  const numbered = notice.registrationNumber ? `${buyer} (${notice.registrationNumber})` : buyer;
  const data = (role: 'acquiree' | 'acquirer') => ({
    deal_type: 'Acquisition',
    watchlist_role: role,
    announcement_date: notice.notifiedOn!,
    news_headline: `${numbered} took control of ${target} (more than 75% of shares or votes)`.slice(0, 500),
    news_url: pscRegisterPageUrl(notice.companyNumber),
  });
  const event = (role: 'acquiree' | 'acquirer', companyId: string, suffix: string): EventRecordInput => ({
    kind: 'event',
    id: `companies-house:psc:${notice.pscId}${suffix}`.slice(0, 200),
    type: 'mergers_acquisitions',
    occurredAt: `${notice.notifiedOn}T00:00:00Z`,
    companyId,
    data: data(role),
  });
  const events: EventRecordInput[] = [];
  if (acquireeId) events.push(event('acquiree', acquireeId, ''));
  // A company taking control of itself is no deal for its watchers twice.
  if (acquirerId && acquirerId !== acquireeId) events.push(event('acquirer', acquirerId, ':acquirer'));
  return events;
}

/** A day within the last NEW_APPOINTMENT_DAYS. */
function isRecent(day: string | null): boolean {
  return !!day && Date.parse(`${day}T00:00:00Z`) >= Date.now() - NEW_APPOINTMENT_DAYS * DAY_MS;
}
