import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { parse as parseCsv } from 'csv-parse/sync';
import { changed, execute, firstRow, rows } from '../db/sql';
import { canonicalNetworkUrl, registrableDomain } from '../catalogue/identifiers';
import { AppError, fieldProblemsOf, invalidRequest, notFound } from '../errors';
import type { ArrivalAnnouncements } from './signals/arrivals';

export const SUPPRESSION_KINDS = ['email', 'domain', 'company_url'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

/** Most entries one call (an array, an upload) may add. */
export const MAX_SUPPRESSIONS_PER_CALL = 10_000;
export const MAX_SUPPRESSION_IMPORT_LINES = 50_000;

/** PostgreSQL text cannot hold NUL: refused as the entry's problem rather than failing the insert. */
const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');

/**
 * One entry, as every way in takes it (the JSON route, a CSV line, the tool, the dashboard):
 * the same limits everywhere. The API's schema (api/schemas/suppressions.ts) is this one.
 */
export const suppressionEntryInput = z.strictObject({
  kind: z.enum(SUPPRESSION_KINDS),
  value: storableText(2000),
  note: storableText(1000).nullish(),
  /** Absent or null: the whole account; else one of the account's signals. */
  signalId: z.uuid().nullish(),
});
/** An entry as a caller hands it over, checked by `suppressionEntryInput` when added. */
export interface SuppressionInput {
  kind: SuppressionKind;
  value: string;
  note?: string | null;
  signalId?: string | null;
}
type SuppressionEntry = z.output<typeof suppressionEntryInput>;

/** The list's size limit, refused in the envelope with how much room is left. */
export const suppressionLimitReached = (limit: number, entries: number) =>
  new AppError(
    409,
    'SUPPRESSION_LIMIT_REACHED',
    `An account's suppression list holds at most ${limit} entries; it has ${entries}. Remove entries, or suppress a domain instead of its people`,
    { limit, entries, room: Math.max(0, limit - entries) },
  );

export interface Suppression {
  id: string;
  kind: SuppressionKind;
  value: string;
  note: string | null;
  signalId: string | null;
  createdAt: string;
}

export interface SuppressionsAdded {
  added: Suppression[];
  duplicates: { index: number; kind: SuppressionKind; value: string }[];
  rejected: { index: number; message: string }[];
}

export interface SuppressionsImported {
  accepted: number;
  duplicates: number;
  rejected: number;
  errors: { line: number; message: string }[];
}

const emailShape = z.email();

/**
 * The stored form of a value, as the store keeps the column it is compared with: a lower-case
 * email, a registrable domain (from a domain, a URL or an email), a canonical company page.
 */
export function normaliseSuppression(kind: SuppressionKind, raw: string): { value: string } | { problem: string } {
  const text = raw.trim();
  if (!text) return { problem: 'value is empty' };
  if (kind === 'email') {
    const email = text.toLowerCase();
    return emailShape.safeParse(email).success ? { value: email } : { problem: `"${text}" is not an email address` };
  }
  if (kind === 'domain') {
    const host = text
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^[^@/]*@/, '')
      .split(/[/?#:]/)[0];
    const domain = registrableDomain(host);
    return domain ? { value: domain } : { problem: `"${text}" is not a domain such as acme.com` };
  }
  const page = canonicalNetworkUrl(text);
  return page && page !== 'unusable' && page.kind === 'company'
    ? { value: page.url }
    : { problem: `"${text}" is not a company page (https://www.linkedin.com/company/<slug>)` };
}

interface SuppressionRow {
  id: string;
  kind: SuppressionKind;
  value: string;
  note: string | null;
  signal_id: string | null;
  created_at: Date;
}

const toSuppression = (row: SuppressionRow): Suppression => ({
  id: row.id,
  kind: row.kind,
  value: row.value,
  note: row.note,
  signalId: row.signal_id,
  createdAt: row.created_at.toISOString(),
});

/**
 * An account's suppression list: people and companies it never wants as leads (customers,
 * competitors, opted-out contacts). Evaluation and production read the table directly
 * (src/services/leads/suppression-rule.ts); entries take effect from the next evaluation and
 * change no lead already produced.
 */
export class Suppressions {
  constructor(
    private readonly db: DataSource,
    /** Most entries one account may hold (SUPPRESSIONS_PER_ACCOUNT). */
    private readonly limitPerAccount: number,
    /** An entry removed wakes the account's signals: leads it held back may now be produced. */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
  ) {}

  async list(
    accountId: string,
    query: {
      limit: number;
      offset: number;
      kind?: SuppressionKind;
      signalId?: string;
      /** Entries whose value holds this text, case-insensitively (the dashboard's search). */
      valueContains?: string;
    },
  ): Promise<{ items: Suppression[]; total: number; limit: number; offset: number; hasMore: boolean }> {
    const where = [`account_id = $1`];
    const args: unknown[] = [accountId];
    if (query.kind) where.push(`kind = $${args.push(query.kind)}`);
    if (query.valueContains) where.push(`strpos(lower(value), lower($${args.push(query.valueContains)})) > 0`);
    if (query.signalId) where.push(`signal_id = $${args.push(query.signalId)}`);
    const found = await rows<SuppressionRow & { total: string }>(
      this.db,
      `SELECT *, count(*) OVER () AS total FROM suppressions WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id LIMIT $${args.push(query.limit)} OFFSET $${args.push(query.offset)}`,
      args,
    );
    const total =
      found.length > 0
        ? Number(found[0].total)
        : Number(
            (
              await firstRow<{ total: string }>(
                this.db,
                `SELECT count(*) AS total FROM suppressions WHERE ${where.join(' AND ')}`,
                args.slice(0, -2),
              )
            )?.total ?? 0,
          );
    return {
      items: found.map(toSuppression),
      total,
      limit: query.limit,
      offset: query.offset,
      hasMore: query.offset + found.length < total,
    };
  }

  /**
   * Adds the usable entries; an entry already on the list (same kind, value and scope), or
   * twice in the call, is reported as a duplicate, an unusable one as rejected with its reason.
   * A call that would take the list past the account's limit adds nothing
   * (SUPPRESSION_LIMIT_REACHED).
   */
  async add(accountId: string, inputs: SuppressionInput[]): Promise<SuppressionsAdded> {
    if (inputs.length > MAX_SUPPRESSIONS_PER_CALL)
      throw invalidRequest(`At most ${MAX_SUPPRESSIONS_PER_CALL} entries a call; split the list`);
    return this.withinLimit(
      accountId,
      (tx) => this.addIn(tx, accountId, inputs),
      (done) => done.added.length,
    );
  }

  /**
   * Runs `work` (additions) in one transaction that holds the account's list: additions of one
   * account are serialised, so two calls cannot both take its last room, and a call that would
   * take the list past the limit is rolled back whole.
   */
  private async withinLimit<T>(
    accountId: string,
    work: (tx: EntityManager) => Promise<T>,
    addedOf: (done: T) => number,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      await execute(tx, `SELECT pg_advisory_xact_lock(hashtext('suppressions'), hashtext($1))`, [accountId]);
      const [{ entries }] = await rows<{ entries: number }>(
        tx,
        `SELECT count(*)::int AS entries FROM suppressions WHERE account_id = $1`,
        [accountId],
      );
      const done = await work(tx);
      if (entries + addedOf(done) > this.limitPerAccount) throw suppressionLimitReached(this.limitPerAccount, entries);
      return done;
    });
  }

  private async addIn(tx: EntityManager, accountId: string, raw: SuppressionInput[]): Promise<SuppressionsAdded> {
    const result: SuppressionsAdded = { added: [], duplicates: [], rejected: [] };
    // The entry schema first, whoever sent the entries: the JSON route has checked them already,
    // a CSV line or the dashboard's lines have not.
    const inputs: { index: number; input: SuppressionEntry }[] = [];
    raw.forEach((entry, index) => {
      const parsed = suppressionEntryInput.safeParse(entry);
      if (parsed.success) return inputs.push({ index, input: parsed.data });
      const problems = fieldProblemsOf(parsed.error).map((p) => (p.field ? `${p.field}: ${p.message}` : p.message));
      result.rejected.push({ index, message: problems.join('; ') });
    });
    const ownSignals = await this.ownSignals(tx, accountId, inputs);
    const fresh: {
      index: number;
      kind: SuppressionKind;
      value: string;
      note: string | null;
      signalId: string | null;
    }[] = [];
    const seen = new Set<string>();
    inputs.forEach(({ input, index }) => {
      const normal = normaliseSuppression(input.kind, input.value);
      if ('problem' in normal) return result.rejected.push({ index, message: normal.problem });
      const signalId = input.signalId ?? null;
      if (signalId && !ownSignals.has(signalId))
        return result.rejected.push({ index, message: `signal ${signalId} is not one of the account's signals` });
      const key = `${input.kind}\u0000${normal.value}\u0000${signalId ?? ''}`;
      if (seen.has(key)) return result.duplicates.push({ index, kind: input.kind, value: normal.value });
      seen.add(key);
      fresh.push({ index, kind: input.kind, value: normal.value, note: input.note?.trim() || null, signalId });
    });
    if (fresh.length === 0) return result;
    const inserted = await rows<SuppressionRow & { i: string }>(
      tx,
      `INSERT INTO suppressions (account_id, kind, value, note, signal_id)
       SELECT $1, e.kind, e.value, e.note, e.signal_id
       FROM unnest($2::text[], $3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS e(kind, value, note, signal_id, i)
       ORDER BY e.i
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        accountId,
        fresh.map((e) => e.kind),
        fresh.map((e) => e.value),
        fresh.map((e) => e.note),
        fresh.map((e) => e.signalId),
      ],
    );
    const addedKeys = new Set(inserted.map((row) => `${row.kind}\u0000${row.value}\u0000${row.signal_id ?? ''}`));
    for (const entry of fresh) {
      if (!addedKeys.has(`${entry.kind}\u0000${entry.value}\u0000${entry.signalId ?? ''}`))
        result.duplicates.push({ index: entry.index, kind: entry.kind, value: entry.value });
    }
    result.added = inserted.map(toSuppression);
    result.duplicates.sort((a, b) => a.index - b.index);
    result.rejected.sort((a, b) => a.index - b.index);
    return result;
  }

  /**
   * A CSV upload with the header `kind,value,note` (note may be empty, quoted fields may hold
   * commas and line breaks): counted as the ingest endpoint counts, bad lines named by number.
   */
  async import(accountId: string, csv: string, signalId?: string): Promise<SuppressionsImported> {
    let records: { record: string[]; info: { lines: number } }[];
    try {
      // Line ends made one kind first: the parser counts a CRLF inside quotes as two lines.
      records = parseCsv(csv.replace(/\r\n?/g, '\n'), {
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
        trim: true,
      }) as unknown as typeof records;
    } catch (err) {
      throw invalidRequest(`The CSV cannot be read: ${(err as Error).message}`);
    }
    const [header, ...lines] = records;
    const columns = header?.record.map((name) => name.toLowerCase()) ?? [];
    if (columns[0] !== 'kind' || columns[1] !== 'value' || (columns.length > 2 && columns[2] !== 'note'))
      throw invalidRequest('The first line must be the header kind,value,note');
    if (lines.length > MAX_SUPPRESSION_IMPORT_LINES)
      throw invalidRequest(`At most ${MAX_SUPPRESSION_IMPORT_LINES} lines an upload; split the file`);
    const errors: SuppressionsImported['errors'] = [];
    const entries: { line: number; input: SuppressionInput }[] = [];
    for (const { record, info } of lines) {
      const [kind = '', value = '', note = ''] = record;
      // The parser gives the line an entry ends on; people look for the one it starts on.
      const line = info.lines - record.join('').split('\n').length + 1;
      if (!(SUPPRESSION_KINDS as readonly string[]).includes(kind.toLowerCase())) {
        errors.push({ line, message: `kind must be one of ${SUPPRESSION_KINDS.join(', ')}` });
        continue;
      }
      entries.push({
        line,
        input: { kind: kind.toLowerCase() as SuppressionKind, value, note: note || null, signalId: signalId ?? null },
      });
    }
    // One transaction for the whole file: over the account's limit, nothing of it is added.
    const counted = await this.withinLimit(
      accountId,
      async (tx) => {
        const totals = { added: 0, duplicates: 0 };
        for (let start = 0; start < entries.length; start += MAX_SUPPRESSIONS_PER_CALL) {
          const chunk = entries.slice(start, start + MAX_SUPPRESSIONS_PER_CALL);
          const added = await this.addIn(
            tx,
            accountId,
            chunk.map((entry) => entry.input),
          );
          totals.added += added.added.length;
          totals.duplicates += added.duplicates.length;
          for (const rejected of added.rejected)
            errors.push({ line: chunk[rejected.index].line, message: rejected.message });
        }
        return totals;
      },
      (totals) => totals.added,
    );
    const accepted = counted.added;
    const duplicates = counted.duplicates;
    errors.sort((a, b) => a.line - b.line);
    return { accepted, duplicates, rejected: errors.length, errors };
  }

  async remove(accountId: string, id: string): Promise<void> {
    const removed = await changed(this.db, `DELETE FROM suppressions WHERE id = $1 AND account_id = $2`, [
      id,
      accountId,
    ]);
    if (removed.count === 0) throw notFound('Suppression');
    // Adding an entry only blocks leads, so only a removal tells.
    this.arrivals?.tell({ accountId });
  }

  private async ownSignals(
    tx: EntityManager,
    accountId: string,
    inputs: { input: SuppressionEntry }[],
  ): Promise<Set<string>> {
    const asked = [...new Set(inputs.map(({ input }) => input.signalId).filter((id): id is string => Boolean(id)))];
    if (asked.length === 0) return new Set();
    const own = await rows<{ id: string }>(
      tx,
      `SELECT id FROM signals WHERE account_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL`,
      [accountId, asked],
    );
    return new Set(own.map((row) => row.id));
  }
}
