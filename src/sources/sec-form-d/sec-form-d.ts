import { EdgarRunItems } from '../kit/edgar/run-items';
import type { DataSource } from 'typeorm';
import type { SecFormDConfig } from './settings';
import {
  CURRENT_FEED_PAGE_SIZE,
  currentFormDFeedUrl,
  parseDailyFormIndex,
  primaryDocUrl,
  type FormD,
  type ListedFiling,
} from './edgar';
import type { EventRecordInput, PersonRecordInput } from '../../providers/data/records';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { DocumentThreads } from '../kit/document-threads';
import type { IntentSource } from '../kit/intent-source';
import type { FetchAnswer, PoliteFetch } from '../kit/polite-fetch';
import { countryOfEdgarCode, SecIssuers } from '../kit/edgar/issuers';
import { edgarGet } from '../kit/edgar/fair-access';

export { SEC_REFUSAL_BACKOFF_MS } from '../kit/edgar/fair-access';
import { slug, titleCase } from '../kit/record-names';
import { execute, firstRow, rows } from '../../db/sql';

/** The roles of related persons who become people: the decision makers a fundraising lead names. */
const DECISION_MAKER_ROLES = new Set(['Executive Officer', 'Director']);

interface FilingRow {
  accession: string;
  cik: string;
  form: 'D' | 'D/A';
  filed_on: string;
  status: string;
}

/**
 * The `sec-form-d` source: Form D notices of exempt offerings (private fundraising) from SEC
 * EDGAR. Each run reads the current-filings Atom feed of form type D and lists the filings it has
 * not seen; a backfill lists those of the daily form indexes of recent days. Each listed filing's
 * `primary_doc.xml` becomes a `fundraising` event at the issuer's company (matched or created by
 * {@link SecIssuers}), and its executive officers and directors become people there. Pooled
 * investment funds are left out; an amendment revises its original's event (id
 * `sec-form-d:<original accession>`), never adds a second.
 */
