import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { changed, execute, firstRow } from '../../db/sql';
import type { Config } from '../../config';
import {
  AppError,
  insufficientCredits,
  invalidRequest,
  notFound,
  validationError,
  type FieldProblem,
} from '../../errors';
import type { Logger } from '../../logger';
import type { CompanyQuery, ContactQuery, EnrichmentProvider } from '../../providers/enrichment/enrichment-provider';
import type { Caller } from '../api-keys';
import type { Credits } from '../credits';
import { companyBlock, contactFields } from '../leads/payload';
import { canonicalNetworkUrl, registrableDomain } from '../../catalogue/identifiers';
import {
  bulkEnrichmentWorkflowId,
  bulkEnrichmentWorkflowType,
  phoneLookupWorkflowId,
  phoneLookupWorkflowType,
  type BulkEnrichmentInput,
  type PhoneLookupInput,
} from '../../temporal/contract';
import { LookupSlots } from './lookup-slots';
import { StoreEnrichmentProvider } from '../../providers/enrichment/store-provider';

/** Contract section 5: each charged only when something is found. */
export const ENRICHMENT_PRICES = { contact: 1, email: 0.5, phone: 5, firmographic: 0.5 } as const;

export const MAX_BULK_CONTACTS = 1000;

export type Freshness = 'cached' | 'live';

/** A profile URL, or an email, or first + last name at a company domain; the first of these given decides. */
export interface ContactReference {
  linkedinUrl?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  companyDomain?: string;
}

export interface ContactLookup extends ContactReference {
  /** `live` asks the source now: slow, and counted against the key's concurrency cap. Default `cached`. */
  freshness?: Freshness;
}

/** Domain, else company page URL, else name (which must name one company only). */
export interface CompanyLookup {
  domain?: string;
  linkedinUrl?: string;
  name?: string;
}

export interface EmailLookup {
  firstName: string;
  lastName: string;
  domain: string;
}

/** Per call: REST passes a signal that aborts when the client disconnects. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The lead's contact block without `lead_id`/`created_at`; `phone` is left to the phone lookup. */
export type ContactAnswer = ReturnType<typeof contactFields>;
export type CompanyAnswer = ReturnType<typeof companyBlock>;

export interface ContactResult {
  found: boolean;
  contact: ContactAnswer | null;
  company: CompanyAnswer | null;
}

export interface BulkResult extends ContactResult {
  index: number;
  /** Set when the contact was not looked up or not paid for (e.g. INSUFFICIENT_CREDITS). */
  error?: { code: string; message: string };
}

export type BulkStatus = 'running' | 'completed' | 'failed';
export type PhoneLookupStatus = 'pending' | 'completed' | 'failed';

export interface PhoneLookupAnswer {
  status: PhoneLookupStatus;
  /** Set once completed. */
  found?: boolean;
  phone?: string;
  error?: { code: string; message: string };
}

interface StoredBulkContact extends ContactQuery {
  live: boolean;
}

const NOT_FOUND: ContactResult = { found: false, contact: null, company: null };

/**
 * Enrichment lookups for contacts, companies, emails and phones, priced per contract section 5
 * and charged only when something is found. REST and the tool server both call these methods,
 * so prices, the per-key cap and idempotency are the same on both.
 *
 * Order of every paid lookup: validate, check the balance covers the price (402 before any
 * work), look up, then charge through the ledger under a key unique to the lookup, so a retry
 * of the same step never charges twice. Bulk jobs and phone lookups run in Temporal workflows
 * and charge per item (`bulk:<jobId>:<index>`, `phone:<lookupId>`).
 */
export class Enrichment {
  constructor(
    private readonly deps: {
      db: DataSource;
      config: Config;
      credits: Credits;
      provider: EnrichmentProvider;
      slots: LookupSlots;
      logger: Logger;
      temporal?: Client;
    },
  ) {}

  async contact(caller: Caller, query: ContactLookup, options: CallOptions = {}): Promise<ContactResult> {
    const reference = requireValid(contactQueryOf(query));
    const live = query.freshness === 'live';
    await this.requireBalance(caller, ENRICHMENT_PRICES.contact);
    const match = live
      ? await this.deps.slots.hold(
          caller.keyId,
          (signal) => this.deps.provider.lookupContact(reference, { live, signal }),
          options.signal,
        )
      : await this.deps.provider.lookupContact(reference, { live, signal: options.signal });
    if (!match) return { ...NOT_FOUND };
    await this.charge(caller.accountId, ENRICHMENT_PRICES.contact, 'enrichment_contact', `enrich:${randomUUID()}`);
    return contactResult(match);
  }

