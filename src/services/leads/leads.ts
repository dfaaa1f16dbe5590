import type { DataSource } from 'typeorm';
import type { Credits } from '../credits';
import { runPrepared, type Statement } from '../../db/prepared';
import { execute, firstRow } from '../../db/sql';
import { signalType } from '../../signal-types/registry';

/** A lead's email lookup: `pending` until it is done, when the signal asks for emails. */
type EmailStatus = 'not_requested' | 'pending' | 'found' | 'not_found' | 'unpaid';

export interface LeadPageQuery {
  since?: Date;
  limit: number;
  offset: number;
}

/** The page of a signal that has no row (callers check the signal first, so only in a race with its deletion). */
const emptyPage = (signalId: string, query: LeadPageQuery) =>
  `{"signalId":${JSON.stringify(signalId)},"total":0,"limit":${query.limit},"offset":${query.offset},"hasMore":false,"leads":[]}`;

/**
 * The page query in its four forms, with or without `since` and an owner: $1 signal, $2 limit,
 * $3 offset, then `since` ($4) and the owning account (last). One row per lead, newest first,
 * each carrying the total; one row with a null lead when the page is empty; no row when the
 * signal is unknown (or, with an owner, deleted or another account's). Rows, not one
 * string_agg of the page: building a 35 kB value per page made PostgreSQL grow and trim its
 * heap on every query, which cost it several times what sending the rows does; Node joins
 * them instead (docs/performance.md).
 */
const pageStatements = new Map<string, Statement>();
function pageStatement(since: boolean, owned: boolean): Statement {
  const name = `leads-page${since ? '-since' : ''}${owned ? '-owned' : ''}`;
  let statement = pageStatements.get(name);
  if (!statement) {
    const sinceSql = since ? 'AND created_at >= $4' : '';
    const ownerSql = owned ? `AND s.account_id = $${since ? 5 : 4} AND s.deleted_at IS NULL` : '';
    const total = since ? `(SELECT count(*)::int FROM leads WHERE signal_id = $1 ${sinceSql})` : 's.leads_total';
    const text = `SELECT ${total} AS total, newest.payload AS lead FROM signals s LEFT JOIN LATERAL (
         SELECT payload, created_at, id FROM leads WHERE signal_id = $1 ${sinceSql}
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3) newest ON true
       WHERE s.id = $1 ${ownerSql}
       ORDER BY newest.created_at DESC, newest.id DESC`;
    statement = { name, text, jsonAsText: true };
    pageStatements.set(name, statement);
  }
  return statement;
}

/** Reading leads (free) and the per-lead extras that follow production. */
export class Leads {
  constructor(
    private readonly db: DataSource,
    private readonly credits: Credits,
  ) {}

  /**
   * The leads page as JSON text. Stored payloads are spliced in as they are, never parsed and
   * re-serialised, so polling serves byte-for-byte what the webhook sends, and cheaply.
   */
  async pageJson(signalId: string, query: LeadPageQuery): Promise<string> {
    return (await this.readPage(signalId, query)) ?? emptyPage(signalId, query);
  }

  /**
   * The page of a signal of this account, null when the signal is unknown, deleted or another
   * account's: the ownership check rides in the page's own query, so a page costs one round
   * trip (the REST route; docs/performance.md).
   */
  async ownedPageJson(accountId: string, signalId: string, query: LeadPageQuery): Promise<string | null> {
    return this.readPage(signalId, query, accountId);
  }

  /**
   * One query, prepared (`runPrepared`), so PostgreSQL plans it once per connection rather
   * than once per page. Without `since`, the total is the signal's `leads_total`, which
   * production raises in the transaction that stores each lead and nothing lowers (leads are
   * never deleted): counting the rows instead cost a scan of all the signal's leads per page,
   * which held a signal of 1,000,000 leads to a few pages per second (docs/performance.md).
   * With `since`, the rows since then are counted, which a poller keeps few.
   */
  private async readPage(signalId: string, query: LeadPageQuery, accountId?: string): Promise<string | null> {
    const args: unknown[] = [signalId, query.limit, query.offset];
    if (query.since) args.push(query.since);
    if (accountId) args.push(accountId);
    const rows = await runPrepared<{ total: number; lead: string | null }>(
      this.db,
      pageStatement(Boolean(query.since), Boolean(accountId)),
      args,
    );
    if (rows.length === 0) return null;
    const leads = rows[0]!.lead === null ? [] : rows.map((row) => row.lead);
    const total = rows[0]!.total;
    const hasMore = query.offset + leads.length < total;
    return `{"signalId":${JSON.stringify(signalId)},"total":${total},"limit":${query.limit},"offset":${query.offset},"hasMore":${hasMore},"leads":[${leads.join(',')}]}`;
  }

  async payload(leadId: string): Promise<Record<string, unknown> | null> {
    const lead = await firstRow<{ payload: string }>(
      this.db,
      `SELECT payload::text AS payload FROM leads WHERE id = $1`,
      [leadId],
    );
    return lead ? (JSON.parse(lead.payload) as Record<string, unknown>) : null;
  }

  /**
   * The email of a person-level lead whose signal asks for emails. Where the signal type prices
   * emails (job changes: 0.5 credit), the charge is made only when an email is found, once per
   * lead (idempotent on the lead), in the same transaction that writes the email into the
   * stored payload; an account-watchlist lead's 3 credits already cover it.
   */
  async findEmail(leadId: string): Promise<Exclude<EmailStatus, 'pending'>> {
    return this.db.transaction(async (tx) => {
      const lead = await firstRow<{
        id: string;
        signal_id: string;
        account_id: string;
        email_status: EmailStatus;
        payload: string;
        email: string | null;
        signal_type_id: string;
      }>(
        tx,
        `SELECT l.id, l.signal_id, l.account_id, l.email_status, l.payload::text AS payload, p.email, s.signal_type_id
         FROM leads l JOIN signals s ON s.id = l.signal_id LEFT JOIN people p ON l.subject_key = 'person:' || p.id
         WHERE l.id = $1 FOR UPDATE OF l`,
        [leadId],
      );
      if (!lead) return 'not_requested';
      if (lead.email_status !== 'pending') return lead.email_status;
      if (!lead.email) {
        await execute(tx, `UPDATE leads SET email_status = 'not_found' WHERE id = $1`, [leadId]);
        return 'not_found';
      }
      const price = signalType(lead.signal_type_id).creditsPerEmailFound;
      const charge =
        price > 0
          ? await this.credits.charge(tx, {
              accountId: lead.account_id,
              credits: price,
              operation: 'email_found',
              idempotencyKey: `email:${leadId}`,
              signalId: lead.signal_id,
              leadId,
            })
          : 'charged';
      if (charge === 'insufficient') {
        await execute(tx, `UPDATE leads SET email_status = 'unpaid' WHERE id = $1`, [leadId]);
        return 'unpaid';
      }
      const payload = JSON.parse(lead.payload) as { contact: Record<string, unknown> };
      payload.contact.email = lead.email;
      await execute(tx, `UPDATE leads SET email_status = 'found', payload = $2 WHERE id = $1`, [
        leadId,
        JSON.stringify(payload),
      ]);
      return 'found';
    });
  }
}