export class SecFormD implements IntentSource {
  readonly name = 'sec-form-d';
  private readonly issuers: SecIssuers;
  private readonly runItems: EdgarRunItems;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    private readonly config: Pick<SecFormDConfig, 'SEC_FORM_D_BACKFILL_DAYS' | 'SEC_FORM_D_FEED_PAGES'>,
    private readonly documents: DocumentThreads,
  ) {
    this.issuers = new SecIssuers(db);
    this.runItems = new EdgarRunItems(db, { indexDays: 'sec_form_d_index_days', filings: 'sec_form_d_filings' });
  }

  /** The daily indexes of the last SEC_FORM_D_BACKFILL_DAYS days (UTC) before today, read by the next run. */
  async backfill(): Promise<void> {
    await this.runItems.backfill(this.config.SEC_FORM_D_BACKFILL_DAYS);
  }

  async items(after: SourceCursor): Promise<SourceItemsPage> {
    return this.runItems.page(after);
  }

  async sync(item: string): Promise<SourceItemResult> {
    return this.runItems.sync(item, {
      currentFeed: () => this.readCurrentFeed(),
      dailyIndex: (day) =>
        this.runItems.readDailyIndex(day, (url, accept) => this.get(url, accept), parseDailyFormIndex),
      filing: (accession) => this.readFiling(accession),
    });
  }

  /**
   * The newest filings, a page of 100 at a time, until a page reaches a filing listed before (or
   * SEC_FORM_D_FEED_PAGES pages). They are listed only once every page is read, so a retry after
   * a 429 on a later page reads the earlier ones again rather than stopping at them.
   */
  private async readCurrentFeed(): Promise<SourceItemResult> {
    const found: ListedFiling[] = [];
    for (let page = 0; page < this.config.SEC_FORM_D_FEED_PAGES; page++) {
      const start = page * CURRENT_FEED_PAGE_SIZE;
      const answer = await this.get(currentFormDFeedUrl(start), 'application/atom+xml');
      if (answer.status === 'not-modified') break;
      const where = `current Form D feed (start=${start})`;
      if (answer.status === 'failed') return { records: 0, error: `${where}: ${answer.error}` };
      const feed = await this.documents.read('secCurrentFeed', answer.body);
      if ('problem' in feed) return { records: 0, error: `${where}: ${feed.problem}` };
      found.push(...feed.entries);
      if (feed.listed < CURRENT_FEED_PAGE_SIZE || (await this.runItems.anyListed(feed.entries))) break;
    }
    await this.runItems.list(found);
    return { records: 0 };
  }

  /**
   * One filing: its primary_doc.xml read and turned into the issuer's company, its decision
   * makers and a fundraising event. A document that is not a Form D is the source's error and
   * is not read again; a failed request is read again by the next run.
   */
  private async readFiling(accession: string): Promise<SourceItemResult> {
    const filing = await firstRow<FilingRow>(
      this.db,
      `SELECT accession, cik, form, to_char(filed_on, 'YYYY-MM-DD') AS filed_on, status
       FROM sec_form_d_filings WHERE accession = $1`,
      [accession],
    );
    if (!filing || filing.status !== 'pending') return { records: 0 };
    const label = `Form ${filing.form} ${accession}`;
    const answer = await this.get(primaryDocUrl(filing.cik, accession), 'application/xml');
    if (answer.status === 'not-modified') return { records: 0 };
    if (answer.status === 'failed') {
      const error = `${label}: primary_doc.xml: ${answer.error}`;
      return answer.statusCode === 404 ? this.settle(accession, 'failed', error) : { records: 0, error };
    }
    const parsed = await this.documents.read('secFormD', answer.body);
    if ('problem' in parsed) return this.settle(accession, 'failed', `${label}: primary_doc.xml: ${parsed.problem}`);
    const formD = parsed.formD;
    if (formD.pooledFund) return this.settle(accession, 'skipped', null, 'a pooled investment fund');

    const original = await this.originalOf(accession, formD);
    const issuer = await this.issuers.resolve(formD.issuer, formD.industryGroup);
    // Co-issuers are companies of their own CIK (a fund's parallel vehicles, a parent and its subsidiary).
    const coIssuers = [];
    for (const other of formD.coIssuers)
      coIssuers.push({ issuer: other, match: await this.issuers.resolve(other, formD.industryGroup) });
    const people = await this.decisionMakers(formD, issuer.companyId);
    const event = fundraisingEvent(original, issuer.companyId, filing.filed_on, formD);
    const stored = await firstRow<{ announcement_date: string | null }>(
      this.db,
      `SELECT data->>'announcement_date' AS announcement_date FROM events WHERE id = $1`,
      [event.id],
    );
    const companies = [issuer, ...coIssuers.map((co) => co.match)].flatMap((match) =>
      match.record ? [match.record] : [],
    );
    const records = [...new Map(companies.map((company) => [company.id, company])).values(), ...people, event];
    const result = await this.ingestion.ingest(records);
    // The event is the last line: without it the filing failed; a person refused is only reported.
    const refusedEvent = result.errors.find((e) => e.line === records.length);
    if (refusedEvent) return this.settle(accession, 'failed', `${label}: ${refusedEvent.message}`);
    const refusedPerson = result.errors[0] ? `${label}: ${result.errors[0].message}` : undefined;
    await this.issuers.link(formD.issuer, issuer);
    for (const co of coIssuers) await this.issuers.link(co.issuer, co.match);
    let events = stored ? 0 : 1;
    // An amendment (or a later filing of the round) revises the event; an older one read late does not.
    if (stored && (await this.isLatestOf(original, filing))) {
      const data = { ...event.data, announcement_date: stored.announcement_date ?? filing.filed_on };
      if (await this.ingestion.reviseEvent({ ...event, data })) events = 1;
    }
    await execute(
      this.db,
      `UPDATE sec_form_d_filings SET status = 'ingested', original_accession = $2, company_id = $3, problem = NULL,
         read_at = now(), first_sale_on = $4::date, amount_remaining_usd = $5, amount_remaining_indefinite = $6,
         investors = $7, exemptions = $8::text[], co_issuer_ciks = $9::text[]
       WHERE accession = $1`,
      [
        accession,
        original,
        issuer.companyId,
        formD.firstSaleOn,
        typeof formD.totalRemaining === 'number' ? formD.totalRemaining : null,
        formD.totalRemaining === 'indefinite',
        formD.investors,
        formD.exemptions,
        formD.coIssuers.map((co) => co.cik),
      ],
    );
    return refusedPerson ? { records: events, error: refusedPerson } : { records: events };
  }

  /** The filing a round started with: an amendment's previous filing, or that one's own original when known. */
  private async originalOf(accession: string, formD: FormD): Promise<string> {
    const previous = formD.submissionType === 'D/A' ? formD.previousAccessionNumber : null;
    if (!previous) return accession;
    const known = await firstRow<{ original_accession: string | null }>(
      this.db,
      `SELECT original_accession FROM sec_form_d_filings WHERE accession = $1`,
      [previous],
    );
    return known?.original_accession ?? previous;
  }

  /** Whether no filing of the round already ingested is later than this one (by filing date, then accession). */
  private async isLatestOf(original: string, filing: FilingRow): Promise<boolean> {
    const later = await firstRow<{ accession: string }>(
      this.db,
      `SELECT accession FROM sec_form_d_filings
       WHERE original_accession = $1 AND status = 'ingested' AND accession <> $2
         AND (filed_on, accession COLLATE "C") > ($3::date, $2 COLLATE "C")
       LIMIT 1`,
      [original, filing.accession, filing.filed_on],
    );
    return !later;
  }

  /** Executive officers and directors, as people of the company; one already there by name is not added again. */
  private async decisionMakers(formD: FormD, companyId: string): Promise<PersonRecordInput[]> {
    const present = await rows<{ name: string }>(
      this.db,
      `SELECT lower(first_name || ' ' || last_name) AS name FROM people WHERE company_id = $1`,
      [companyId],
    );
    const known = new Set(present.map((row) => row.name));
    const people = new Map<string, PersonRecordInput>();
    for (const person of formD.relatedPersons) {
      if (!person.relationships.some((role) => DECISION_MAKER_ROLES.has(role))) continue;
      const firstName = titleCase(person.firstName);
      const lastName = titleCase(person.lastName);
      if (known.has(`${firstName} ${lastName}`.toLowerCase())) continue;
      const id = `sec-cik-${formD.issuer.cik}-${slug(firstName)}-${slug(lastName)}`.slice(0, 200);
      const signed = formD.signers.find((signer) => signedBy(signer.name, person.firstName, person.lastName));
      people.set(id, {
        kind: 'person',
        id,
        companyId,
        firstName,
        lastName,
        title: (person.clarification ?? (signed?.title || person.relationships.join(', '))).slice(0, 500),
        city: person.city ? titleCase(person.city) : null,
        countryCode: countryOfEdgarCode(person.stateOrCountry),
        location: [person.city && titleCase(person.city), person.stateOrCountry].filter(Boolean).join(', ') || null,
      });
    }
    return [...people.values()];
  }

  /** A 403 from SEC is its refusal of a client over the rate: every worker holds off, and the item retries after. */
  private get(url: string, accept: string): Promise<FetchAnswer> {
    return edgarGet(this.fetcher, url, accept);
  }

  private async settle(
    accession: string,
    status: 'failed' | 'skipped',
    error: string | null,
    reason?: string,
  ): Promise<SourceItemResult> {
    await execute(
      this.db,
      `UPDATE sec_form_d_filings SET status = $2, problem = $3, read_at = now() WHERE accession = $1`,
      [accession, status, error ?? reason ?? null],
    );
    return error ? { records: 0, error } : { records: 0 };
  }
}