  /** Always a live lookup: counted against the key's concurrency cap. */
  async firmographic(
    caller: Caller,
    query: CompanyLookup,
    options: CallOptions = {},
  ): Promise<{ found: boolean; company: CompanyAnswer | null }> {
    const reference = requireValid(companyQueryOf(query));
    await this.requireBalance(caller, ENRICHMENT_PRICES.firmographic);
    const company = await this.deps.slots.hold(
      caller.keyId,
      (signal) => this.deps.provider.lookupCompany(reference, { live: true, signal }),
      options.signal,
    );
    if (!company) return { found: false, company: null };
    await this.charge(
      caller.accountId,
      ENRICHMENT_PRICES.firmographic,
      'enrichment_firmographic',
      `enrich:${randomUUID()}`,
    );
    return { found: true, company: companyBlock(company) };
  }

  async findEmail(caller: Caller, query: EmailLookup): Promise<{ found: boolean; email: string | null }> {
    const reference = requireValid(emailQueryOf(query));
    await this.requireBalance(caller, ENRICHMENT_PRICES.email);
    const email = await this.deps.provider.findEmail(reference);
    if (!email) return { found: false, email: null };
    await this.charge(caller.accountId, ENRICHMENT_PRICES.email, 'enrichment_email', `enrich:${randomUUID()}`);
    return { found: true, email };
  }

