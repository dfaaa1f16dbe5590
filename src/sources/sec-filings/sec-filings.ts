import { EdgarRunItems } from '../kit/edgar/run-items';
import type { DataSource } from 'typeorm';
import type { SecFilingsConfig } from './settings';
import { CURRENT_FEED_PAGE_SIZE, filingFolderUrl, parseEdgarDailyIndex, type ListedFiling } from '../kit/edgar/filings';
import { edgarGet } from '../kit/edgar/fair-access';
import { SecIssuers, type EdgarIssuer, type IssuerCompany } from '../kit/edgar/issuers';
import type { EventRecordInput, PersonRecordInput, CompanyRecordInput } from '../../providers/data/records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { DocumentThreads } from '../kit/document-threads';
import type { IntentSource } from '../kit/intent-source';
import type { FetchAnswer, PoliteFetch } from '../kit/polite-fetch';
import { slug, titleCase } from '../kit/record-names';
import { execute, firstRow } from '../../db/sql';
import { nameKeyOf } from '../../catalogue/identifiers';
import { nameOnlyEntries, watchedCompanyIds } from '../../signal-types/watched-companies';
import { ownerNameParts, type OwnershipReport, type ReportingOwner } from './ownership';
import type { FilingHeader, HeaderParty } from './filing-header';
import { itemSection, statedAppointments, statedDeal, type StatedDeal } from './current-report';

/** The forms this source reads, each with its current feed's `type` (a prefix EDGAR matches) and `owner` choice. */
const FEEDS: readonly { form: string; owner: 'only' | 'include' }[] = [
  { form: '3', owner: 'only' },
  { form: '8-K', owner: 'include' },
  { form: 'SC TO-T', owner: 'include' },
  { form: 'SC 14D9', owner: 'include' },
  { form: 'DEFM14A', owner: 'include' },
  { form: 'S-4', owner: 'include' },
  { form: '425', owner: 'include' },
];
const FORMS: ReadonlySet<string> = new Set(FEEDS.map((feed) => feed.form));
/** 8-K items this source reads: deals (1.01, 2.01) and officers (5.02). */
const READ_ITEMS = ['1.01', '2.01', '5.02'] as const;