/**
 * The round: `funding_type` the securities offered, `funding_amount_usd` the amount sold (the
 * amount offered while nothing is sold; empty when that is "Indefinite"), `announcement_date`
 * the filing date. A debt-only offering is also staged "Debt Financing", the one stage a Form D states.
 */
function fundraisingEvent(original: string, companyId: string, filedOn: string, formD: FormD): EventRecordInput {
  const sold = formD.totalAmountSold;
  const offered = formD.totalOfferingAmount;
  const amount = sold !== null && sold > 0 ? sold : typeof offered === 'number' ? offered : '';
  const debtOnly = formD.securities.length === 1 && formD.securities[0] === 'Debt';
  return {
    kind: 'event',
    id: `sec-form-d:${original}`,
    type: 'fundraising',
    occurredAt: `${filedOn}T00:00:00Z`,
    companyId,
    data: {
      funding_type: formD.securities.join(', '),
      funding_amount_usd: amount,
      announcement_date: filedOn,
      ...(debtOnly ? { funding_stage: 'Debt Financing' } : {}),
    },
  };
}

/** "Daniel M. Wallach" signed for Daniel Wallach. */
function signedBy(signer: string, firstName: string, lastName: string): boolean {
  const words = new Set(signer.toLowerCase().split(/[\s,.]+/));
  return words.has(firstName.toLowerCase()) && words.has(lastName.toLowerCase());
}