  /**
   * Queues up to 1000 contacts; the `bulk:<jobId>` workflow looks them up ten at a time and
   * writes progress as it goes. 402 unless the balance covers at least one found contact; a
   * contact found once the credits are gone carries INSUFFICIENT_CREDITS instead of data.
   */
  async startBulkContacts(caller: Caller, contacts: ContactLookup[]): Promise<{ jobId: string }> {
    if (!Array.isArray(contacts) || contacts.length === 0 || contacts.length > MAX_BULK_CONTACTS) {
      throw validationError([{ field: 'contacts', message: `must hold 1 to ${MAX_BULK_CONTACTS} contacts` }]);
    }
    const problems: FieldProblem[] = [];
    const stored: StoredBulkContact[] = contacts.map((contact, i) => {
      const checked = contactQueryOf(contact ?? {}, `contacts.${i}`);
      problems.push(...checked.problems);
      return { ...checked.query, live: contact?.freshness === 'live' };
    });
    if (problems.length > 0) throw validationError(problems);
    await this.requireBalance(caller, ENRICHMENT_PRICES.contact);
    const jobId = randomUUID();
    await execute(
      this.deps.db,
      `INSERT INTO enrichment_jobs (id, account_id, key_id, total, contacts) VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [jobId, caller.accountId, caller.keyId, stored.length, JSON.stringify(stored)],
    );
    const input: BulkEnrichmentInput = { jobId, total: stored.length };
    await this.startWorkflow(
      bulkEnrichmentWorkflowType,
      bulkEnrichmentWorkflowId(jobId),
      input,
      `Bulk contact enrichment of ${stored.length} contacts`,
      () => execute(this.deps.db, `DELETE FROM enrichment_jobs WHERE id = $1`, [jobId]),
    );
    return { jobId };
  }

  async bulkStatus(
    caller: Caller,
    jobId: string,
  ): Promise<{ status: BulkStatus; total: number; done: number; results: BulkResult[] }> {
    const job = await firstRow<{
      status: BulkStatus;
      total: number;
      done: number;
      results: Record<string, BulkResult>;
    }>(this.deps.db, `SELECT status, total, done, results FROM enrichment_jobs WHERE id = $1 AND account_id = $2`, [
      jobId,
      caller.accountId,
    ]);
    if (!job) throw notFound('Bulk enrichment job');
    const results = Object.values(job.results ?? {}).sort((a, b) => a.index - b.index);
    return { status: job.status, total: job.total, done: job.done, results };
  }

  /** 402 unless the balance covers one phone; charged (5 credits) only when a phone is found. */
  async startPhoneLookup(caller: Caller, ref: ContactReference): Promise<{ lookupId: string }> {
    const reference = requireValid(contactQueryOf(ref ?? {}), 'body');
    await this.requireBalance(caller, ENRICHMENT_PRICES.phone);
    const lookupId = randomUUID();
    await execute(
      this.deps.db,
      `INSERT INTO phone_lookups (id, account_id, key_id, contact) VALUES ($1, $2, $3, $4::jsonb)`,
      [lookupId, caller.accountId, caller.keyId, JSON.stringify(reference)],
    );
    const input: PhoneLookupInput = { lookupId };
    await this.startWorkflow(phoneLookupWorkflowType, phoneLookupWorkflowId(lookupId), input, 'Phone lookup', () =>
      execute(this.deps.db, `DELETE FROM phone_lookups WHERE id = $1`, [lookupId]),
    );
    return { lookupId };
  }

  async phoneLookup(caller: Caller, lookupId: string): Promise<PhoneLookupAnswer> {
    const row = await firstRow<{
      status: PhoneLookupStatus;
      phone: string | null;
      error_code: string | null;
      error: string | null;
    }>(this.deps.db, `SELECT status, phone, error_code, error FROM phone_lookups WHERE id = $1 AND account_id = $2`, [
      lookupId,
      caller.accountId,
    ]);
    if (!row) throw notFound('Phone lookup');
    if (row.status === 'pending') return { status: 'pending' };
    if (row.status === 'failed')
      return {
        status: 'failed',
        error: { code: row.error_code ?? 'LOOKUP_FAILED', message: row.error ?? 'The lookup failed' },
      };
    return row.phone ? { status: 'completed', found: true, phone: row.phone } : { status: 'completed', found: false };
  }

  // ------------------------------------------------------------------ workflow steps (activities)

  /**
   * Looks up the contacts of one slice not yet answered (a retried slice skips what it already
   * wrote), charges each found one under `bulk:<jobId>:<index>`, and writes the slice's results
   * and the recounted `done` in one statement.
   */
  async runBulkSlice(jobId: string, from: number, to: number): Promise<{ done: number }> {
    const job = await firstRow<{
      account_id: string;
      status: BulkStatus;
      pending: { index: number; contact: StoredBulkContact }[];
    }>(
      this.deps.db,
      `SELECT account_id, status,
              coalesce((SELECT jsonb_agg(jsonb_build_object('index', t.i - 1, 'contact', t.c) ORDER BY t.i)
                        FROM jsonb_array_elements(contacts) WITH ORDINALITY AS t(c, i)
                        WHERE t.i - 1 >= $2 AND t.i - 1 < $3 AND NOT results ? (t.i - 1)::text), '[]'::jsonb) AS pending
       FROM enrichment_jobs WHERE id = $1`,
      [jobId, from, to],
    );
    if (!job || job.status !== 'running') return { done: 0 };
    const results = await Promise.all(
      job.pending.map(({ index, contact }) => this.bulkItem(jobId, job.account_id, index, contact)),
    );
    const entries = Object.fromEntries(results.map((result) => [String(result.index), result]));
    const updated = await changed<{ done: number }>(
      this.deps.db,
      `UPDATE enrichment_jobs SET results = results || $2::jsonb,
              done = (SELECT count(*) FROM jsonb_object_keys(results || $2::jsonb))
       WHERE id = $1 RETURNING done`,
      [jobId, JSON.stringify(entries)],
    );
    return { done: updated.rows[0]?.done ?? 0 };
  }

  async finishBulkJob(jobId: string, failure?: string): Promise<void> {
    await execute(
      this.deps.db,
      `UPDATE enrichment_jobs SET status = $2, error = $3, completed_at = now() WHERE id = $1 AND status = 'running'`,
      [jobId, failure ? 'failed' : 'completed', failure ?? null],
    );
  }

  /** The phone, charged in the same transaction that records it, so a retry finds it recorded. */
  async runPhoneLookup(lookupId: string): Promise<PhoneLookupStatus> {
    const row = await firstRow<{ account_id: string; status: PhoneLookupStatus; contact: ContactQuery }>(
      this.deps.db,
      `SELECT account_id, status, contact FROM phone_lookups WHERE id = $1`,
      [lookupId],
    );
    if (!row || row.status !== 'pending') return row?.status ?? 'failed';
    const phone = await this.deps.provider.lookupPhone(row.contact);
    return this.deps.db.transaction(async (tx) => {
      if (!phone) {
        await execute(
          tx,
          `UPDATE phone_lookups SET status = 'completed', completed_at = now() WHERE id = $1 AND status = 'pending'`,
          [lookupId],
        );
        return 'completed';
      }
      const outcome = await this.deps.credits.charge(tx, {
        accountId: row.account_id,
        credits: ENRICHMENT_PRICES.phone,
        operation: 'enrichment_phone',
        idempotencyKey: `phone:${lookupId}`,
      });
      if (outcome === 'insufficient') {
        await execute(
          tx,
          `UPDATE phone_lookups SET status = 'failed', error_code = 'INSUFFICIENT_CREDITS', error = $2, completed_at = now()
           WHERE id = $1 AND status = 'pending'`,
          [lookupId, `A phone was found but the account cannot pay its ${ENRICHMENT_PRICES.phone} credits`],
        );
        return 'failed';
      }
      await execute(
        tx,
        `UPDATE phone_lookups SET status = 'completed', phone = $2, completed_at = now() WHERE id = $1 AND status = 'pending'`,
        [lookupId, phone],
      );
      return 'completed';
    });
  }

  async failPhoneLookup(lookupId: string, message: string): Promise<void> {
    await execute(
      this.deps.db,
      `UPDATE phone_lookups SET status = 'failed', error_code = 'LOOKUP_FAILED', error = $2, completed_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [lookupId, message],
    );
  }