/** EDGAR's latest filings of one form type, newest first, as Atom: one page from `start`. */
export function currentFeedUrl(form: string, owner: 'only' | 'include', start: number): string {
  return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=${encodeURIComponent(form)}&company=&dateb=&owner=${owner}&start=${start}&count=${CURRENT_FEED_PAGE_SIZE}&output=atom`;
}

/** An owner's own Form 3 filings, newest first (EDGAR's company browse feed). */
export function ownerFilingsUrl(ownerCik: string, start: number): string {
  return `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${ownerCik}&type=3&dateb=&owner=include&start=${start}&count=${OWNER_PAGE_SIZE}&output=atom`;
}
const OWNER_PAGE_SIZE = 40;
/** Earlier Form 3s of an owner read at most to find a previous company. */
const OWNER_FILINGS_READ = 3;

/** A filing's complete submission (header and every document), as the daily index's File Name gives it. */
const submissionUrl = (cik: string, accession: string) =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession}.txt`;
const headerUrl = (cik: string, accession: string) => `${filingFolderUrl(cik, accession)}/${accession}.hdr.sgml`;
/** The filing's page on EDGAR, which a lead links to. */
export const filingIndexUrl = (cik: string, accession: string) =>
  `${filingFolderUrl(cik, accession)}/${accession}-index.htm`;

/** Officer titles filers abbreviate, as the personas name them. */
const TITLE_WORDS: Readonly<Record<string, string>> = {
  CEO: 'Chief Executive Officer',
  CFO: 'Chief Financial Officer',
  COO: 'Chief Operating Officer',
  CTO: 'Chief Technology Officer',
  CIO: 'Chief Information Officer',
  CMO: 'Chief Marketing Officer',
  CRO: 'Chief Revenue Officer',
  CAO: 'Chief Accounting Officer',
  CLO: 'Chief Legal Officer',
  CHRO: 'Chief Human Resources Officer',
  GC: 'General Counsel',
  EVP: 'Executive Vice President',
  SVP: 'Senior Vice President',
  VP: 'Vice President',
};

/** A Form 3 is kept under its issuer's listing where the feed says which (every party's folder holds the filing). */
const keptUnderIssuer = (candidate: ListedFiling, kept: ListedFiling) =>
  candidate.role === 'Issuer' && kept.role !== 'Issuer';

interface FilingRow {
  accession: string;
  cik: string;
  form: string;
  filed_on: string;
  status: string;
}

interface Reading {
  records: (CompanyRecordInput | PersonRecordInput | EventRecordInput)[];
  dealParties: Map<string, string>;
  links: { issuer: EdgarIssuer; match: IssuerCompany }[];
}

/**
 * The `sec-filings` source: officers, directors and deals from SEC EDGAR. Each run reads the
 * current-filings feeds of Forms 3, 8-K, SC TO-T, SC 14D9, DEFM14A, S-4 and 425 and lists the
 * filings it has not seen; a backfill lists those of the daily form indexes of recent days.
 * Each listed filing is then read once (docs/sources/sec-filings.md):
 *  - Form 3: each reporting owner who is a director or an officer becomes a person at the
 *    issuer, with a `job_change` event (previous company from the owner's own earlier Form 3),
 *    and a `new_decision_makers` event when the issuer is watched;
 *  - 8-K of a watched issuer: Item 5.02 appointments stated in the text's patterns become
 *    `new_decision_makers` events (else a `company_news` leadership change), Items 1.01 (with a
 *    merger agreement) and 2.01 `mergers_acquisitions` events;
 *  - tender offers and business combinations: `mergers_acquisitions` events at the parties the
 *    header names, the subject company the acquiree.
 */
export class SecFilings implements IntentSource {
  readonly name = 'sec-filings';
  private readonly issuers: SecIssuers;
  private readonly runItems: EdgarRunItems;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: Pick<
      SecFilingsConfig,
      'SEC_FILINGS_BACKFILL_DAYS' | 'SEC_FILINGS_FEED_PAGES' | 'SEC_FILINGS_OWNER_PAGES'
    >,
    private readonly documents: DocumentThreads,
  ) {
    this.issuers = new SecIssuers(db);
    this.runItems = new EdgarRunItems(db, { indexDays: 'sec_filings_index_days', filings: 'sec_filings' });
  }

  /** The daily indexes of the last SEC_FILINGS_BACKFILL_DAYS days (UTC) before today, read by the next run. */
  async backfill(): Promise<void> {
    await this.runItems.backfill(this.config.SEC_FILINGS_BACKFILL_DAYS);
  }

  /** What the status says of it: the forms it reads and how many filings are read and to read. */
  async detail(): Promise<string> {
    const counts = await firstRow<{ ingested: number; pending: number }>(
      this.db,
      `SELECT count(*) FILTER (WHERE status = 'ingested')::int AS ingested,
              count(*) FILTER (WHERE status = 'pending')::int AS pending
       FROM sec_filings`,
    );
    return `reads EDGAR's Forms ${[...FORMS].join(', ')}: ${counts?.ingested ?? 0} filings ingested, ${counts?.pending ?? 0} to read`;
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    return this.runItems.page(after);
  }

  async sync(item: string): Promise<SourceItemResult> {
    return this.runItems.sync(item, {
      currentFeed: () => this.readCurrentFeeds(),
      dailyIndex: (day) =>
        this.runItems.readDailyIndex(
          day,
          (url, accept) => this.get(url, accept),
          (text) => parseEdgarDailyIndex(text, FORMS),
          keptUnderIssuer,
        ),
      filing: (accession) => this.readFiling(accession),
    });
  }

  /**
   * Each form's newest filings, a page of 100 at a time, until a page reaches a filing listed
   * before (or SEC_FILINGS_FEED_PAGES pages). A feed that fails is reported and the others are
   * still listed; a 429 retries the whole item, which lists nothing twice.
   */
  private async readCurrentFeeds(): Promise<SourceItemResult> {
    const errors: string[] = [];
    for (const feed of FEEDS) {
      const found: ListedFiling[] = [];
      for (let page = 0; page < this.config.SEC_FILINGS_FEED_PAGES; page++) {
        const start = page * CURRENT_FEED_PAGE_SIZE;
        const answer = await this.get(currentFeedUrl(feed.form, feed.owner, start), 'application/atom+xml');
        if (answer.status === 'not-modified') break;
        const where = `current ${feed.form} feed (start=${start})`;
        if (answer.status === 'failed') {
          errors.push(`${where}: ${answer.error}`);
          break;
        }
        const read = await this.documents.read('edgarFeed', answer.body, [feed.form]);
        if ('problem' in read) {
          errors.push(`${where}: ${read.problem}`);
          break;
        }
        found.push(...read.entries);
        if (read.listed < CURRENT_FEED_PAGE_SIZE || (await this.runItems.anyListed(read.entries))) break;
      }
      await this.runItems.list(found, keptUnderIssuer);
    }
    return errors.length ? { records: 0, error: errors.join('; ') } : { records: 0 };
  }

  private async readFiling(accession: string): Promise<SourceItemResult> {
    const filing = await firstRow<FilingRow>(
      this.db,
      `SELECT accession, cik, form, to_char(filed_on, 'YYYY-MM-DD') AS filed_on, status
       FROM sec_filings WHERE accession = $1`,
      [accession],
    );
    if (!filing || filing.status !== 'pending') return { records: 0 };
    if (filing.form === '3') return this.readOwnershipReport(filing);
    if (filing.form === '8-K') return this.readCurrentReport(filing);
    return this.readDealFiling(filing);
  }

  /** A document of the filing: a failure to settle (404) or to retry (any other), or its text. */
  private async document(
    filing: FilingRow,
    url: string,
    what: string,
  ): Promise<{ body: string } | { result: Promise<SourceItemResult> | SourceItemResult }> {
    const answer = await this.get(url, 'text/plain');
    if (answer.status === 'not-modified') return { result: { records: 0 } };
    if (answer.status === 'failed') {
      const error = `Form ${filing.form} ${filing.accession}: ${what}: ${answer.error}`;
      return { result: answer.statusCode === 404 ? this.settle(filing, 'failed', error) : { records: 0, error } };
    }
    return { body: answer.body };
  }

  /** A Form 3: its directors and officers as people starting at the issuer (see the class). */
  private async readOwnershipReport(filing: FilingRow): Promise<SourceItemResult> {
    const label = `Form 3 ${filing.accession}`;
    const fetched = await this.document(filing, submissionUrl(filing.cik, filing.accession), 'the submission');
    if ('result' in fetched) return fetched.result;
    const parsed = await this.documents.read('secOwnership', fetched.body);
    if ('problem' in parsed) return this.settle(filing, 'failed', `${label}: ${parsed.problem}`);
    const report = parsed.report;
    if (report.documentType !== '3')
      return this.settle(filing, 'skipped', null, `document type ${report.documentType}`);
    const insiders = report.owners.filter((owner) => owner.isDirector || owner.isOfficer);
    if (insiders.length === 0)
      return this.settle(filing, 'skipped', null, 'no director or officer (a ten percent owner only is no job change)');
    const issuer: EdgarIssuer = {
      cik: report.issuer.cik,
      name: report.issuer.name,
      city: null,
      stateOrCountry: null,
      entityType: null,
      yearOfIncorporation: null,
    };
    const match = await this.issuers.resolve(issuer, null);
    const watched = await this.isWatched(match, report.issuer.name);
    const reading: Reading = { records: match.record ? [match.record] : [], dealParties: new Map(), links: [] };
    reading.links.push({ issuer, match });
    const day = report.periodOfReport ?? filing.filed_on;
    for (const owner of insiders) {
      const name = ownerNameParts(owner.name);
      if (!name) continue;
      const previous = await this.previousRole(owner, report, filing);
      const person = ownerPerson(owner, name, match.companyId, report.issuer.cik, day);
      person.id = (await this.samePerson(match.companyId, person)) ?? person.id;
      reading.records.push(person, jobChangeEvent(filing, owner, person, report, day, previous));
      if (watched)
        reading.records.push(
          decisionMakerEvent(`sec-form-3:${filing.accession}:${owner.cik}:decision-maker`, person, day, filing),
        );
    }
    return this.ingestReading(filing, label, reading, reading.records.length ? null : 'no owner named as a person');
  }

  /**
   * The owner's role before this one: the issuer of their newest earlier Form 3 (by filing date,
   * then accession) that is another company, and the title they held there. Their filing list
   * is read a page of 40 at a time (SEC_FILINGS_OWNER_PAGES at most), and at most three earlier
   * filings are opened. None found (or the list missing: 404) is no previous role.
   */
  private async previousRole(
    owner: ReportingOwner,
    report: OwnershipReport,
    filing: FilingRow,
  ): Promise<{ company: string; title: string } | null> {
    let opened = 0;
    for (let page = 0; page < this.config.SEC_FILINGS_OWNER_PAGES; page++) {
      const answer = await this.get(ownerFilingsUrl(owner.cik, page * OWNER_PAGE_SIZE), 'application/atom+xml');
      if (answer.status !== 'ok') return null;
      const listed = await this.documents.read('secOwnerFilings', answer.body);
      if ('problem' in listed) return null;
      const earlier = listed.filings.filter(
        (other) =>
          (other.form === '3' || other.form === '3/A') &&
          other.accession !== filing.accession &&
          (other.filedOn < filing.filed_on ||
            (other.filedOn === filing.filed_on && other.accession < filing.accession)),
      );
      for (const other of earlier) {
        if (opened++ >= OWNER_FILINGS_READ) return null;
        const document = await this.get(submissionUrl(owner.cik, other.accession), 'text/plain');
        if (document.status !== 'ok') continue;
        const read = await this.documents.read('secOwnership', document.body);
        if ('problem' in read || read.report.issuer.cik === report.issuer.cik) continue;
        const role = read.report.owners.find((o) => o.cik === owner.cik);
        return { company: read.report.issuer.name, title: role ? titleOf(role) : '' };
      }
      if (listed.listed < OWNER_PAGE_SIZE) return null;
    }
    return null;
  }

  /** An 8-K: read only for a watched issuer and the items this source reads (see the class). */
  private async readCurrentReport(filing: FilingRow): Promise<SourceItemResult> {
    const label = `Form 8-K ${filing.accession}`;
    const fetched = await this.document(filing, headerUrl(filing.cik, filing.accession), 'the header');
    if ('result' in fetched) return fetched.result;
    const parsed = await this.documents.read('secFilingHeader', fetched.body);
    if ('problem' in parsed) return this.settle(filing, 'failed', `${label}: header: ${parsed.problem}`);
    const header = parsed.header;
    const items = READ_ITEMS.filter((item) => header.items.includes(item));
    await execute(this.db, `UPDATE sec_filings SET items = $2::text[] WHERE accession = $1`, [
      filing.accession,
      header.items,
    ]);
    if (items.length === 0) return this.settle(filing, 'skipped', null, 'no item 1.01, 2.01 or 5.02');
    const filer = header.parties.find((party) => party.role === 'filer' || party.role === 'subject');
    if (!filer) return this.settle(filing, 'failed', `${label}: header: no filer`);
    const issuer = edgarIssuerOf(filer);
    const match = await this.issuers.resolve(issuer, null);
    if (!(await this.isWatched(match, filer.name)))
      return this.settle(filing, 'skipped', null, 'the issuer is not watched');

    const text = await this.document(filing, submissionUrl(filing.cik, filing.accession), 'the submission');
    if ('result' in text) return text.result;
    const report = await this.documents.read('secCurrentReport', text.body);
    if ('problem' in report) return this.settle(filing, 'failed', `${label}: ${report.problem}`);
    if (report.text === null) return this.settle(filing, 'failed', `${label}: no 8-K document in the submission`);

    const reading: Reading = { records: match.record ? [match.record] : [], dealParties: new Map(), links: [] };
    reading.links.push({ issuer, match });
    const day = header.period ?? filing.filed_on;
    const url = filingIndexUrl(filing.cik, filing.accession);
    if (items.includes('5.02')) {
      const appointed = statedAppointments(itemSection(report.text, '5.02') ?? '');
      for (const person of appointed) {
        const record: PersonRecordInput = {
          kind: 'person',
          id: `sec-8k-${filer.cik}-${slug(person.firstName)}-${slug(person.lastName)}`.slice(0, 200),
          companyId: match.companyId,
          firstName: person.firstName,
          lastName: person.lastName,
          title: person.title,
          startedOn: day.slice(0, 7),
        };
        record.id = (await this.samePerson(match.companyId, record)) ?? record.id;
        reading.records.push(
          record,
          decisionMakerEvent(
            `sec-8k:${filing.accession}:${slug(person.firstName)}-${slug(person.lastName)}`,
            record,
            day,
            filing,
            url,
          ),
        );
      }
      // Nobody named in a pattern this source reads: the change is still news of the company.
      if (appointed.length === 0) reading.records.push(leadershipNews(filing, match.companyId, filer.name, day, url));
    }
    for (const item of ['1.01', '2.01'] as const) {
      if (!items.includes(item)) continue;
      const deal = statedDeal(report.text, item);
      if (!deal) continue;
      const event = dealEvent(
        `sec-deal:${filing.accession}:${filer.cik}`,
        match.companyId,
        filing.filed_on,
        deal.dealType,
        deal.role,
      );
      if (!reading.records.some((r) => r.kind === 'event' && r.id === event.id)) reading.records.push(event);
      if (deal.counterparty) reading.dealParties.set(event.id, deal.counterparty);
    }
    return this.ingestReading(filing, label, reading, null);
  }

  /**
   * A tender offer or business combination: `mergers_acquisitions` at the parties its header
   * names. SC TO-T: the subject company is the acquiree, the bidder (FILED BY) the acquirer;
   * SC 14D9: the subject company (the target) the acquiree; 425: the subject company the
   * acquiree and a different filer the acquirer (the filer alone: no side said); DEFM14A: the
   * filer (whose holders vote) the acquiree; S-4: the filer (who issues the deal's shares) the acquirer.
   */
  private async readDealFiling(filing: FilingRow): Promise<SourceItemResult> {
    const label = `Form ${filing.form} ${filing.accession}`;
    const fetched = await this.document(filing, headerUrl(filing.cik, filing.accession), 'the header');
    if ('result' in fetched) return fetched.result;
    const parsed = await this.documents.read('secFilingHeader', fetched.body);
    if ('problem' in parsed) return this.settle(filing, 'failed', `${label}: header: ${parsed.problem}`);
    const sides = dealSides(filing.form, parsed.header);
    if (sides.length === 0) return this.settle(filing, 'failed', `${label}: header: no party this form names`);
    const reading: Reading = { records: [], dealParties: new Map(), links: [] };
    const dealType = filing.form === 'SC TO-T' || filing.form === 'SC 14D9' ? 'Tender Offer' : 'Merger';
    for (const side of sides) {
      const issuer = edgarIssuerOf(side.party);
      const match = await this.issuers.resolve(issuer, null);
      if (match.record && !reading.records.some((r) => r.id === match.record!.id)) reading.records.push(match.record);
      reading.links.push({ issuer, match });
      const event = dealEvent(
        `sec-deal:${filing.accession}:${side.party.cik}`,
        match.companyId,
        filing.filed_on,
        dealType,
        side.role,
      );
      reading.records.push(event);
      if (side.counterparty) reading.dealParties.set(event.id, side.counterparty);
    }
    return this.ingestReading(filing, label, reading, null);
  }

  /** Stores what a filing gave and settles it; a refused event is the filing's failure. */
  private async ingestReading(
    filing: FilingRow,
    label: string,
    reading: Reading,
    skipped: string | null,
  ): Promise<SourceItemResult> {
    const events = reading.records.filter((r) => r.kind === 'event');
    if (events.length === 0) return this.settle(filing, 'skipped', null, skipped ?? 'nothing this source reads');
    const result = await this.ingestion.ingest(reading.records, { dealParties: reading.dealParties });
    const refused = result.errors.map((e) => `${label}: ${e.message}`);
    const eventLines = new Set(reading.records.flatMap((r, i) => (r.kind === 'event' ? [i + 1] : [])));
    // Every event refused: the filing failed; a person or one event of several refused is only reported.
    if (result.errors.filter((e) => eventLines.has(e.line)).length === events.length)
      return this.settle(filing, 'failed', refused.join('; '));
    for (const { issuer, match } of reading.links) await this.issuers.link(issuer, match);
    await execute(
      this.db,
      `UPDATE sec_filings SET status = 'ingested', events = $2::text[], problem = NULL, read_at = now() WHERE accession = $1`,
      [filing.accession, events.map((e) => e.id)],
    );
    return refused.length ? { records: result.accepted, error: refused.join('; ') } : { records: result.accepted };
  }

  /**
   * A person already at the company under the same first and last name (a Form D's officer,
   * another filing's owner): one person, whose id the new record takes (docs/sources/sec-filings.md).
   */
  private async samePerson(companyId: string, person: PersonRecordInput): Promise<string | null> {
    const known = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM people WHERE company_id = $1 AND lower(first_name) = lower($2) AND lower(last_name) = lower($3)
       ORDER BY ingested_at, id LIMIT 1`,
      [companyId, person.firstName, person.lastName],
    );
    return known?.id ?? null;
  }

  /** Whether any watchlist names the issuer's company (or, for one not stored yet, its name alone). */
  private async isWatched(match: IssuerCompany, name: string): Promise<boolean> {
    const watchers = { activeOnly: false } as const;
    if (!match.record) {
      const stored = await firstRow<{ id: string }>(
        this.db,
        `${watchedCompanyIds(watchers, { trustedNamesOnly: false, only: '$1' })} LIMIT 1`,
        [match.companyId],
      );
      if (stored) return true;
    }
    const named = await firstRow<{ id: string }>(
      this.db,
      `SELECT w.id FROM (${nameOnlyEntries(watchers)}) w WHERE w.name_key = $1 LIMIT 1`,
      [nameKeyOf(name)],
    );
    return Boolean(named);
  }

  private get(url: string, accept: string): Promise<FetchAnswer> {
    return edgarGet(this.fetcher, url, accept);
  }

  private async settle(
    filing: FilingRow,
    status: 'failed' | 'skipped',
    error: string | null,
    reason?: string,
  ): Promise<SourceItemResult> {
    await execute(this.db, `UPDATE sec_filings SET status = $2, problem = $3, read_at = now() WHERE accession = $1`, [
      filing.accession,
      status,
      error ?? reason ?? null,
    ]);
    return error ? { records: 0, error } : { records: 0 };
  }
}

function edgarIssuerOf(party: HeaderParty): EdgarIssuer {
  return {
    cik: party.cik,
    name: party.name,
    city: party.city,
    stateOrCountry: party.stateOrCountry,
    entityType: null,
    yearOfIncorporation: null,
  };
}

/** A bidder files through its acquisition vehicle too: the parent is the party whose name is no vehicle's. */
const VEHICLE = /\b(merger|acquisition|purchaser|sub|bidco|holdco)\b/i;

interface DealSide {
  party: HeaderParty;
  role: 'acquiree' | 'acquirer' | '';
  counterparty: string | null;
}

/** The deal's sides a header says, by form (see readDealFiling). */
export function dealSides(form: string, header: FilingHeader): DealSide[] {
  const subject = header.parties.find((p) => p.role === 'subject');
  const filers = header.parties.filter((p) => p.role === 'filed-by' || p.role === 'filer');
  const others = filers.filter((p) => p.cik !== subject?.cik);
  const bidder = others.find((p) => !VEHICLE.test(p.name)) ?? others[0];
  switch (form) {
    case 'SC TO-T':
    case '425':
      if (!subject) return [];
      if (!bidder) return [{ party: subject, role: form === '425' ? '' : 'acquiree', counterparty: null }];
      return [
        { party: subject, role: 'acquiree', counterparty: bidder.name },
        { party: bidder, role: 'acquirer', counterparty: subject.name },
      ];
    case 'SC 14D9':
      return subject ? [{ party: subject, role: 'acquiree', counterparty: bidder?.name ?? null }] : [];
    case 'DEFM14A': {
      const party = subject ?? filers[0];
      return party ? [{ party, role: 'acquiree', counterparty: null }] : [];
    }
    case 'S-4': {
      const party = filers[0] ?? subject;
      return party ? [{ party, role: 'acquirer', counterparty: null }] : [];
    }
    default:
      return [];
  }
}

/** The title a Form 3 states: `officerTitle` with its abbreviations spelt out, else "Director". */
function titleOf(owner: ReportingOwner): string {
  const stated = owner.officerTitle
    ?.split(/(\s+|[,&/]+)/)
    .map((word) => TITLE_WORDS[word.toUpperCase().replace(/\./g, '')] ?? word)
    .join('')
    .trim();
  if (stated) return stated.slice(0, 500);
  return owner.isDirector ? 'Director' : 'Officer';
}

function ownerPerson(
  owner: ReportingOwner,
  name: { firstName: string; lastName: string },
  companyId: string,
  issuerCik: string,
  day: string,
): PersonRecordInput {
  return {
    kind: 'person',
    id: `sec-owner-${owner.cik}-at-${issuerCik}`,
    companyId,
    firstName: titleCase(name.firstName),
    lastName: titleCase(name.lastName),
    title: titleOf(owner),
    city: owner.city ? titleCase(owner.city) : null,
    location: [owner.city && titleCase(owner.city), owner.stateOrCountry].filter(Boolean).join(', ') || null,
    startedOn: day.slice(0, 7),
  };
}

const slashMonth = (day: string) => `${day.slice(5, 7)}/${day.slice(0, 4)}`;

function jobChangeEvent(
  filing: FilingRow,
  owner: ReportingOwner,
  person: PersonRecordInput,
  report: OwnershipReport,
  day: string,
  previous: { company: string; title: string } | null,
): EventRecordInput {
  return {
    kind: 'event',
    id: `sec-form-3:${filing.accession}:${owner.cik}`,
    type: 'job_change',
    occurredAt: `${day}T00:00:00Z`,
    companyId: person.companyId,
    personId: person.id,
    data: {
      // No earlier filing found: the previous role is unknown, and unknown fields are left out.
      ...(previous ? { previous_title: previous.title, previous_company: previous.company } : {}),
      new_title: person.title ?? '',
      new_company: report.issuer.name,
      new_job_started_on: slashMonth(day),
      new_job_start_month: day.slice(0, 7),
      ...(previous ? { change_type: 'company' } : {}),
    },
  };
}

function decisionMakerEvent(
  id: string,
  person: PersonRecordInput,
  day: string,
  filing: FilingRow,
  url = filingIndexUrl(filing.cik, filing.accession),
): EventRecordInput {
  return {
    kind: 'event',
    id,
    type: 'new_decision_makers',
    occurredAt: `${day}T00:00:00Z`,
    companyId: person.companyId,
    personId: person.id,
    data: { new_job_started_on: slashMonth(day), new_job_start_month: day.slice(0, 7), news_url: url },
  };
}

function leadershipNews(
  filing: FilingRow,
  companyId: string,
  company: string,
  day: string,
  url: string,
): EventRecordInput {
  return {
    kind: 'event',
    id: `sec-8k:${filing.accession}:5.02`,
    type: 'company_news',
    occurredAt: `${day}T00:00:00Z`,
    companyId,
    data: {
      news_event_type: 'leadership_change',
      news_event_label: 'Leadership Change',
      news_event_date: day,
      news_headline: `${company}: departure or appointment of directors or officers (Form 8-K, Item 5.02)`,
      news_url: url,
      news_title: 'Form 8-K Item 5.02',
    },
  };
}

function dealEvent(
  id: string,
  companyId: string,
  filedOn: string,
  dealType: StatedDeal['dealType'] | 'Tender Offer',
  role: DealSide['role'],
): EventRecordInput {
  return {
    kind: 'event',
    id,
    type: 'mergers_acquisitions',
    occurredAt: `${filedOn}T00:00:00Z`,
    companyId,
    data: { deal_type: dealType, watchlist_role: role, announcement_date: filedOn },
  };
}
