import type { DataSource } from 'typeorm';
import type { Credits } from '../credits';

export interface LeadPageQuery {
  since?: Date;
  limit: number;
  offset: number;
}

export const EMAIL_FOUND_CREDITS = 0.5;

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
    const since = query.since ?? new Date(0);
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM leads WHERE signal_id = $1 AND created_at >= $2`, [
      signalId,
      since,
    ]);
    const [{ count, leads }] = await this.db.query(
      `SELECT count(*)::int AS count, coalesce(string_agg(payload::text, ',' ORDER BY created_at DESC, id DESC), '') AS leads FROM (
         SELECT payload, created_at, id FROM leads WHERE signal_id = $1 AND created_at >= $2
         ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) page`,
      [signalId, since, query.limit, query.offset],
    );
    const hasMore = query.offset + count < total;
    return `{"signalId":${JSON.stringify(signalId)},"total":${total},"limit":${query.limit},"offset":${query.offset},"hasMore":${hasMore},"leads":[${leads}]}`;
  }

  async payload(leadId: string): Promise<Record<string, unknown> | null> {
    const rows = await this.db.query(`SELECT payload::text AS payload FROM leads WHERE id = $1`, [leadId]);
    return rows[0] ? JSON.parse(rows[0].payload) : null;
  }

  /**
   * The email of a person-level lead whose signal asks for emails. The 0.5 credit is charged
   * only when an email is found, once per lead (idempotent on the lead), and in the same
   * transaction that writes the email into the stored payload.
   */
  async findEmail(leadId: string): Promise<'found' | 'not_found' | 'not_requested' | 'unpaid'> {
    return this.db.transaction(async (tx) => {
      const [lead] = await tx.query(
        `SELECT l.id, l.signal_id, l.account_id, l.email_status, l.payload::text AS payload, p.email
         FROM leads l LEFT JOIN people p ON l.subject_key = 'person:' || p.id
         WHERE l.id = $1 FOR UPDATE OF l`,
        [leadId],
      );
      if (!lead || lead.email_status !== 'pending') return (lead?.email_status ?? 'not_requested') as 'found';
      if (!lead.email) {
        await tx.query(`UPDATE leads SET email_status = 'not_found' WHERE id = $1`, [leadId]);
        return 'not_found';
      }
      const charge = await this.credits.charge(tx, {
        accountId: lead.account_id,
        credits: EMAIL_FOUND_CREDITS,
        operation: 'email_found',
        idempotencyKey: `email:${leadId}`,
        signalId: lead.signal_id,
        leadId,
      });
      if (charge === 'insufficient') {
        await tx.query(`UPDATE leads SET email_status = 'unpaid' WHERE id = $1`, [leadId]);
        return 'unpaid';
      }
      const payload = JSON.parse(lead.payload);
      payload.contact.email = lead.email;
      await tx.query(`UPDATE leads SET email_status = 'found', payload = $2 WHERE id = $1`, [leadId, JSON.stringify(payload)]);
      return 'found';
    });
  }
}