  // ------------------------------------------------------------------ internals

  private async bulkItem(
    jobId: string,
    accountId: string,
    index: number,
    stored: StoredBulkContact,
  ): Promise<BulkResult> {
    const { live, ...reference } = stored;
    // The workflow's slices bound a job to ten lookups at a time, so bulk lookups take no
    // interactive slots: a large list never locks its own key out of single lookups.
    const match = await this.deps.provider.lookupContact(reference, { live });
    if (!match) return { index, ...NOT_FOUND };
    const outcome = await this.deps.db.transaction((tx) =>
      this.deps.credits.charge(tx, {
        accountId,
        credits: ENRICHMENT_PRICES.contact,
        operation: 'enrichment_contact',
        idempotencyKey: `bulk:${jobId}:${index}`,
      }),
    );
    if (outcome === 'insufficient') {
      return {
        index,
        ...NOT_FOUND,
        error: {
          code: 'INSUFFICIENT_CREDITS',
          message: `Found, but the account cannot pay its ${ENRICHMENT_PRICES.contact} credit`,
        },
      };
    }
    return { index, ...contactResult(match) };
  }

  private async requireBalance(caller: Caller, price: number): Promise<void> {
    const balance = await this.deps.credits.balance(caller.accountId);
    if (balance < price)
      throw insufficientCredits(
        `This lookup costs ${price} credits when something is found; the balance is ${balance}`,
      );
  }

  private async charge(accountId: string, credits: number, operation: string, idempotencyKey: string): Promise<void> {
    const outcome = await this.deps.db.transaction((tx) =>
      this.deps.credits.charge(tx, { accountId, credits, operation, idempotencyKey }),
    );
    // Another lookup spent the credits meanwhile: the answer is not given away unpaid.
    if (outcome === 'insufficient')
      throw insufficientCredits(`This lookup found a result but the account cannot pay its ${credits} credits`);
  }

  private async startWorkflow(
    workflowType: typeof bulkEnrichmentWorkflowType | typeof phoneLookupWorkflowType,
    workflowId: string,
    input: BulkEnrichmentInput | PhoneLookupInput,
    summary: string,
    undo: () => Promise<unknown>,
  ): Promise<void> {
    const { temporal, config, logger } = this.deps;
    try {
      if (!temporal) throw new Error('no Temporal client in this process');
      await temporal.workflow.start(workflowType, {
        workflowId,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        args: [input],
        staticSummary: summary,
      });
    } catch (err) {
      logger.warn({ err, workflowId }, 'could not start the enrichment workflow');
      // Nothing was charged yet: forget the row so the client's resend starts clean.
      await undo().catch(() => undefined);
      throw new AppError(
        503,
        'TEMPORAL_UNAVAILABLE',
        'Background lookups are not reachable right now; resend the request shortly',
      );
    }
  }
}

function contactResult(match: NonNullable<Awaited<ReturnType<EnrichmentProvider['lookupContact']>>>): ContactResult {
  return {
    found: true,
    // The email is part of what a contact lookup sells; the phone is its own 5-credit lookup.
    contact: contactFields(match.contact, { email: match.contact.email ?? '', phone: '' }),
    company: match.company ? companyBlock(match.company) : null,
  };
}

interface Checked<T> {
  query: T;
  problems: FieldProblem[];
}

/** Single lookups are query parameters (400 INVALID_REQUEST); bodies answer 422 like every body. */
function requireValid<T>(checked: Checked<T>, source: 'query' | 'body' = 'query'): T {
  if (checked.problems.length === 0) return checked.query;
  if (source === 'body') throw validationError(checked.problems);
  throw invalidRequest(checked.problems.map((p) => `${p.field}: ${p.message}`).join('; '), {
    details: checked.problems,
  });
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;
const at = (prefix: string, field: string) => (prefix ? `${prefix}.${field}` : field);

/** "acme.com", "www.acme.com" and "https://acme.com/about" all become "acme.com", as on ingest. */
function domainOf(raw: string): string | undefined {
  const host = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0];
  return registrableDomain(host);
}

function networkUrlOf(raw: string, kind: 'company' | 'person'): string | undefined {
  const canonical = canonicalNetworkUrl(raw);
  return canonical && canonical !== 'unusable' && canonical.kind === kind ? canonical.url : undefined;
}

export function contactQueryOf(input: ContactReference, prefix = ''): Checked<ContactQuery> {
  const problems: FieldProblem[] = [];
  const query: ContactQuery = {};
  const linkedinUrl = text(input.linkedinUrl);
  const email = text(input.email);
  const firstName = text(input.firstName);
  const lastName = text(input.lastName);
  const companyDomain = text(input.companyDomain);
  if (linkedinUrl) {
    query.linkedinUrl = networkUrlOf(linkedinUrl, 'person');
    if (!query.linkedinUrl)
      problems.push({
        field: at(prefix, 'linkedinUrl'),
        message: 'must be a profile URL (https://www.linkedin.com/in/<slug>)',
      });
  }
  if (email) {
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) query.email = email.toLowerCase();
    else problems.push({ field: at(prefix, 'email'), message: 'must be an email address' });
  }
  if (companyDomain) {
    query.companyDomain = domainOf(companyDomain);
    if (!query.companyDomain)
      problems.push({ field: at(prefix, 'companyDomain'), message: 'must be a domain such as "acme.com"' });
  }
  if (firstName) query.firstName = firstName;
  if (lastName) query.lastName = lastName;
  const named = firstName && lastName && companyDomain;
  if (!linkedinUrl && !email && !named) {
    problems.push({
      field: prefix || 'query',
      message: 'send linkedinUrl, or email, or firstName + lastName + companyDomain',
    });
  }
  return { query, problems };
}

function companyQueryOf(input: CompanyLookup): Checked<CompanyQuery> {
  const problems: FieldProblem[] = [];
  const query: CompanyQuery = {};
  const domain = text(input.domain);
  const linkedinUrl = text(input.linkedinUrl);
  const name = text(input.name);
  if (domain) {
    query.domain = domainOf(domain);
    if (!query.domain) problems.push({ field: 'domain', message: 'must be a domain such as "acme.com"' });
  }
  if (linkedinUrl) {
    query.linkedinUrl = networkUrlOf(linkedinUrl, 'company');
    if (!query.linkedinUrl)
      problems.push({
        field: 'linkedinUrl',
        message: 'must be a company page URL (https://www.linkedin.com/company/<slug>)',
      });
  }
  if (name) query.name = name;
  if (!domain && !linkedinUrl && !name) problems.push({ field: 'query', message: 'send domain, linkedinUrl or name' });
  return { query, problems };
}

function emailQueryOf(input: EmailLookup): Checked<EmailLookup> {
  const problems: FieldProblem[] = [];
  const firstName = text(input.firstName);
  const lastName = text(input.lastName);
  const rawDomain = text(input.domain);
  const domain = rawDomain ? domainOf(rawDomain) : undefined;
  if (!firstName) problems.push({ field: 'firstName', message: 'is required' });
  if (!lastName) problems.push({ field: 'lastName', message: 'is required' });
  if (!rawDomain) problems.push({ field: 'domain', message: 'is required' });
  else if (!domain) problems.push({ field: 'domain', message: 'must be a domain such as "acme.com"' });
  return { query: { firstName: firstName ?? '', lastName: lastName ?? '', domain: domain ?? '' }, problems };
}

/** The process's enrichment: the built-in store provider and the PostgreSQL-held per-key cap. */
export function createEnrichment(
  deps: { db: DataSource; config: Config; logger: Logger; temporal?: Client },
  credits: Credits,
): Enrichment {
  const latency = deps.config.ENRICHMENT_LIVE_LATENCY_MS;
  return new Enrichment({
    ...deps,
    credits,
    provider: new StoreEnrichmentProvider(deps.db, { liveLatencyMs: latency }),
    slots: new LookupSlots(
      deps.db,
      { capPerKey: deps.config.ENRICHMENT_CONCURRENCY_PER_KEY, lookupMs: latency },
      deps.logger,
    ),
  });
}
